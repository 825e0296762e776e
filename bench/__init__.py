"""Benchmarks: `make bench` (requests through Django's full stack) and `make load` (gunicorn
under a simulated room of tables). Results go to bench/results.json; see docs/performance.md."""
