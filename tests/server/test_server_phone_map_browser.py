"""The app on a phone (375 px), in English and Chinese: the map of the steps keeps every label
whole and inside its box (a word wider than its box is set smaller, never cut: it was
"Self-attentio / n"), and a formula wider than the screen scrolls in its own box, hinted,
never widening the page."""

from __future__ import annotations

import re

import pytest

from handformer import i18n

from . import test_server_browser as browser_page
from .test_server_browser import open_app

pytestmark = browser_page.pytestmark

# Each label of the map shown: its lines, and how far each line reaches past its box (px).
LABELS = """() => Array.from(document.querySelectorAll('#panels .diagram.narrow svg.arch.map'))
  .filter(svg => svg.getBoundingClientRect().width > 0)
  .flatMap(svg => Array.from(svg.querySelectorAll('g.blk.leaf')).map(g => {
    const box = g.querySelector('rect').getBoundingClientRect();
    const spans = Array.from(g.querySelectorAll('text:not(.detail) tspan'));
    return {lines: spans.map(t => t.textContent), past: Math.max(...spans.map(t => {
      const r = t.getBoundingClientRect();
      return Math.max(box.left - r.left, r.right - box.right);
    }))};
  }))"""

# Each panel brought into view in turn (its matrices and formulas are fitted as they come near:
# nav.js fitWhenNear), then its formulas (and math) reaching past the screen's right edge, each with
# whether a scroll box of its own inside the screen holds it; and its formula boxes that
# scroll, each with whether it is hinted.
FORMULAS = """async () => {
  const W = document.documentElement.clientWidth, past = [], scrolling = [];
  const frame = () => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
  const scroller = el => { for (let a = el.parentElement; a; a = a.parentElement) {
    if (['auto', 'scroll'].includes(getComputedStyle(a).overflowX)) return a; } return null; };
  const shown = el => el.getBoundingClientRect().width > 0;
  for (const panel of document.querySelectorAll('#panels > section.panel')) {
    panel.scrollIntoView();
    await frame();
    panel.querySelectorAll('.formula, math').forEach(el => {
      if (!shown(el) || el.getBoundingClientRect().right <= W + 0.5) return;
      const s = scroller(el);
      past.push({text: el.textContent.slice(0, 40), held: !!s && s.getBoundingClientRect().right <= W + 0.5});
    });
    panel.querySelectorAll('.formula').forEach(f => {
      if (shown(f) && f.scrollWidth > f.clientWidth + 1) {
        scrolling.push({text: f.textContent.slice(0, 40), hinted: f.classList.contains('overflows')});
      }
    });
  }
  return {past: past, scrolling: scrolling, page: document.documentElement.scrollWidth - W};
}"""


def _words(lang: str) -> set[str]:
    """The Latin words the drawings' labels are made of: the runs of letters of the language's
    "arch." sentences (placeholders left out)."""
    texts = [v for k, v in i18n.table(lang).items() if k.startswith("arch.")]
    return {w for t in texts for w in re.findall(r"[A-Za-z]+", re.sub(r"\{\w+\}", "", t))}


def _every_panel_in(page) -> None:
    """Every panel brought near once, so that each is computed (near.js)."""
    count = page.evaluate("document.querySelectorAll('#panels > section.panel').length")
    for k in range(count):
        page.evaluate(f"document.querySelectorAll('#panels > section.panel')[{k}].scrollIntoView()")
    page.wait_for_function("!document.querySelector('#panels > section.panel.stub, "
                           "#panels > section.panel[data-unchecked]') && "
                           "document.getElementById('panels').getAttribute('aria-busy') === 'false'",
                           timeout=60_000)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_on_a_phone_map_labels_are_whole_and_formulas_scroll_in_their_box(browser, app, lang):
    page = open_app(browser, app, width=375)
    page.click(f'[data-set-lang="{lang}"]')
    labels = page.evaluate(LABELS)
    assert len(labels) >= 12, labels  # the tutorial's map: embeddings, 2 stacks, the output
    words = _words(lang)
    for label in labels:
        cut = [w for line in label["lines"] for w in re.findall(r"[A-Za-z]+", line)
               if w not in words]
        assert not cut, f"a word cut in {label['lines']}: {cut}"
        assert label["past"] <= 0.5, f"{label['lines']} reaches {label['past']:.1f} px past its box"
    _every_panel_in(page)
    seen = page.evaluate(FORMULAS)
    assert seen["page"] <= 0, "the page is wider than the screen"
    assert seen["scrolling"], "no formula is wider than its box at 375 px: nothing was checked"
    assert [f for f in seen["scrolling"] if not f["hinted"]] == []
    assert [f for f in seen["past"] if not f["held"]] == []
    assert page.errors == []
    page.context.close()
