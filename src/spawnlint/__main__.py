"""`python -m spawnlint` entry point."""

import sys

from spawnlint.cli import main

sys.exit(main())
