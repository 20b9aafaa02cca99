"""The quiz in the app, in Chromium: a right answer is accepted by the server and a wrong one
refused, the running score follows, in English and in Chinese."""

from __future__ import annotations

import json

import numpy as np
import pytest

import handformer
from handformer.exercises.question import read
from support.browser import CHROMIUM

from .test_server_browser import open_app

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]


@pytest.mark.parametrize("lang, right, wrong, score", [
    ("en", "Right.", "Not this", "Score: 1 right of 2 answered (6 asked)"),
    ("zh", "正确。", "不对", "得分：已答 2 题，答对 1 题（共 6 题）")])
def test_quiz_checks_on_the_server_and_keeps_score(browser, app, lang, right, wrong, score):
    page = open_app(browser, app)
    if lang != "en":
        page.click(f'#langs button[data-set-lang="{lang}"]')
    page.click("#quiz-start")
    page.wait_for_function("document.querySelectorAll('#quiz-list .quiz-q').length === 6")
    tape = handformer.walk()  # the app's defaults: the tutorial's sentences and preset
    boxes = page.query_selector_all("#quiz-list .quiz-q")
    for box, typed_right in ((boxes[0], True), (boxes[1], False)):
        step, field, cell = json.loads(box.get_attribute("data-where"))
        value = read(tape, step, field, tuple(cell))
        if typed_right:
            typed = "-inf" if np.isinf(value) else repr(value)
        else:  # a masked entry's −∞ is answered wrong by any finite number
            typed = "0" if np.isinf(value) else repr(value + 1 + abs(value))
        box.query_selector("input").fill(typed)
        box.query_selector("button").click()
        page.wait_for_function("b => b.hasAttribute('data-result')", arg=box)
        assert box.get_attribute("data-result") == ("right" if typed_right else "wrong")
        assert (right if typed_right else wrong) in box.query_selector(".quiz-result").inner_text()
    page.wait_for_function(f"document.getElementById('quiz-score').textContent === {score!r}")
    assert page.errors == []
