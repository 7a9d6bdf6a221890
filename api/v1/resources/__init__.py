"""The read side of API v1, one module per area; ``api.v1.read_urls`` routes them."""
