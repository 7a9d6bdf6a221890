"""Player ratings over the finished events of a club or a federation, and their pages."""
