"""Version 1 of the REST API, under /api/v1/: one interface for the TD's pages, the table devices
and outside clients, described by its OpenAPI document at /api/v1/schema/."""
