"""Globular Cluster's camera reader and printable stickers (G8.8)."""
