"""Typing and history in the app, in Chromium: a word typed letter by letter is sent once, when
typing pauses (never its prefixes), and an edit is a history entry that Back and Forward undo."""

from __future__ import annotations

import pytest

from support.browser import CHROMIUM

from .test_server_browser import open_app

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]

WALK_PATHS = ("/api/walk", "/api/panels")  # /api/panels/changed included


def settled(page):
    page.wait_for_function("document.getElementById('panels').getAttribute('aria-busy') === 'false'"
                           " && document.getElementById('status').textContent !== ''")
    page.wait_for_timeout(500)  # past the typing pause: nothing more is on its way


def test_a_word_typed_quickly_is_sent_once_and_its_prefixes_never(browser, app):
    page = open_app(browser, app)
    settled(page)
    asked = []
    page.on("request", lambda r: asked.append(r.post_data_json) if r.url.split("?")[0].endswith(
        WALK_PATHS[1] + "/changed") or r.url.endswith(WALK_PATHS) else None)
    shown = []  # every message the source's error slot shows while the word is typed
    page.expose_function("sawError", lambda text: shown.append(text))
    page.evaluate("""() => new MutationObserver(() => {
        const p = document.querySelector('.field-error[data-for="src"]');
        if (p && !p.hidden && p.textContent) { window.sawError(p.textContent); }
      }).observe(document.querySelector('.side'), {subtree: true, childList: true, attributes: true,
                                                  characterData: true})""")
    page.fill("#f-src", "the ")
    for _ in range(100):  # that edit's own request, sent when the pause ends (late on a busy machine)
        if any(body["walk"]["src"] == "the " for body in asked):
            break
        page.wait_for_timeout(100)
    settled(page)
    asked.clear()
    page.type("#f-src", "storm", delay=40)  # 40 ms a letter: well inside the 350 ms pause
    settled(page)
    sources = {body["walk"]["src"] for body in asked}
    # the prefixes "the s", "the st", "the sto" are never sent; the whole word is, once (a
    # second request of a change is the panels out of view: the same sentence)
    assert sources == {"the storm"}, asked
    assert len(asked) <= 2
    assert not [t for t in shown if "'s'" in t or "'st'" in t or "'sto'" in t], shown


def test_an_unknown_word_is_said_after_the_pause(browser, app):
    page = open_app(browser, app)
    settled(page)
    page.fill("#f-src", "the ")
    page.wait_for_timeout(700)
    page.type("#f-src", "zebra", delay=40)  # not in the tutorial's corpus
    settled(page)
    slot = page.locator('.field-error[data-for="src"]')
    assert "zebra" in slot.inner_text() and "'zebr'" not in slot.inner_text()


def test_back_after_an_edit_restores_the_previous_sentence_and_forward_the_edit(browser, app):
    page = open_app(browser, app)
    settled(page)
    first = page.input_value("#f-src")
    assert first == "when you play the game of thrones"  # the tutorial's source (the default)
    page.fill("#f-src", "the true enemy")  # words of the tutorial's corpus
    page.press("#f-src", "Enter")
    settled(page)
    assert page.input_value("#f-src") == "the true enemy"
    page.go_back()
    settled(page)
    assert page.input_value("#f-src") == first
    assert "/" in page.url and "thrones" in page.url
    # the panels say the restored sentence again: its tokens in the source's id panel
    page.wait_for_function("document.querySelector('#panels').textContent.includes('thrones')")
    page.go_forward()
    settled(page)
    assert page.input_value("#f-src") == "the true enemy"
    assert "enemy" in page.url
