"""The keys help in the app, in Chromium: "?" and the header's button open a list of the keys
nav.js and app.js have, in the page's language; Escape closes it; a "?" typed in a field is text."""

from __future__ import annotations

import pytest

from support.browser import CHROMIUM

from .test_server_browser import open_app

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]

# the keys nav.js binds (ArrowRight/j, ArrowLeft/k) and this help's own, with their words
WORDS = {"en": ("next step", "previous step", "close this list"),
         "zh": ("下一步", "上一步", "关闭这张表")}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_question_mark_opens_the_keys_and_escape_closes_them(browser, app, lang):
    page = open_app(browser, app)
    if lang != "en":
        page.click(f'#langs button[data-set-lang="{lang}"]')
    help_box = page.locator("#keys-help")
    assert help_box.is_hidden()
    page.locator("body").click(position={"x": 5, "y": 5})  # the focus outside the form's fields
    page.keyboard.press("?")
    assert help_box.is_visible()
    text = help_box.inner_text()
    for key in ("j", "k", "→", "←", "?", "Esc"):
        assert key in text
    for words in WORDS[lang]:
        assert words in text
    page.screenshot(path=f"/tmp/shots44/keys-{lang}-1280.png")
    page.keyboard.press("Escape")
    assert help_box.is_hidden()
    page.click("#keys-open")
    assert help_box.is_visible()
    page.click("#keys-close")
    assert help_box.is_hidden()


def test_a_question_mark_typed_in_a_sentence_is_text(browser, app):
    page = open_app(browser, app)
    page.click("#f-tgt")
    page.keyboard.press("End")
    page.keyboard.press("?")
    assert page.locator("#keys-help").is_hidden()
    assert page.input_value("#f-tgt").endswith("?")
