"""Shared test setup: float64, NumPy floating-point errors raise, small hypothesis budgets."""

import ast

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "handformer", max_examples=25, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("handformer")


@pytest.fixture(autouse=True)
def numpy_errors_raise():
    old = np.seterr(all="raise", under="ignore")
    yield
    np.seterr(**old)


HEAVY = ("torch", "jinja2", "matplotlib", "rich")


def walk_in_a_fresh_process(*args: str) -> tuple[str, list[str]]:
    """Run `handformer ARGS` in a new interpreter: its stdout, and which of the heavy
    libraries (torch, jinja2, matplotlib, rich) it imported."""
    import subprocess
    import sys

    code = ("import sys\nfrom handformer.cli import main\n"
            f"try:\n    main({list(args)!r})\nexcept SystemExit as exit:\n"
            "    assert not exit.code, exit.code\n"
            f"print('HEAVY', sorted(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120, check=True)
    heavy = next(line for line in result.stderr.splitlines() if line.startswith("HEAVY "))
    return result.stdout, ast.literal_eval(heavy.removeprefix("HEAVY "))


CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]


@pytest.fixture(scope="module")
def browser():
    """Debian's headless Chromium under Playwright (never a downloaded browser)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs playwright (pip)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        yield b
        b.close()


def open_page(browser, path, width=1280, height=900):
    """A fresh page (its own storage) with console errors and dialogs recorded."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.errors, page.dialogs = [], []
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
    page.goto(path.as_uri())
    return page


# The tutorial's walk, forward and with one backward pass: shared by the narration tests.
@pytest.fixture(scope="module")
def tape():
    from handformer import api

    return api.walk()


@pytest.fixture(scope="module")
def backward_tape():
    from handformer import api

    return api.walk(backward=True, lr=0.1)
