"""The test suite: a package, so that `tests.helpers` and `tests.reference` are imported one way everywhere."""
