"""Benchmarks of regelwerk against OpenSpiel and python-chess (not part of the tests).

Run `python -m benchmarks.run --help`; see benchmarks/README.md.
"""
