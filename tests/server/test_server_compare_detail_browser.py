"""The compare detail in the app, in Chromium: its rows and columns labelled (tokens, dimensions),
one number format per table (never 0.002 beside 9.64e-4), and shown at the end of the panel it
describes, not at the top of the page."""

from __future__ import annotations

import re

import pytest

from support.browser import CHROMIUM

from .test_server_browser import open_app

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]

FIXED, POWER = re.compile(r"^[-−]?\d+\.\d{3}$"), re.compile(r"^[-−]?\d\.\d{2}e[-+]\d+$")


def one_format(texts: list[str]) -> bool:
    numbers = [t for t in texts if t not in ("0", "≠", "–")]
    return all(FIXED.match(t) for t in numbers) or all(POWER.match(t) for t in numbers)


def test_the_detail_is_labelled_in_one_format_beside_its_panel(browser, app):
    page = open_app(browser, app)
    page.click("#pin")
    page.fill("#f-seed", "7")  # other weights: the runs part at the token embedding
    page.press("#f-seed", "Enter")
    page.wait_for_function("document.querySelector('.cmp-detail h3')?.dataset.step === 'src_embed.tok'",
                           timeout=30_000)
    detail = page.locator(".cmp-detail")
    assert detail.evaluate("d => d.closest('section.panel')?.getAttribute('data-id')") == "src_embed.tok"
    assert page.locator("#compare .cmp-detail").count() == 0  # not at the top any more
    # rows: the source's tokens, as the tutorial's rule splits "when you play the game of thrones"
    rows = detail.locator(".cmp-side").first.evaluate(
        "f => Array.from(f.querySelectorAll('tbody th')).map(t => t.textContent)")
    assert rows == ["when", "you", "play", "the", "game", "of", "thrones"]
    cols = detail.locator(".cmp-side").first.evaluate(
        "f => Array.from(f.querySelectorAll('thead th:not(.corner)')).map(t => t.textContent)")
    assert len(cols) == 6 and all(c.strip() for c in cols)  # d_model 6 of the tutorial
    for k in range(3):
        cells = detail.locator(".cmp-side").nth(k).evaluate(
            "f => Array.from(f.querySelectorAll('td')).map(t => t.textContent)")
        assert one_format(cells), cells
    page.click(".cmp-where button")
    top = detail.evaluate("d => d.getBoundingClientRect().top")
    assert 0 <= top < page.viewport_size["height"]
    page.screenshot(path="/tmp/shots44/compare-1280.png")
    assert page.errors == []


def test_a_tiny_weight_change_keeps_one_format_per_table(browser, app):
    page = open_app(browser, app)
    page.click("#pin")
    page.fill("#f-edit\\.param", "decoder.0.ffn.w_1")
    page.fill("#f-edit\\.index", "0, 0")
    page.fill("#f-edit\\.value", "0.0005")  # small differences downstream beside larger ones
    page.press("#f-edit\\.value", "Tab")
    page.wait_for_selector("#compare .cmp-table tr.first", timeout=30_000)
    page.wait_for_selector(".cmp-detail .cmp-side")
    diffs = page.eval_on_selector_all("#compare .cmp-table tbody tr td:nth-child(2)",
                                      "ts => ts.map(t => t.textContent)")
    assert len(diffs) > 1 and one_format(diffs), diffs
    for k in range(3):
        cells = page.locator(".cmp-detail .cmp-side").nth(k).evaluate(
            "f => Array.from(f.querySelectorAll('td')).map(t => t.textContent)")
        assert one_format(cells), cells
    page.set_viewport_size({"width": 375, "height": 800})
    page.click(".cmp-where button")
    page.screenshot(path="/tmp/shots44/compare-375.png")
