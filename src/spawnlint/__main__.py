"""`python -m spawnlint` entry point."""

import sys

from spawnlint.console import main

sys.exit(main())
