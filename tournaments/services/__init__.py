"""Service functions: every change to tournament data goes through one of these.

Each is one verb, runs in a transaction and writes an audit entry (who, what, when, why). Views, the
API and management commands parse input, check permissions and call a service.
"""
