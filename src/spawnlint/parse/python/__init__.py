"""Python files: read with the standard library (`read.py`: tokenize and ast, for every run), and
fixed with libcst (`fix.py`: imported only when --fix edits a Python spawn site)."""

from spawnlint.parse.python.read import parse_python

__all__ = ["parse_python"]
