"""The app's keys move between its panels; compare's side-by-side detail for a 3-D step (one
head at a time, chosen by a control), reset by a new comparison; word ids shown as words."""

from __future__ import annotations

import numpy as np
import pytest

from handformer.families.transformer.config import preset
from handformer.families.transformer.run import run_forward, setup
from handformer.text import TUTORIAL_SRC, TUTORIAL_TGT
from support.browser import CHROMIUM

from .test_server_browser import matrix, open_app

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]

EDIT = ("decoder.0.cross_attn.w_k", (1, 2), 0.75)


def _reading(page) -> int:
    """The index of the panel the page marks as being read (nav.js's class "here")."""
    return page.evaluate("""Array.from(document.querySelectorAll('#panels section.panel'))
        .findIndex(p => p.classList.contains('here'))""")


def _top_panel(page) -> int:
    """The index of the panel scrolled to the top of the window (below the sticky header)."""
    return page.evaluate("""Array.from(document.querySelectorAll('#panels section.panel'))
        .findIndex(p => p.getBoundingClientRect().top >= -1 && p.getBoundingClientRect().top < 100)""")


def test_j_k_and_the_arrows_move_between_the_apps_panels(browser, app):
    page = open_app(browser, app)
    page.evaluate("document.activeElement && document.activeElement.blur()")
    moves = [("j", 1), ("ArrowRight", 2), ("j", 3), ("k", 2), ("ArrowLeft", 1)]
    for key, want in moves:
        page.keyboard.press(key)
        assert _reading(page) == want, key
        assert _top_panel(page) == want, key
    ids = page.evaluate("Array.from(document.querySelectorAll('#panels section.panel')).map(p => p.id)")
    assert page.evaluate("location.hash") == "#" + ids[1]
    page.fill("#f-heads", "2")  # new panels swapped in: the keys walk the new ones
    page.wait_for_selector('#panels section.panel[data-id="encoder.0.self_attn.head.1.scores"]',
                           state="attached")  # a stub till it comes near the window
    page.wait_for_function("document.getElementById('panels').getAttribute('aria-busy') === 'false'")
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("j")
    now = page.evaluate("Array.from(document.querySelectorAll('#panels section.panel')).map(p => p.id)")
    assert _top_panel(page) == _reading(page) >= 1 and len(now) > len(ids)
    assert page.errors == []
    page.context.close()


def _table(page, n: int, words=False):
    """The n-th matrix of the compare detail (0 pinned, 1 current, 2 Δ) as text or numbers."""
    cells = page.evaluate(f"""Array.from(document.querySelectorAll('.cmp-side')[{n}]
        .querySelectorAll('tbody tr')).map(r => Array.from(r.querySelectorAll('td')).map(c => c.textContent))""")
    return cells if words else np.array([[float(x.replace("−", "-")) for x in r] for r in cells])


def _until(page, name: str, want, seconds: float = 30) -> None:
    """Wait until the walkthrough's matrix ``name`` shows ``want`` (to the page's 3 decimals)."""
    for _ in range(int(seconds * 10)):
        shown = matrix(page, name)
        if shown.shape == want.shape and np.allclose(shown, want, atol=5e-4):
            return
        page.wait_for_timeout(100)
    np.testing.assert_allclose(matrix(page, name), want, atol=5e-4)


def _head(page) -> int:
    return int(page.get_attribute('#cmp-head button[aria-pressed="true"]', "data-head"))


def _edited_runs():
    s = setup(preset("tutorial"))
    a = run_forward(s, TUTORIAL_SRC, TUTORIAL_TGT)  # the app's sentences when it opens
    params = {k: v.copy() for k, v in a.params.items()}
    params[EDIT[0]][EDIT[1]] = EDIT[2]
    s.params = params
    return a, run_forward(s, TUTORIAL_SRC, TUTORIAL_TGT)


def test_compare_detail_of_a_3d_step_per_head_and_reset_by_a_new_comparison(browser, app):
    a, b = _edited_runs()
    k_a, k_b = np.asarray(a["decoder.0.cross_attn.k"]), np.asarray(b["decoder.0.cross_attn.k"])
    assert k_a.ndim == 3 and k_a.shape[0] == 2
    moved = [h for h in range(2) if not np.array_equal(k_a[h], k_b[h])]
    page = open_app(browser, app)
    page.click("#pin")
    page.fill("#f-edit\\.param", EDIT[0])
    page.fill("#f-edit\\.index", "1, 2")
    page.fill("#f-edit\\.value", str(EDIT[2]))
    page.dispatch_event("#f-edit\\.value", "change")
    page.wait_for_selector("#cmp-head", timeout=30_000)
    assert page.get_attribute(".cmp-detail h3", "data-step") == "decoder.0.cross_attn.k"
    assert _head(page) == moved[0]  # the first head that moved
    np.testing.assert_allclose(_table(page, 0), k_a[moved[0]], atol=5e-4)
    np.testing.assert_allclose(_table(page, 1), k_b[moved[0]], atol=5e-4)
    np.testing.assert_allclose(_table(page, 2), k_b[moved[0]] - k_a[moved[0]], atol=5e-4)
    other = 1 - moved[0]
    page.click(f'#cmp-head button[data-head="{other}"]')
    assert _head(page) == other
    np.testing.assert_allclose(_table(page, 1), k_b[other], atol=5e-4)
    assert page.locator(".cmp-detail td.changed").count() == int((k_a[other] != k_b[other]).sum())
    later = page.locator("#compare .cmp-table button.link").nth(3)
    chosen = later.get_attribute("data-step")
    later.click()
    assert page.get_attribute(".cmp-detail h3", "data-step") == chosen != "decoder.0.cross_attn.k"
    page.fill("#f-edit\\.value", "0.5")  # a new comparison: its own first difference again
    page.dispatch_event("#f-edit\\.value", "change")
    page.wait_for_function("document.querySelector('.cmp-detail h3').dataset.step === 'decoder.0.cross_attn.k'")
    assert _head(page) == moved[0]
    assert page.errors == []
    page.context.close()


def test_word_ids_are_compared_as_words(browser, app):
    page = open_app(browser, app)
    page.click("#pin")
    page.fill("#f-tgt", "you die or you win")
    page.wait_for_function("document.querySelector('.cmp-detail h3')?.dataset.step === 'tgt.ids'",
                           timeout=30_000)
    assert _table(page, 0, words=True) == [["<start>", "you", "win", "or", "you", "die"]]
    assert _table(page, 1, words=True) == [["<start>", "you", "die", "or", "you", "win"]]
    changed = page.eval_on_selector_all(".cmp-side:nth-of-type(2) td.changed",
                                        "cs => cs.map(c => c.title)")
    assert changed == ["win → die", "die → win"]
    assert ".000" not in page.inner_text(".cmp-detail")  # no "14.000 → 7.000"
    assert page.errors == []
    page.context.close()


def test_the_walkthrough_shows_the_edited_run_with_b_and_the_configured_one_with_a(browser, app):
    a, b = _edited_runs()
    moved = [h for h in range(2) if not np.array_equal(a["decoder.0.cross_attn.k"][h], b["decoder.0.cross_attn.k"][h])][0]
    name = f"decoder.0.cross_attn.head.{moved}.k"
    page = open_app(browser, app)
    page.click("#pin")
    page.fill("#f-edit\\.param", EDIT[0])
    page.fill("#f-edit\\.index", "1, 2")
    page.fill("#f-edit\\.value", str(EDIT[2]))
    page.dispatch_event("#f-edit\\.value", "change")
    page.wait_for_selector("#cmp-head", timeout=30_000)
    np.testing.assert_allclose(matrix(page, name), a["decoder.0.cross_attn.k"][moved], atol=5e-4)
    page.click('[data-show-run="b"]')
    _until(page, name, b["decoder.0.cross_attn.k"][moved])  # the edited model's numbers
    page.click('[data-show-run="a"]')
    _until(page, name, a["decoder.0.cross_attn.k"][moved])
    assert page.errors == []
    page.context.close()
