"""The tests' Chromium hands a context a test has closed to the next test with the same options
(support.browser.ReusedContexts): nothing a test leaves in it may reach the next one."""

from __future__ import annotations

import http.server
import threading

import pytest

VIEW = {"viewport": {"width": 800, "height": 600}}


@pytest.fixture(scope="module")
def site():
    """A page on 127.0.0.1 that sets a cookie (the app's session is one)."""

    hits = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802  (the standard library's name)
            hits.append(self.path)
            body = b"<!doctype html><title>t</title><p>hello"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Set-Cookie", "session=abc; Path=/")
            self.send_header("Cache-Control", "max-age=3600")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    server.url, server.hits = f"http://127.0.0.1:{server.server_address[1]}", hits
    yield server
    server.shutdown()


def leave_everything(context, site, tmp_path) -> None:
    """What a test may leave: stored items of a file page and of a site, a cookie, a granted
    permission, a route, a second page left open."""
    page = context.new_page()
    (tmp_path / "p.html").write_text("<!doctype html><title>f</title>", encoding="utf-8")
    page.goto((tmp_path / "p.html").as_uri())
    page.evaluate("localStorage.setItem('handformer-lang', 'zh'); sessionStorage.setItem('s', 1)")
    page.goto(site.url + "/")
    page.evaluate("localStorage.setItem('k', 'v')")
    context.grant_permissions(["clipboard-read"], origin=site.url)
    context.route("**/never", lambda route: route.abort())
    context.new_page()
    assert context.cookies() != []


def test_a_closed_context_comes_back_with_nothing_its_test_left(browser, site, tmp_path):
    first = browser.new_context(**VIEW)
    leave_everything(first, site, tmp_path)
    first.close()
    again = browser.new_context(**VIEW)
    assert again is first  # reused: else this test checks nothing
    assert again.cookies() == []
    page = again.new_page()
    assert len(again.pages) == 2  # this page and the blank one kept open
    page.goto((tmp_path / "p.html").as_uri())
    assert page.evaluate("[localStorage.length, sessionStorage.length]") == [0, 0]
    asked = site.hits.count("/")
    page.goto(site.url + "/")
    assert page.evaluate("localStorage.length") == 0
    assert site.hits.count("/") == asked + 1  # asked of the server again: no cached answer
    assert page.evaluate("navigator.permissions.query({name: 'clipboard-read'})"
                         ".then(p => p.state)") != "granted"
    again.close()


def test_two_contexts_open_at_once_are_two(browser):
    one = browser.new_context(**VIEW)
    two = browser.new_context(**VIEW)
    assert one is not two
    one.close()
    two.close()
    back = [browser.new_context(**VIEW), browser.new_context(**VIEW)]
    assert {id(c) for c in back} == {id(one), id(two)}
    for context in back:
        context.close()


def test_init_scripts_are_refused_by_a_reused_context_and_taken_by_a_fresh_one(browser):
    reused = browser.new_context(**VIEW)
    with pytest.raises(RuntimeError, match="fresh_context"):
        reused.add_init_script("window.x = 1")
    reused.close()
    fresh = browser.fresh_context(**VIEW)
    fresh.add_init_script("window.x = 1")
    page = fresh.new_page()
    page.goto("about:blank")
    assert page.evaluate("window.x") == 1
    fresh.close()
