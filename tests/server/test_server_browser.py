"""The app as a person uses it, in Debian's headless Chromium against a server started here."""

from __future__ import annotations

import re

import numpy as np
import pytest

import handformer
from support.browser import CHROMIUM  # the project's Chromium; its `browser` fixture: conftest

XSS_IMG, XSS_SCRIPT = "<img src=x onerror=alert(1)>", "<script>alert(1)</script>"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]


def open_app(browser, app, width=1280, csp=False):
    """A fresh browser context (its own cookie: its own session), errors and dialogs recorded.

    The page's Content-Security-Policy is bypassed unless ``csp``: Playwright's waiting
    evaluates strings, and escaping must hold even without the CSP's second line of defence."""
    context = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=not csp)
    page = context.new_page()
    page.errors, page.dialogs = [], []
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error"
            and not m.text.startswith("Failed to load resource") else None)  # 4xx: answers
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
    page.answers = []  # every request's outcome, to say what happened if the panels never come
    page.on("response", lambda r: page.answers.append(f"{r.request.method} {r.url} {r.status}"))
    page.on("requestfailed", lambda r: page.answers.append(f"{r.method} {r.url} failed: {r.failure}"))
    page.goto(app.url + "/")
    try:
        page.wait_for_selector("#panels section.panel", timeout=30_000)
    except Exception as err:  # noqa: BLE001  (the page's own account, then the same failure)
        raise AssertionError(f"no panels after 30 s: {_account(page)}") from err
    return page


def _account(page) -> str:
    """What the page shows and what it asked, for a failure's message."""
    shown = page.evaluate("""({status: (document.getElementById('status') || {}).textContent,
        errors: Array.from(document.querySelectorAll('.field-error:not([hidden])')).map(e => e.textContent),
        busy: document.getElementById('panels').getAttribute('aria-busy')})""")
    return f"page {shown}; console {page.errors}; requests {page.answers}"


# A panel as the form's walk has it: not a stub, not waiting to be checked, nothing on its way.
UP_TO_DATE = """id => { const s = document.querySelector('#panels section.panel[data-id="' + id + '"]');
  return !!s && !s.classList.contains('stub') && !s.hasAttribute('data-unchecked')
    && document.getElementById('panels').getAttribute('aria-busy') === 'false'
    && !window.HF.checking(); }"""


def reveal(page, step: str, timeout: float = 30_000) -> None:
    """Scroll the panel of ``step`` into view and wait till it is up to date: the app brings a
    panel far from the window up to date only when it comes near (static/near.js)."""
    panel = f'#panels section.panel[data-id="{step}"]'
    page.wait_for_selector(panel, state="attached", timeout=timeout)
    page.eval_on_selector(panel, "s => s.scrollIntoView({block: 'start'})")
    page.wait_for_function(UP_TO_DATE, arg=step, timeout=timeout)


PANEL_OF = """name => { const f = document.querySelector('#panels figure.mx[data-name="' + name + '"]');
  const s = f && f.closest('section.panel'); return s ? s.getAttribute('data-id') : null; }"""


def matrix(page, name: str) -> np.ndarray:
    """The numbers of the first matrix drawn for step ``name``, read off the page (its panel,
    when the step has one of its own, brought into view and up to date first)."""
    for _ in range(3):  # the panel holding it, brought up to date, may hold it no more
        step = page.evaluate(PANEL_OF, name)
        if step is None:
            break
        reveal(page, step)
        if page.evaluate(PANEL_OF, name) == step:
            break
    rows = page.eval_on_selector(
        f'#panels figure.mx[data-name="{name}"] table',
        "t => Array.from(t.tBodies[0].rows).map(r => Array.from(r.querySelectorAll('td')).map(c => c.textContent))")
    return np.array([[float(x.replace("−", "-")) for x in r] for r in rows])


def test_type_a_sentence_change_heads_and_read_the_engines_numbers(browser, app):
    page = open_app(browser, app)
    scores = '#panels figure.mx[data-name="encoder.0.self_attn.head.0.scores"] tbody'
    before = matrix(page, "encoder.0.self_attn.head.0.scores")  # now in view: updated first
    page.fill("#f-src", "you play the game")
    page.wait_for_function(f"document.querySelector('{scores}').rows.length === 4")
    page.fill("#f-heads", "2")
    reveal(page, "encoder.0.self_attn.head.1.scores")  # a new panel: a stub till it comes near
    tape = handformer.walk(src="you play the game", heads=2)
    for head in (0, 1):
        name = f"encoder.0.self_attn.head.{head}.scores"
        shown = matrix(page, name)
        np.testing.assert_allclose(shown, tape[name], atol=5e-4 + 1e-12)
    assert before.shape == (7, 7) and not np.allclose(before[:4, :4], matrix(page, "encoder.0.self_attn.head.0.scores"))
    page.fill("#f-d_model", "7")  # odd: the engine's own error, shown by its field
    error = page.locator('.field-error[data-for="config.d_model"]')
    error.wait_for(state="visible")
    assert "d_model 7 is odd" in error.inner_text()
    assert page.get_attribute("#f-d_model", "aria-invalid") == "true"
    assert page.errors == []
    page.context.close()


def test_unchanged_panels_stay_and_the_step_being_read_stays_in_view(browser, app):
    page = open_app(browser, app)
    page.evaluate("document.querySelector('#s-dataset').dataset.mark = 'kept'")
    reading = '#panels section.panel[data-id="decoder.0.self_attn"]'
    page.evaluate("location.hash = '#s-decoder.0.self_attn'")  # a link to the step
    page.wait_for_timeout(200)
    top = page.eval_on_selector(reading, "s => s.getBoundingClientRect().top")
    assert top < 120  # at the top, held there while the panels near it are laid out
    page.fill("#f-heads", "2")  # a wider encoder: panels above the decoder grow
    page.wait_for_selector('#panels section.panel[data-id="encoder.0.self_attn.head.1.scores"]',
                           state="attached")
    page.wait_for_function("document.getElementById('panels').getAttribute('aria-busy') === 'false'")
    page.wait_for_timeout(100)
    assert page.get_attribute("#s-dataset", "data-mark") == "kept"  # the same element
    assert abs(page.eval_on_selector(reading, "s => s.getBoundingClientRect().top") - top) < 2
    page.click('[data-set-lang="zh"]')  # longer or shorter text above: the place is kept
    assert abs(page.eval_on_selector(reading, "s => s.getBoundingClientRect().top") - top) < 2
    page.context.close()


def test_show_all_works_on_swapped_in_panels(browser, app):
    """A wider model's matrices show corners; the export's own script opens them whole."""
    page = open_app(browser, app)
    page.select_option("#f-preset", "small")
    page.wait_for_selector('#panels section.panel[data-id="src_embed.scaled"]', state="attached")
    reveal(page, "encoder.0.self_attn.head.0.q")  # a wide matrix: its corners
    button = page.locator("#panels button.showall").first
    button.wait_for(timeout=30_000)
    figure = button.locator("xpath=ancestor::figure[1]")
    before = figure.locator("tbody td").count()
    button.click()
    assert figure.locator("tbody td").count() > before
    assert button.inner_text() != "show all"
    assert page.errors == []
    page.context.close()


def test_train_to_100_percent_translate_and_walk_backward(browser, app):
    page = open_app(browser, app)
    page.click("#train")
    page.wait_for_selector('#train-status[data-state="done"]', timeout=120_000)
    assert "100.0%" in page.inner_text("#train-status")
    points = page.get_attribute("#loss-curve polyline", "points").split()
    assert len(points) == 200
    page.fill("#f-sentence", "when you play the game of thrones")
    page.click("#translate")
    page.wait_for_function("document.getElementById('translation-text').textContent !== ''")
    assert page.inner_text("#translation-text") == "you win or you die"
    assert page.locator("#decoding section.panel").count() > 3
    page.click("#backward")
    reveal(page, "grad.generator.logits")  # the first gradient's panel, a stub till it is near
    assert "phase-backward" in page.get_attribute(
        '#panels section.panel[data-id="grad.generator.logits"]', "class")
    assert page.errors == []
    page.context.close()


def test_pin_change_the_seed_and_see_where_the_runs_part(browser, app):
    page = open_app(browser, app)
    page.click("#pin")
    page.fill("#f-seed", "1")
    page.wait_for_selector("#compare .cmp-table tr.first", timeout=30_000)
    summary = page.locator("#compare .cmp-summary")
    assert summary.get_attribute("data-step") == "src_embed.tok"  # the first lookup differs
    assert "Compute the embedding" in summary.inner_text()  # said as the walk's panel heading
    assert page.locator(".cmp-detail td.changed").count() > 0
    assert page.locator("#panels .delta-badge").count() > 0
    page.context.close()


def test_switch_to_chinese_under_the_content_security_policy(browser, app):
    page = open_app(browser, app, csp=True)
    page.click('[data-set-lang="zh"]')
    assert page.get_attribute("html", "lang") == "zh-CN"
    label = page.inner_text('label[for="f-src"]')
    assert re.search(r"[\u4e00-\u9fff]", label)
    narration = page.evaluate("""Array.from(document.querySelectorAll('#panels .narration'))
        .filter(d => d.offsetParent !== null).slice(0, 3).map(d => d.innerText).join(' ')""")
    assert re.search(r"[\u4e00-\u9fff]{4}", narration)
    page.reload()  # the choice is remembered
    page.wait_for_selector("#panels section.panel")
    assert page.get_attribute("html", "data-lang") == "zh"
    assert page.errors == []  # the app itself needs nothing the policy forbids
    page.context.close()


def test_xss_payloads_in_sentences_and_corpus_render_as_text(browser, app):
    page = open_app(browser, app)
    payload = f"{XSS_IMG} {XSS_SCRIPT}"
    page.fill("#f-corpus", f"{payload}\nyou win or you die")
    page.fill("#f-src", payload)
    page.fill("#f-tgt", f"you {XSS_IMG}")
    page.wait_for_function("document.querySelector('#panels').innerText.includes('onerror=alert(1)>')",
                           timeout=30_000)
    page.fill("#f-src", f"{payload} unknownword")  # an error message quoting the payload
    page.locator('.field-error[data-for="src"]').wait_for(state="visible")
    page.wait_for_timeout(300)
    assert page.dialogs == []
    assert page.locator('img[src="x"]').count() == 0
    scripts = page.evaluate("Array.from(document.scripts).map(s => s.src)")
    assert scripts == [f"{app.url}/static/{name}.js"  # the app's own files, nothing injected
                       for name in ("nav", "app", "live", "near", "hover", "sample", "url", "phone", "train", "compare_format", "compare", "upload", "quiz",
                                    "pairs", "trainview", "keys", "pretrained")]
    page.context.close()


def test_the_apps_wide_matrix_is_fitted_or_hinted_and_opens_on_its_worked_cell(browser, app):
    """The app lays out its panels as the export's script does, each time it replaces them: the
    25-column prediction beside the app's form either fits or says it scrolls, and opens
    scrolled to the cell the text works out."""
    page = open_app(browser, app, csp=True)
    probs = '#panels figure.mx[data-name="generator.probs"]'
    page.wait_for_selector(probs)
    page.eval_on_selector(probs, "f => f.scrollIntoView()")  # a new panel is fitted as it nears the window
    measure = """f => { const s = f.querySelector('.scroll');
      const c = s.querySelector('td.hc').getBoundingClientRect(), b = s.getBoundingClientRect();
      return {cut: s.scrollWidth - s.clientWidth, hint: f.classList.contains('overflows'),
              cols: s.querySelectorAll('thead th[data-j]').length,
              cellShown: c.left >= b.left && c.right <= b.right}; }"""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:  # the fitting runs after the scroll, later on a busy machine: wait for it, then check
        page.wait_for_function(f"""() => {{ const st = ({measure})(document.querySelector('{probs}'));
          return st.cellShown && (st.cut <= 1 || st.hint); }}""", timeout=10_000)
    except PlaywrightTimeout:
        pass  # the assertions below say what was wrong
    state = page.eval_on_selector(probs, measure)
    assert state["cols"] == 25 and state["cellShown"], state
    assert state["cut"] <= 1 or state["hint"], state
    assert page.errors == []
    page.context.close()


def test_on_a_phone_the_header_keeps_the_brand_in_view_while_reading(browser, app):
    """At 375 px the header stays at the top as the walkthrough scrolls, the brand in it."""
    page = open_app(browser, app, width=375)
    page.mouse.wheel(0, 4000)
    page.wait_for_function("window.scrollY > 2000")
    box = page.eval_on_selector(".top .brand", "b => { const r = b.getBoundingClientRect();"
                                " return [r.top, r.bottom, r.left, r.right, b.textContent]; }")
    top, bottom, left, right, text = box
    assert text == "handformer" and 0 <= top < bottom <= 60 and 0 <= left < right <= 375, box
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_on_the_smallest_phone_the_header_is_one_line(browser, app, lang):
    """At 320 px the brand, Copy link and both language buttons sit on one line, inside the
    screen: wrapped, the header took two lines of every screen the learner scrolls."""
    page = open_app(browser, app, width=320)
    page.goto(f"{app.url}/?lang={lang}")
    page.wait_for_selector("#panels section.panel", timeout=30_000)
    boxes = page.eval_on_selector_all(
        ".top > *, .top .controls > *", """els => els.filter(e => e.offsetParent !== null)
          .map(e => { const r = e.getBoundingClientRect();
                      return [e.className || e.tagName, r.top, r.bottom, r.left, r.right]; })""")
    names = [b[0] for b in boxes]
    assert "brand" in names and "copy-link" in names and len(names) >= 5, boxes
    tops = [b[1] for b in boxes if b[0] != "controls"]
    assert max(tops) - min(tops) < 8, boxes
    assert all(0 <= b[3] and b[4] <= 320 for b in boxes), boxes
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    assert page.errors == []
    page.context.close()

