"""Cosmic Cluster (Glenn Overby, 1989): Diplomacy on a generated cluster of star systems, with the
Overby Standard Army/Fleet module. Rules: ``docs/cosmic-cluster.md`` (rulings C1-C6)."""
