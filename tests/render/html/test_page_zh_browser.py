"""The Chinese page in headless Chromium at 375 and 1280 px: every line of Chinese text (narration,
titles, errata opened, contents, links between steps) that breaks between two Hanzi breaks where
jieba (run here on the whole paragraph) sees a word boundary, and nothing overflows the page."""

from __future__ import annotations

from pathlib import Path

import pytest

from handformer import i18n
from handformer.render.html import page as html
from support.browser import open_page
from support.zh_words import HAN, split_words

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not Path("/usr/bin/chromium").exists(),
                                 reason="needs /usr/bin/chromium")]
pytest.importorskip("jieba", reason="jieba judges the breaks (pip install jieba)")

# For each shown paragraph: its text, and the offsets where a new line starts (the first
# character whose box sits lower than the one before it).
LINE_STARTS_JS = r"""(selector) => {
  const out = [];
  for (const p of document.querySelectorAll(selector)) {
    if (!p.getClientRects().length) continue;
    const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
    let at = 0, lastTop = null, node;
    const starts = [];
    while ((node = walker.nextNode())) {
      for (let i = 0; i < node.length; i++) {
        const range = document.createRange();
        range.setStart(node, i); range.setEnd(node, i + 1);
        const box = Array.from(range.getClientRects()).find(r => r.width > 0);
        if (box) {
          if (lastTop !== null && box.top > lastTop + box.height / 2) starts.push(at + i);
          lastTop = box.top;
        }
      }
      at += node.length;
    }
    out.push({text: p.textContent, starts: starts});
  }
  return out;
}"""


def hanzi_line_starts(page, selector: str) -> list[tuple[str, int]]:
    """(paragraph, offset) of every line that starts between two Hanzi."""
    return [(p["text"], at) for p in page.evaluate(LINE_STARTS_JS, selector)
            for at in p["starts"] if HAN.match(p["text"][at - 1]) and HAN.match(p["text"][at])]


CHINESE = ("#panels .narration.l-zh p, #panels h2 [lang|=zh], details.callout [lang|=zh], "
           "#toc [lang|=zh], .flow [lang|=zh]")


def words_cut(page) -> tuple[int, list[str]]:
    """How many lines of Chinese start between two Hanzi, and those that cut a jieba word."""
    page.evaluate("document.querySelectorAll('details.callout').forEach(d => { d.open = true; })")
    breaks = hanzi_line_starts(page, CHINESE)
    return len(breaks), [cut for text, at in breaks for cut in split_words(text, [at])]


@pytest.fixture(scope="module")
def zh_page(tmp_path_factory, backward_tape):
    path = tmp_path_factory.mktemp("zh") / "zh.html"
    path.write_text(html.render(backward_tape, lang="zh"), encoding="utf-8")
    return path


@pytest.mark.parametrize("width,judged", [(375, 50), (1280, 5)])
def test_chinese_lines_break_only_between_words(browser, zh_page, width, judged):
    page = open_page(browser, zh_page, width=width)
    checked, cut = words_cut(page)
    assert checked >= judged, "too few lines broke between two Hanzi to judge"
    assert cut == []
    assert page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth") <= 0
    page.context.close()


def test_the_check_catches_a_page_that_breaks_between_any_two_hanzi(browser, backward_tape,
                                                                     tmp_path):
    """The page as before: no <wbr>, and Chromium free to break between any two Hanzi."""
    from markupsafe import escape

    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(html.environment().filters, "wbr", escape)
        patch.setitem(i18n.table("zh"), "lang.wrap", "line-break:strict")
        (tmp_path / "old.html").write_text(html.render(backward_tape, lang="zh"), encoding="utf-8")
    page = open_page(browser, tmp_path / "old.html", width=375)
    checked, cut = words_cut(page)
    assert len(cut) > 10, cut
    page.context.close()
