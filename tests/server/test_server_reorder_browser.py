"""A switch that reorders the walkthrough (post-norm ↔ pre-norm puts each layer norm before its
sub-layer): the app shows the panels in the new walk's order, and moves no more of the panels it
keeps than the new order needs (a panel put back into the document is laid out anew: moving
all 67 cost a whole-page layout)."""

from __future__ import annotations

import bisect

import pytest

import handformer
from handformer.narrate import build
from support.browser import CHROMIUM

from .test_server_browser import open_app

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")]

# Every panel element gets its id as a property before the edit, and a MutationObserver on the
# panels' container records the elements taken out and put back (a move is both).
WATCH_JS = r"""() => {
  const box = document.getElementById('panels');
  box.querySelectorAll(':scope > section.panel').forEach(s => { s.hfBefore = s.dataset.id; });
  window.hfBefore = Array.from(box.querySelectorAll(':scope > section.panel'), s => s.dataset.id);
  window.hfMoves = {removed: new Set(), added: new Set()};
  new MutationObserver(records => records.forEach(r => {
    r.removedNodes.forEach(n => n.hfBefore && window.hfMoves.removed.add(n));
    r.addedNodes.forEach(n => n.hfBefore && window.hfMoves.added.add(n));
  })).observe(box, {childList: true});
}"""

AFTER_JS = r"""() => {
  const now = Array.from(document.querySelectorAll('#panels > section.panel'));
  const kept = now.filter(s => s.hfBefore);  // elements the page held before the edit
  const moved = kept.filter(s => window.hfMoves.removed.has(s) && window.hfMoves.added.has(s));
  return {order: now.map(s => s.dataset.id), kept: kept.map(s => s.hfBefore),
          before: window.hfBefore, moved: moved.length};
}"""


def fewest_moves(before: list[str], kept: list[str]) -> int:
    """The kept elements less the longest run of them already in their old relative order."""
    where = {pid: k for k, pid in enumerate(before)}
    tails: list[int] = []
    for pid in kept:
        at = bisect.bisect_left(tails, where[pid])
        tails[at:at + 1] = [where[pid]]
    return len(kept) - len(tails)


@pytest.mark.parametrize("norm", ["pre", "post"])
def test_a_reordering_switch_shows_the_new_order_and_moves_only_what_it_must(browser, app, norm):
    page = open_app(browser, app)
    if norm == "post":  # from pre-norm back to post-norm
        page.select_option("#f-norm", "pre")
        page.wait_for_selector('#panels section.panel[data-id="encoder.0.ln1.out"]',
                               state="attached")
        page.wait_for_function("document.getElementById('panels').getAttribute('aria-busy') === 'false'")
    page.evaluate(WATCH_JS)
    page.select_option("#f-norm", norm)
    first_new = "encoder.0.ln1.out" if norm == "pre" else "encoder.0.ln1.resid"
    page.wait_for_selector(f'#panels section.panel[data-id="{first_new}"]', state="attached")
    page.wait_for_function("document.getElementById('panels').getAttribute('aria-busy') === 'false'")
    seen = page.evaluate(AFTER_JS)
    assert seen["order"] == [s.id for s in build(handformer.walk(norm=norm), "en")]
    assert len(seen["kept"]) > 30  # most panels are held across the edit, not rebuilt
    assert seen["moved"] == fewest_moves(seen["before"], seen["kept"])
    assert seen["moved"] < 10
    assert page.errors == []
    page.context.close()
