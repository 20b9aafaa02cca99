"""Matrices of up to 32 columns shown whole at 1280 px (issue 9, "never hide what is talked
about"), in headless Chromium: the tutorial's 25-word vocabulary and a model 32 wide, in
English and Chinese; the map that stays in view when the contents give the panels their column.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import handformer
from handformer.render.html import page as html
from support.browser import lay_out_every_panel
from support.browser import open_page as open_recorded

CHROMIUM = Path("/usr/bin/chromium")

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium")]

# Every drawn matrix of the page: its step, its size in the tape, and what each cell shows. As
# one JSON string: Playwright checks every field of an object it is handed against its protocol
# in Python, seconds for the tens of thousands of cells of a page 32 wide; a string is one field
# (an absent data-i or data-j written as null, which JSON keeps and Python reads as None).
MATRICES_JS = r"""() => JSON.stringify(Array.from(document.querySelectorAll('section.panel figure.mx'))
  .filter(f => f.getClientRects().length && f.querySelector(':scope > .scroll > table.grid'))
  .map(f => {
    const s = f.querySelector(':scope > .scroll'), t = s.firstElementChild;
    return {panel: f.closest('section.panel').dataset.id, name: f.dataset.name,
            shape: f.querySelector('.shape').textContent,
            cut: s.scrollWidth - s.clientWidth, hint: f.classList.contains('overflows'),
            font: parseFloat(getComputedStyle(t.querySelector('td')).fontSize),
            cols: Array.from(t.tHead.rows[0].cells).slice(1).map(th => th.dataset.j ?? '⋯'),
            cells: Array.from(t.tBodies[0].rows).flatMap(tr => Array.from(tr.cells).slice(1)
              .map((td, k) => ({i: tr.dataset.i ?? null, j: t.tHead.rows[0].cells[k + 1].dataset.j ?? null,
                                text: td.textContent, full: td.title || td.textContent,
                                worked: td.classList.contains('hc')})))};
  }))"""


@pytest.fixture(scope="module")
def wide_pages(tmp_path_factory):
    """The tutorial (a 6 × 25 prediction) and a model 32 wide (7 × 32 matrices), as pages."""
    folder = tmp_path_factory.mktemp("wide")
    tapes = {"tutorial": handformer.walk(), "d32": handformer.walk(d_model=32, heads=2)}
    out = {}
    for name, tape in tapes.items():
        out[name] = (folder / f"{name}.html", tape)
        out[name][0].write_text(html.render(tape), encoding="utf-8")
    return out


def open_page(browser, path: Path, width: int, height: int, lang: str):
    """The page at a size and in a language, every panel laid out and fitted (these tests
    read the whole page)."""
    page = open_recorded(browser, path, width, height)
    lay_out_every_panel(page)
    if lang != "en":
        page.click(f"[data-set-lang={lang}]")
        page.wait_for_timeout(500)  # the page ignores scrolling for 400 ms after its own moves
    return page


def stored(tape, name: str, shape: tuple[int, int]):
    """The tape's value a matrix draws, when it draws one as it is stored (not a view such as
    a transpose or the tutorial's own numbers)."""
    try:
        value = tape.value(name)
    except KeyError:
        return None
    value = value.reshape(-1, value.shape[-1])
    return value if value.shape == shape else None


@pytest.fixture(scope="module")
def loaded(browser, wide_pages):
    """Each page at 1280 × 900, loaded once for the test that reads its matrices in either
    language (the language's button, as open_page uses it, switches the same page). Errors are
    recorded from the load on, so a test fails on any error the page has raised while open."""
    opened = {}

    def page_in(name: str, lang: str):
        if name not in opened:
            opened[name] = open_page(browser, wide_pages[name][0], 1280, 900, "en")
        page = opened[name]
        if page.evaluate("document.documentElement.dataset.lang") != lang:
            page.click(f"[data-set-lang={lang}]")
            page.wait_for_timeout(500)  # as open_page waits
        return page

    yield page_in
    for page in opened.values():
        page.context.close()


@pytest.mark.parametrize("name", ["tutorial", "d32"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_matrix_up_to_32_columns_is_whole_at_1280(loaded, wide_pages, name, lang):
    tape = wide_pages[name][1]
    page = loaded(name, lang)
    drawn = json.loads(page.evaluate(MATRICES_JS))
    widest = max(len(m["cols"]) for m in drawn)
    assert widest == {"tutorial": 25, "d32": 32}[name]
    shortened = 0
    for m in drawn:
        where = (m["panel"], m["name"], len(m["cols"]))
        sizes = [int(n) for n in m["shape"].replace("×", " ").split()]
        rows, cols = (1, *sizes) if len(sizes) == 1 else sizes[-2:]
        if cols > 32:
            continue  # shown as corners, which the caption says
        assert m["cols"] == [str(j) for j in range(cols)], where  # every column
        assert m["cut"] <= 1 and not m["hint"], where  # and no scrolling
        assert m["font"] >= 10, where
        value = stored(tape, m["name"], (rows, cols))
        for c in m["cells"] if value is not None else ():
            if c["i"] is None or c["j"] is None or c["full"] in ("−∞", "-inf"):
                continue
            x = float(value[int(c["i"]), int(c["j"])])
            precision = 0 if float(c["full"]).is_integer() and "." not in c["full"] else 3
            assert c["full"] == f"{x:.{precision}f}".replace("-0.000", "0.000"), where
            if c["text"] != c["full"]:  # a shorter number: still the same value, rounded
                shortened += 1
                assert not c["worked"], where  # the worked cell keeps every digit
                decimals = len(c["text"].split(".")[1]) if "." in c["text"] else 0
                assert decimals < 3 and abs(float(c["text"]) - x) <= 0.5 * 10 ** -decimals + 1e-9
                assert sum(ch.isdigit() for ch in c["text"]) <= 3, where
    assert page.errors == []
    if name == "d32":
        assert shortened > 0  # 32 columns of 3 decimals do not fit at 10 px: the check ran


def reading(page, step: str, seconds: float = 10, where=()) -> None:
    """Wait until the page marks ``step`` as the one being read (it does once scrolling settles;
    polled here, since the page's policy forbids the strings wait_for_function evaluates)."""
    for _ in range(int(seconds * 10)):
        if page.evaluate("document.querySelector('section.panel.here')?.dataset.id") == step:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the page never marked {step} as the step being read {where}")


def test_the_map_stays_in_view_as_a_strip_while_the_panels_take_the_width(browser, wide_pages):
    """Below 1600 px on a page with a wide matrix, and on a phone (where the contents are always a
    drawer), the map is a strip in the header: it lights, keeps in view and names the block."""
    path, _ = wide_pages["tutorial"]
    for width, lang, word in ((1280, "en", "Cross-attention"), (1280, "zh", "交叉注意力"),
                              (375, "en", "Cross-attention")):
        page = open_page(browser, path, width, 900, lang)
        assert not page.locator("#toc").is_visible() and page.locator("#strip").is_visible()
        for target, block in (("encoder.0.self_attn.head.0.scores", "encoder.0.self_attn"),
                              ("decoder.0.cross_attn.head.0.scores", "decoder.0.cross_attn"),
                              ("generator.probs", "generator")):
            page.evaluate(f"document.getElementById('s-{target}').scrollIntoView()")
            reading(page, target, where=(width, lang))
            lit = page.evaluate("""() => Array.from(document.querySelectorAll('#strip .blk.here'))
              .filter(g => g.getClientRects().length).map(g => {
                const r = g.querySelector('rect').getBoundingClientRect();
                return [g.dataset.block, r.top >= 0 && r.bottom <= innerHeight && r.left >= 0
                        && r.right <= innerWidth, g.querySelector('title').textContent]; })""")
            assert len(lit) == 1 and lit[0][0].startswith(block) and lit[0][1], (width, target, lit)
            assert page.evaluate("document.getElementById('strip-here').textContent") == lit[0][2]
            if block == "decoder.0.cross_attn":
                assert word in lit[0][2]
        page.click("#drawer")  # the contents, one tap away, as a drawer over the page
        assert page.locator("#toc").is_visible()
        page.locator("#toc a[href='#s-encoder.0.ffn.pre']").click()
        assert not page.locator("#toc").is_visible()
        page.context.close()


def test_a_page_without_wide_matrices_keeps_its_contents_beside_the_panels(browser, tmp_path):
    corpus, path = tmp_path / "corpus.txt", tmp_path / "small.html"
    corpus.write_text("a b c\nc b a\n", encoding="utf-8")  # a vocabulary of 3 words
    tape = handformer.walk(src="a b c", tgt="c b a", corpus=str(corpus))
    path.write_text(html.render(tape), encoding="utf-8")
    page = open_page(browser, path, 1280, 900, "en")
    assert page.locator("#map").is_visible() and page.locator("#toc").is_visible()
    assert not page.locator("#strip").is_visible()  # the map beside the panels is enough
    page.context.close()
    page = open_page(browser, path, 375, 800, "en")  # a phone: the contents are a drawer
    assert not page.locator("#map").is_visible() and page.locator("#strip").is_visible()
    page.context.close()


def test_a_tap_on_a_shortened_cell_reads_its_full_number(browser, wide_pages):
    path, tape = wide_pages["d32"]
    context = browser.new_context(viewport={"width": 1280, "height": 900}, has_touch=True)
    page = context.new_page()
    page.goto(path.as_uri())
    name = "src_embed.tok"
    page.locator(f'section[id="s-{name}"]').scroll_into_view_if_needed()  # laid out, fitted
    cell = page.locator(f'section[id="s-{name}"] figure.mx[data-name="{name}"] td[data-full]').first
    cell.scroll_into_view_if_needed()
    i, j = (int(v) for v in cell.evaluate(
        "td => [td.closest('tr').dataset.i, td.closest('table').tHead.rows[0].cells[td.cellIndex].dataset.j]"))
    cell.tap()
    said = page.locator(f'section[id="s-{name}"] output.picked').inner_text()
    x = float(tape.value(name)[i, j])
    assert said.endswith(f"= {x:.3f}") and len(cell.inner_text()) < len(f"{x:.3f}"), said
    context.close()
