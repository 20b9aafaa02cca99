"""SmolLM2-135M in the page: chosen in the model family, its load said while it lasts, a short
prompt walked to its top-10, block 1 opened from the summary panel's buttons and its panels
filled as they come into view, then closed from its first panel; in English and Chinese."""

from __future__ import annotations

import re
import time

import pytest

from families.gpt.smollm2_file import gguf_path
from support.browser import CHROMIUM

from .test_server_browser import open_app

pytestmark = [
    pytest.mark.browser, pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]

NAME = "smollm2-135m"


FILLED = ("([sel, text]) => { const s = document.querySelector(sel); return !!s && "
          "!s.classList.contains('stub') && !s.hasAttribute('data-unchecked') && "
          "s.textContent.includes(text); }")


def panel(page, pid: str, text: str = "", seconds: float = 240):
    """The panel ``pid`` scrolled to, once the server has filled it (not a stub, not waiting
    for its check) and it says ``text`` (a panel may be swapped for its newer self meanwhile)."""
    from playwright.sync_api import Error

    selector = f'#panels > section.panel[data-id="{pid}"]'
    deadline = time.monotonic() + seconds
    while True:
        try:
            page.locator(selector).scroll_into_view_if_needed(timeout=2000)
            if page.evaluate(FILLED, [selector, text]):
                return page.locator(selector)
        except Error:  # not there yet, or swapped while scrolled to
            pass
        assert time.monotonic() < deadline, f"panel {pid} saying {text!r} never came"
        page.wait_for_timeout(200)


def test_smollm2_walks_a_prompt_to_its_top_10_and_opens_block_1(browser, app):
    gguf_path()
    page = open_app(browser, app)
    assert page.locator(f'#f-family option[value="{NAME}"]').is_enabled()
    page.select_option("#f-family", NAME)
    assert page.is_hidden("#f-tgt") and page.is_hidden("#f-preset")
    page.fill("#f-src", "the cat sat on the")
    page.press("#f-src", "Enter")
    page.wait_for_function("() => /^5 tokens/.test("
                           "document.getElementById('pretrained-status').textContent)",
                           timeout=240_000)
    top = panel(page, "generator.logits", "after “Ġthe”")
    lines = re.findall(r"(\d+)\. “", top.inner_text())
    assert lines == [str(k) for k in range(1, 11)]
    assert "49152" in top.inner_text()
    panel(page, "decoder.1-29.elided", "block 29")
    page.click('[data-open-block="1"]')
    block = panel(page, "decoder.1.ln1.out", seconds=60)
    assert "RMSNorm" in block.inner_text()
    assert page.input_value("#f-blocks_shown") == "0, 1"
    page.click('[data-set-lang="zh"]')
    rest = panel(page, "decoder.2-29.elided")
    rest.scroll_into_view_if_needed()  # read where it is (a panel out of view is not laid out)
    assert "完整展开一个块" in rest.inner_text()
    block.locator("[data-close-block]").click()  # closed again: one summary line per block
    panel(page, "decoder.1-29.elided", "‖x‖")
    assert page.input_value("#f-blocks_shown") == "0"
    assert page.errors == [], page.errors
