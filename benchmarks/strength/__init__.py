"""How strong the default player is: `python -m benchmarks.strength` (see __main__.py)."""
