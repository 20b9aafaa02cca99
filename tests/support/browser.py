"""Debian's headless Chromium: its flags, and a page that records console errors and dialogs."""

from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]


class ReusedContexts:
    """The session's Chromium, whose ``new_context`` hands out a clean context that an earlier
    test closed, where one with the same options is free, instead of a new one.

    A test's page in a new context costs about 0.7 s more CPU than one in a context kept open
    (a new renderer process and its start; so does a context whose pages have all closed: each
    context kept for reuse keeps a blank page open). A context handed out again has no page,
    cookie (the app's session), permission, route, stored item (localStorage and the like, of
    every origin its pages visited) or cached answer left from its last test: ``close()``
    clears them and frees it. Two contexts open at once are two contexts (a test's "fresh
    browser" beside its first); a test that never closes its context keeps it. Init scripts
    and exposed bindings cannot be taken back: asked of a reused context, they are refused (a
    test that needs one asks ``browser.fresh_context``). Every other attribute is the real
    browser's."""

    def __init__(self, browser):
        self._browser = browser
        self._free: dict[str, list] = {}

    def __getattr__(self, name):
        return getattr(self._browser, name)

    def fresh_context(self, **options):
        """A context of its own, never reused (close() closes it)."""
        return self._browser.new_context(**options)

    def new_context(self, **options):
        key = repr(sorted(options.items()))
        free = self._free.setdefault(key, [])
        return free.pop() if free else self._reusable(options, free)

    def _reusable(self, options, free):
        context = self._browser.new_context(**options)
        # kept open at about:blank while the context is free: after a context's last page has
        # closed, its next page costs as much as a new context
        keeper = context.new_page()
        origins: set[str] = set()

        def seen(page):
            page.on("framenavigated", lambda frame: origins.add(_origin(frame.url)))
        context.on("page", seen)

        def close(**_):
            _clear(context, keeper, origins)
            free.append(context)

        def refused(*_, **__):
            raise RuntimeError("a reused context cannot take an init script or a binding back: "
                               "use browser.fresh_context(...) for this test")
        context.close = close
        context.add_init_script = context.expose_binding = context.expose_function = refused
        return context


def _origin(url: str) -> str | None:
    scheme, _, rest = url.partition("://")
    if scheme == "file":
        return "file://"
    if scheme in ("http", "https"):
        return f"{scheme}://{rest.split('/', 1)[0]}"
    return None  # about:blank, data: (no storage of their own)


def _clear(context, keeper, origins: set) -> None:
    """Everything a test left in ``context``: its pages (all but the keeper), stored items of
    the origins they visited, cached answers, cookies, permissions and routes."""
    cdp = context.new_cdp_session(keeper)
    for origin in origins - {None}:
        cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
    cdp.send("Network.clearBrowserCache")
    cdp.detach()
    origins.clear()
    for page in context.pages:
        if page is not keeper:
            page.close()
    context.clear_cookies()
    context.clear_permissions()
    context.unroute_all()


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
