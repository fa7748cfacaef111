"""Benchmarks of migrate-roots (not part of the test suite). Run: `python -m benchmarks` from the repo root."""
