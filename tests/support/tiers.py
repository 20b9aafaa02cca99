"""The two tiers of the suite.

``make check`` (``pytest -m check``) is the fast tier a developer runs after every change: the
engine, every family's numbers against torch and the independent reference, narration, files
and the CLI in-process. ``make test`` runs every test, these included. A test is in the fast
tier unless it carries one of the marks in HEAVY (``slow`` among them: a test of more than a
few seconds, such as the paper-sized walks, runs in ``make test`` only); the marks come from the test itself
(``@pytest.mark.browser``, ``pytestmark = pytest.mark.process``) or from the fixtures it uses
(FIXTURE_MARKS). A fast-tier test that starts a process fails, naming the mark to give it, so
the fast tier stays fast as tests are added.
"""

from __future__ import annotations

import subprocess

import pytest

from support.paths import TESTS

HEAVY = ("browser", "libreoffice", "server", "process", "benchmark", "slow")

# Fixtures that make a test heavy (Chromium), and folders whose every test is (the app on
# uvicorn; the benchmark scripts and their parts).
FIXTURE_MARKS = {"browser": "browser"}
FOLDER_MARKS = {TESTS / "server": "server", TESTS / "benchmarks": "benchmark"}


def pytest_configure(config):
    config.addinivalue_line("markers", "check: in the fast tier (set by tests/support/tiers.py)")


def heavy_marks(item) -> set[str]:
    marks = {m for m in HEAVY if item.get_closest_marker(m)}
    marks |= {FIXTURE_MARKS[f] for f in item.fixturenames if f in FIXTURE_MARKS}
    return marks | {m for folder, m in FOLDER_MARKS.items() if folder in item.path.parents}


def pytest_collection_modifyitems(config, items):
    for item in items:
        marks = heavy_marks(item)
        for mark in marks:
            item.add_marker(mark)
        if not marks:
            item.add_marker("check")


# Programs libraries start for themselves, once per process: matplotlib's font list when it
# builds its cache, ctypes.util looking up a library.
LIBRARY_HELPERS = ("fc-list", "/sbin/ldconfig", "ldconfig")


class ProcessInFastTier(AssertionError):
    pass


@pytest.fixture(autouse=True)
def no_process_in_the_fast_tier(request, monkeypatch):
    """A test of the fast tier may not start a process: it is marked ``process`` instead."""
    if request.node.get_closest_marker("check") is None:
        yield
        return
    def refuse(self, args, *rest, **kwargs):
        if isinstance(args, (list, tuple)) and args and args[0] in LIBRARY_HELPERS:
            return original(self, args, *rest, **kwargs)
        raise ProcessInFastTier(
            f"{request.node.nodeid} started a process ({args!r}): mark it "
            "@pytest.mark.process (make test runs it), or call main(argv) in-process "
            "(support.clirun.run_here)")

    original = subprocess.Popen.__init__
    monkeypatch.setattr(subprocess.Popen, "__init__", refuse)
    yield
