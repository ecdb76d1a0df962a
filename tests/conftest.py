"""Shared helpers: write a project into a temporary folder and run the CLI on it."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from spawnlint.cli import main

# Property tests: few examples by default (CI stays fast); `--hypothesis-profile=long` for a
# real search, with `--run-slow` for the other long tests.
settings.register_profile("ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=5000, deadline=None, suppress_health_check=list(HealthCheck))
settings.load_profile("ci")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--run-slow", action="store_true", help="also run tests marked slow (tens of seconds)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: a long test, run only with --run-slow")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--run-slow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --run-slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


REPO = Path(__file__).resolve().parents[1]


class Run:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    @property
    def lines(self) -> list[str]:
        return [
            line
            for line in self.out.splitlines()
            if line and not line.startswith(("Found ", "No findings", "[*] "))
        ]


def run_cli(*args: str) -> Run:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(args))
    return Run(code, out.getvalue(), err.getvalue())


def write_project(root: Path, files: dict[str, str | bytes]) -> Path:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8", newline="")
    return root


@pytest.fixture(autouse=True, scope="session")
def _cache_in_tmp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Tests never write the parse cache into the user's home (session-wide, so that module
    fixtures which lint are covered too)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SPAWNLINT_CACHE_DIR", str(tmp_path_factory.mktemp("spawnlint-cache")))
        yield


@pytest.fixture
def project(tmp_path: Path) -> Callable[[dict[str, str | bytes]], Path]:
    def make(files: dict[str, str | bytes]) -> Path:
        return write_project(tmp_path / "proj", files)

    return make
