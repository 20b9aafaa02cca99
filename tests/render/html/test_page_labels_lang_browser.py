"""The page's matrix labels follow the reader's language (issue 19): a page opened in English
and switched to Chinese draws the decoder's ids table rows, the loss table's column and the
errata's "the tutorial's value" note in Chinese, and switched back in English, without a reload
(headless Chromium). The words expected are the languages' own (i18n), not read off the page."""

from __future__ import annotations

from pathlib import Path

import pytest

import handformer
from handformer import i18n
from handformer.render.html import page as html
from support.browser import lay_out_every_panel

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not Path("/usr/bin/chromium").exists(),
                                 reason="needs /usr/bin/chromium")]

SHOWN_JS = r"""() => {
  document.querySelectorAll("details.callout").forEach(d => { d.open = true; });
  const seen = el => el ? el.innerText.trim() : null;
  const fig = name => document.querySelector(`figure.mx[data-name="${name}"]`);
  return {rows: Array.from(fig('tgt.ids').querySelectorAll('tbody th')).map(seen),
          loss: seen(fig('loss.terms').querySelector('thead th[data-j="0"]')),
          note: seen(document.querySelector('figure.mx em.note'))};
}"""


@pytest.fixture(scope="module")
def page(browser, tmp_path_factory):
    path = tmp_path_factory.mktemp("labels") / "b.html"
    path.write_text(html.render(handformer.walk(backward=True), lang="en"), encoding="utf-8")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    p = context.new_page()
    p.goto(path.as_uri())
    lay_out_every_panel(p)  # the labels read are in panels far from the window
    yield p
    context.close()


def expected(lang: str) -> dict:
    t = i18n.table(lang)
    return {"rows": [t["ids.input"], t["ids.target"]], "loss": t["loss.col.p"],
            "note": t["note.tutorial"]}


def test_switching_language_redraws_the_matrix_labels_in_place(page):
    assert page.evaluate(SHOWN_JS) == expected("en")
    page.click('[data-set-lang="zh"]')
    assert page.evaluate(SHOWN_JS) == expected("zh")
    page.click('[data-set-lang="en"]')
    assert page.evaluate(SHOWN_JS) == expected("en")
