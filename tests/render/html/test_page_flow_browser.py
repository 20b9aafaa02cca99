"""The map as a reader sees it (issue 19, part 4), in headless Chromium: visible and labelled at
375, 1000 and 1600 px in both languages, with the box of the step being read lit and in view, in
every phase (the text, the forward pass, the loss, the gradients, the update; the recap, last
on the page, is never scrolled to the top: test_page_flow checks the box it lights)."""

from __future__ import annotations

from pathlib import Path

import pytest

import handformer
from handformer.render.html import page as html

CHROMIUM = Path("/usr/bin/chromium")

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium")]

# One panel of each phase, and the box each must light (the gradient's block, the
# parameter's block; the text lights the input, the loss the output).
PANELS = {"dataset": "src_embed", "encoder.0.ffn.pre": "encoder.0.ffn",
          "decoder.0.cross_attn.head.1.scores": "decoder.0.cross_attn",
          "loss": "prediction", "grad.decoder.0.self_attn.scores": "decoder.0.self_attn",
          "update.encoder.0.ln2.gamma": "encoder.0.ln2"}

SEEN_JS = r"""() => {
  const inView = r => r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight &&
                      r.right > 0 && r.left < innerWidth;
  const maps = Array.from(document.querySelectorAll('#map svg.arch, #strip svg.arch'))
    .filter(s => inView(s.getBoundingClientRect()));
  if (maps.length !== 1) return {maps: maps.length};
  const svg = maps[0], holder = svg.closest('#map, #strip').getBoundingClientRect();
  const clip = r => ({left: Math.max(r.left, holder.left), right: Math.min(r.right, holder.right),
                      top: Math.max(r.top, holder.top), bottom: Math.min(r.bottom, holder.bottom)});
  const leaves = Array.from(svg.querySelectorAll('g.blk.leaf'));
  const unlabelled = leaves.filter(g => !(g.querySelector('text') || {}).textContent);
  const lit = svg.querySelector('g.blk.here');
  let litShown = false, litText = '';
  if (lit) {
    const r = clip(lit.querySelector('rect').getBoundingClientRect());
    litShown = r.right - r.left > 8 && r.bottom - r.top > 8 && inView(
      {width: r.right - r.left, height: r.bottom - r.top, ...r});
    litText = lit.querySelector('text').textContent;
  }
  const text = svg.querySelector('g.blk.leaf text');
  return {maps: 1, where: svg.closest('#map') ? 'map' : 'strip', leaves: leaves.length,
          unlabelled: unlabelled.length, lit: lit ? lit.dataset.block : '', litShown: litShown,
          litText: litText, fontPx: text.getBoundingClientRect().height};
}"""


@pytest.fixture(scope="module")
def backward_page(tmp_path_factory):
    path = tmp_path_factory.mktemp("flow") / "b.html"
    path.write_text(html.render(handformer.walk(backward=True)), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def loaded(browser, backward_page):
    """The page at each width, loaded once for this module's tests (a load of this page costs
    more than all one test's scrolling): each test sets its language and scrolls to each phase
    itself, and reads the page without changing it otherwise. Errors are recorded from the load
    on, so a test fails on any error the page has raised while open, its own included."""
    pages = {}

    def at(width: int):
        if width not in pages:
            context = browser.new_context(viewport={"width": width, "height": 850})
            page = context.new_page()
            page.errors = []
            page.on("pageerror", lambda e, page=page: page.errors.append(str(e)))
            page.goto(backward_page.as_uri())
            pages[width] = page
        return pages[width]

    yield at
    for page in pages.values():
        page.context.close()


def in_language(page, lang: str) -> None:
    """The page as loaded in ``lang``: at its top, then switched by the language's button unless it
    shows it already. A page used before is first brought back to its top and left to settle (it
    ignores scrolling for 400 ms after its own moves: the switch keeps the reader's place)."""
    if page.evaluate("window.scrollY") > 0:
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(500)
    if page.evaluate("document.documentElement.dataset.lang") != lang:
        page.click(f"[data-set-lang={lang}]")
        page.wait_for_timeout(500)


@pytest.mark.parametrize("width", [375, 1000, 1600])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_map_is_visible_labelled_and_lit_in_every_phase(loaded, width, lang):
    page = loaded(width)
    in_language(page, lang)
    for panel, block in PANELS.items():
        page.evaluate(f"location.hash = '#s-{panel}'")  # a link to the step, as the contents
        page.wait_for_function(
            f"""() => Array.from(document.querySelectorAll('#map .blk.here, #strip .blk.here'))
                .some(g => g.getClientRects().length && g.dataset.block === '{block}')""",
            timeout=10000)
        page.wait_for_timeout(200)
        seen = page.evaluate(SEEN_JS)
        where = (width, lang, panel, seen)
        assert seen["maps"] == 1, where  # one map in view, the language shown
        assert seen["leaves"] >= 9 and seen["unlabelled"] == 0, where
        assert seen["lit"] == block and seen["litShown"] and seen["litText"], where
        assert seen["fontPx"] >= 7, where  # a label one can read, not a dot
    assert page.errors == []
