"""The page's state in its address: a copied link opened in a fresh browser restores the
sentences, the model settings, the language and the panel being read; responses are gzipped;
an edit replaces the panel it changes and keeps the others."""

from __future__ import annotations

import gzip
import json

import numpy as np
import pytest

import handformer
from support.browser import CHROMIUM

from .test_server_browser import matrix, open_app, reveal

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]


def _top_id(page) -> str:
    return page.evaluate("""Array.from(document.querySelectorAll('#panels section.panel'))
        .find(p => p.getBoundingClientRect().bottom > 90).getAttribute('data-id')""")


def test_a_copied_link_restores_the_view_in_a_fresh_browser(browser, app):
    page = open_app(browser, app)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.fill("#f-src", "you play the game")
    page.fill("#f-heads", "2")
    page.wait_for_selector('#panels section.panel[data-id="encoder.0.self_attn.head.1.scores"]',
                           state="attached")  # new panels are stubs till they come near
    page.click('[data-set-lang="zh"]')
    page.click("#backward")
    page.wait_for_selector('#panels section.panel[data-id="grad.generator.logits"]',
                           state="attached", timeout=30_000)
    page.eval_on_selector('#panels section.panel[data-id="encoder.0.self_attn"]',
                          "s => s.scrollIntoView({block: 'start'})")
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("j")
    reading = _top_id(page)
    page.click("#copy-link")
    page.wait_for_function("document.getElementById('status').textContent === '链接已复制'")
    link = page.evaluate("navigator.clipboard.readText()")
    assert link.startswith(app.url + "/?") and "#s-" in link
    page.context.close()

    fresh = browser.new_context(viewport={"width": 1280, "height": 900})  # no storage, no cookie
    other = fresh.new_page()
    other.goto(link)
    other.wait_for_selector("#panels section.panel.phase-backward", timeout=30_000)
    other.wait_for_function(f"document.getElementById('s-{reading}').getBoundingClientRect().top < 120")
    assert other.input_value("#f-src") == "you play the game"
    assert other.input_value("#f-heads") == "2"
    assert other.get_attribute("html", "data-lang") == "zh"
    assert other.get_attribute("#backward", "aria-pressed") == "true"
    assert _top_id(other) == reading
    assert other.locator('#panels figure.mx[data-name="encoder.0.self_attn.head.1.scores"]').count() >= 1
    fresh.close()


def test_an_edit_replaces_the_panel_it_changes_and_keeps_the_others(browser, app):
    page = open_app(browser, app)
    reveal(page, "src_embed.tok")  # the panel read while the sentence is edited
    page.evaluate("""['tgt_embed.tok', 'src_embed.tok'].forEach(id =>
        document.querySelector('#panels section.panel[data-id="' + id + '"]').dataset.mark = 'old')""")
    page.fill("#f-src", "you win the game")
    page.wait_for_function("""document.querySelector('#panels section.panel[data-id="src_embed.tok"]')
        .dataset.mark === undefined""")
    page.wait_for_function("document.getElementById('panels').getAttribute('aria-busy') === 'false'")
    reveal(page, "tgt_embed.tok")  # checked against the edit as it comes near: unchanged
    kept = page.get_attribute('#panels section.panel[data-id="tgt_embed.tok"]', "data-mark")
    assert kept == "old"  # the target's embedding: the same element
    tape = handformer.walk(src="you win the game")
    np.testing.assert_allclose(matrix(page, "src_embed.tok"), tape["src_embed.tok"], atol=5e-4)
    assert page.errors == []
    page.context.close()


def test_answers_are_gzipped_and_a_bad_have_is_refused(client):
    status, headers, body = client.request("POST", "/api/panels", {"src": "the game"})
    assert status == 200 and "gzip" not in headers.get("Content-Encoding", "")  # not asked for
    import urllib.request

    req = urllib.request.Request(client.base + "/api/panels/changed", method="POST",
                                 data=json.dumps({"walk": {"src": "the game"}}).encode(),
                                 headers={"Content-Type": "application/json", "Accept-Encoding": "gzip"})
    with client.opener.open(req, timeout=60) as r:
        assert r.headers["Content-Encoding"] == "gzip"
        data = json.loads(gzip.decompress(r.read()))
    assert set(data["panels"]) == set(data["order"]) and data["toc"]
    status, answer = client.json("POST", "/api/panels/changed", {"walk": {}, "have": ["x"]})
    assert status == 400 and answer["field"] == "have"  # an object, not a list: the wrong type


def test_a_reload_re_attaches_the_trained_job(browser, app):
    page = open_app(browser, app)
    page.fill("#f-epochs", "3")
    page.click("#train")
    page.wait_for_function("document.getElementById('train-status').getAttribute('data-state') === 'done'",
                           timeout=60_000)
    page.wait_for_function("new URLSearchParams(location.search).get('job') !== null")
    page.reload()
    page.wait_for_function("document.getElementById('train-status').getAttribute('data-state') === 'done'",
                           timeout=30_000)
    assert page.is_enabled("#translate")
    assert page.get_attribute("#train-progress", "value") == "3"
    page.context.close()


def test_scripts_that_arrive_after_the_texts_still_restore_the_link(browser, app):
    """The texts (ui_text.json) can come back before url.js and pairs.js have run: the page
    waits for every script, so a link's state is restored and the pairs listed (CI once saw
    "HF.restore is not a function" and a page with no panels)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    late = ("url.js", "pairs.js")

    def slowly(route):
        import time

        time.sleep(1.0)  # the texts are answered meanwhile
        route.continue_()

    for name in late:
        context.route(f"**/static/{name}", slowly)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(app.url + "/?src=you+play+the+game&lang=zh")
    page.wait_for_selector("#panels section.panel", timeout=30_000)
    assert page.input_value("#f-src") == "you play the game"
    assert page.evaluate("document.documentElement.lang").startswith("zh")
    page.wait_for_function("document.querySelectorAll('#pairs-list li').length > 0",
                           timeout=10_000)
    assert errors == []
    context.close()


def test_the_end_of_a_walk_leaves_the_link_copied_message(browser, app):
    """Copy link pressed while a walk is on its way: the walk's "ready" must not wipe the message."""
    page = open_app(browser, app)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    held = []
    page.route("**/api/panels/changed", lambda route: held.append(route))
    page.fill("#f-heads", "2")
    while not held:
        page.wait_for_timeout(20)
    assert page.get_attribute("#panels", "aria-busy") == "true"
    page.click("#copy-link")
    page.wait_for_function("document.getElementById('status').textContent === 'link copied'")
    held.pop().continue_()
    page.unroute("**/api/panels/changed")
    page.wait_for_function("document.getElementById('panels').getAttribute('aria-busy') === 'false'")
    page.wait_for_selector('#panels section.panel[data-id="encoder.0.self_attn.head.1.scores"]', state="attached")
    assert page.inner_text("#status") == "link copied"
    page.context.close()
