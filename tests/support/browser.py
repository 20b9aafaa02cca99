"""Debian's headless Chromium: its flags, and a page that records console errors and dialogs."""

from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]


def open_page(browser, path, width=1280, height=900):
    """A fresh page (its own storage) with console errors and dialogs recorded."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.errors, page.dialogs = [], []
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
    page.goto(path.as_uri())
    return page


# Playwright's own test of "visible" (Locator.is_visible: injected computeBox), as a function of
# the page, so that a test asking it of many elements asks it in one evaluate instead of one
# round trip (and one selector search of the whole page) per element. An element displayed as
# `contents` has no box of its own: Playwright then asks its children, and so does this.
VISIBLE_JS = r"""function visible(e) {
  const style = getComputedStyle(e);
  if (style.display === 'contents') {
    for (let c = e.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 1 && visible(c)) return true;
      if (c.nodeType === 3) { const r = document.createRange(); r.selectNode(c);
        const b = r.getBoundingClientRect(); if (b.width > 0 && b.height > 0) return true; }
    }
    return false;
  }
  if (!e.checkVisibility() || style.visibility !== 'visible') return false;
  const r = e.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
}"""


# A page lays out only the panels in view or near it (style.css: content-visibility) and fits a
# panel's matrices when it is laid out (nav.js); a panel far from the window reads as empty
# text (innerText) and is not fitted yet. A test that reads the whole page at once (every
# matrix, every narration, every visible string) first has every panel laid out and fitted by
# the page's own fitPanel, as if each had been scrolled to. (The style is set through the CSSOM,
# which the page's policy allows.)
EVERY_PANEL_JS = """() => document.querySelectorAll('section.panel').forEach(p => {
  p.style.contentVisibility = 'visible'; window.HFPage.fitPanel(p); })"""


def lay_out_every_panel(page) -> None:
    page.evaluate(EVERY_PANEL_JS)
