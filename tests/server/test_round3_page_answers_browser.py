"""The page says every failed or unreadable answer in place (issue 45, item 8): a job id in the
address that the server does not have, and an answer that is not JSON (a proxy's error page),
each give a message where the page shows errors, and no uncaught error."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from handformer import i18n
from support.browser import CHROMIUM

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]


def fresh_page(browser, url: str, route=None):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.errors = []
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error"
            and not m.text.startswith("Failed to load resource") else None)  # 4xx: answers
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    if route:
        page.route(*route)
    page.goto(url)
    return page


def test_a_bad_job_in_the_address_is_said_in_place_and_dropped(browser, app):
    page = fresh_page(browser, app.url + "/?job=" + quote("../../api/walk", safe=""))
    slot = page.wait_for_selector('.field-error[data-for="job"]:not([hidden])', timeout=30_000)
    assert slot.text_content() == i18n.t("en", "app.err.job_gone")
    page.wait_for_selector("#panels section.panel", timeout=30_000)  # the walk still came
    assert "job=" not in page.evaluate("location.search")
    assert page.errors == []
    page.context.close()


def test_an_answer_that_is_not_json_is_said_in_place(browser, app):
    def proxy_error(route):
        route.fulfill(status=502, content_type="text/html", body="<h1>Bad Gateway</h1>")

    page = fresh_page(browser, app.url + "/", ("**/api/panels/changed", proxy_error))
    slot = page.wait_for_selector('.field-error[data-for=""]:not([hidden])', timeout=30_000)
    said = slot.text_content()
    assert i18n.table("en")["app.err.bad_answer"].format(status=502) in said
    assert "Bad Gateway" in said  # the answer itself, as the detail
    assert page.errors == []
    page.context.close()
