"""`python -m interpreter ...` is the `regelwerk` command."""
import sys

from .frontends.cli import main

sys.exit(main())
