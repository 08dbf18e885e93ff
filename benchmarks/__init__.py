"""Benchmarks for Cluster Companion, run with `python -m benchmarks` (`make bench`)."""
