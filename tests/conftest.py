"""Shared test setup: float64, NumPy floating-point errors raise, small hypothesis budgets, a
cache folder of the tests' own, one Chromium and the tutorial's tapes per session, and the two
tiers (``make check``: the tests marked ``check``; ``make test``: every test)."""

import atexit
import os
import shutil
import signal
import tempfile

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

from support.browser import CHROMIUM_ARGS, ReusedContexts, open_page  # noqa: F401  (open_page: for tests)
from support.processes import walk_in_a_fresh_process  # noqa: F401
from support.unprivileged import open_folder  # noqa: F401  (a folder user nobody may write)

pytest_plugins = ["support.ci_skips", "support.tiers"]  # the skip count; in CI, a skipped family fails the run

settings.register_profile(
    "handformer", max_examples=25, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("handformer")

# files/user_cache.py's folder, for this session and every process it starts: the tests'
# pages neither fill the user's ~/.cache/handformer (whose tables each later page would read)
# nor depend on what it holds. Removed at exit, after the tables' own saves (atexit runs
# the handlers registered later first).
_CACHE = tempfile.mkdtemp(prefix="handformer-tests-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, True)


# A suite started in the background by a non-interactive shell (`make test &`) inherits SIGINT
# ignored, and so would every handformer process it starts: their Ctrl-C tests would see the
# signal ignored. A handler here is reset to the default in each process started (an ignored
# signal stays ignored across exec).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True)
def numpy_errors_raise():
    old = np.seterr(all="raise", under="ignore")
    yield
    np.seterr(**old)


@pytest.fixture(scope="session")
def browser():
    """Debian's headless Chromium under Playwright (never a downloaded browser), one per test
    process: each test opens its own context (open_page), cleared of the last test's state
    when reused (support.browser.ReusedContexts), so no state passes between tests."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs playwright (pip)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        yield ReusedContexts(b)
        b.close()


# The tutorial's walk, forward and with one backward pass: shared by the narration tests,
# which only read them.
@pytest.fixture(scope="session")
def tape():
    from handformer import api

    return api.walk()


@pytest.fixture(scope="session")
def backward_tape():
    from handformer import api

    return api.walk(backward=True, lr=0.1)
