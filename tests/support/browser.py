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
