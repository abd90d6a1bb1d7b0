"""Hand-written reference implementations of the bundled games (oracles for
differential tests and the speed baseline); independent of `interpreter/`."""
