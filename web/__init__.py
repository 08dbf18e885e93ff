"""The Flask site: the table's web interface (planned)."""
