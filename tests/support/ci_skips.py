"""Skips counted and, in CI, refused: every run ends with how many tests were skipped and why;
under CI=true or HANDFORMER_REQUIRE_ALL=1, a skip because Chromium, Playwright, LibreOffice,
torch, the server's packages or tokenizers are missing fails the run (a CI machine that lost
a package must not stay green). Other skips (a tmpfs that cannot be mounted, an optional model that is
not installed) are listed, not failed."""

from __future__ import annotations

import os
import re
from collections import Counter

import pytest

# The test families CI installs everything for, and the words their skip reasons use.
REQUIRED = {
    "browser": ("chromium", "playwright"),
    "spreadsheet": ("libreoffice", "soffice", "uno", "openpyxl", "xlsxwriter"),
    "torch": ("torch",),
    "server": ("uvicorn", "starlette"),
    "tokenizers": ("tokenizers",),  # tests/test_bpe.py: Hugging Face's BPE trainer
    "smollm2": ("smollm2",),  # tests/families/gpt/test_smollm2_*.py: the smollm2 extra
}

_skips: list[tuple[str, str]] = []  # (test id, reason)


def required() -> bool:
    return (os.environ.get("CI", "").lower() == "true"
            or os.environ.get("HANDFORMER_REQUIRE_ALL") == "1")


def reason_of(report) -> str:
    longrepr = report.longrepr
    text = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    return text.removeprefix("Skipped: ")


def family_of(reason: str) -> str | None:
    """The required family a skip reason names a missing part of (by whole words), or None."""
    lower = reason.lower()
    return next((name for name, words in REQUIRED.items()
                 if any(re.search(rf"\b{w}\b", lower) for w in words)), None)


def pytest_runtest_logreport(report):
    if report.skipped and not hasattr(report, "wasxfail"):
        _skips.append((report.nodeid, reason_of(report)))


def pytest_collectreport(report):
    if report.skipped:  # a whole module skipped at import (pytest.importorskip)
        _skips.append((f"{report.nodeid} (the whole module)", reason_of(report)))


def missing_families() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for _, reason in _skips:
        family = family_of(reason)
        if family:
            found.setdefault(family, []).append(reason)
    return found


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    if required() and missing_families() and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter):
    write = terminalreporter.write_line
    terminalreporter.section("skips")
    write(f"{len(_skips)} skipped (tests, or whole modules at import)")
    for reason, count in Counter(r for _, r in _skips).most_common():
        write(f"  {count:3d} × {reason}")
    missing = missing_families()
    if required() and missing:
        write(f"FAILED: CI runs every test family, and these were skipped: "
              f"{', '.join(sorted(missing))} (install what the reasons above name)", red=True)
