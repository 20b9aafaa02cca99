"""The quiz's answers in the app, in Chromium: 4 significant digits (not 16), the tolerance said,
and a link that brings the question's panel to the top with its cell lit."""

from __future__ import annotations

import json
import re

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


def shown_number(text: str) -> float:
    return float(text.replace("−", "-"))


@pytest.mark.parametrize("lang, answer_word, tolerance_word, exact_word", [
    ("en", "The answer:", "counts as right", "exactly"), ("zh", "答案：", "即算对", "须完全相同")])
def test_revealed_answers_are_short_with_the_tolerance_and_a_link_to_the_cell(
        browser, app, lang, answer_word, tolerance_word, exact_word):
    page = open_app(browser, app)
    if lang != "en":
        page.click(f'#langs button[data-set-lang="{lang}"]')
    page.click("#quiz-start")
    page.wait_for_function("document.querySelectorAll('#quiz-list .quiz-q').length === 6")
    tape = handformer.walk()  # the app's defaults: the tutorial's sentences and preset
    for box in page.query_selector_all("#quiz-list .quiz-q"):
        step, field, cell = json.loads(box.get_attribute("data-where"))
        value = float(read(tape, step, field, tuple(cell)))
        box.query_selector("button:nth-of-type(2)").click()  # "Show the answer"
        page.wait_for_function("b => b.getAttribute('data-result') === 'revealed'", arg=box)
        said = box.query_selector(".quiz-result").inner_text()
        tolerance = json.loads(box.get_attribute("data-tolerance"))
        assert answer_word in said
        if tolerance > 0:
            assert tolerance_word in said and "±" in said
        else:  # a word's id: exact, never "within ±0"
            assert exact_word in said and "±" not in said
        if np.isfinite(value):
            number = re.search(r"[-−]?\d[\d.e+-]*", said.split("±")[0]).group(0)
            digits = re.sub(r"[^\d]", "", number.split("e")[0]).lstrip("0")
            assert len(digits) <= 4, said  # not 0.4761669632169956
            # 4 significant digits of the tape's value, rounded by Python, not by the page
            assert shown_number(number) == float(f"{value:.4g}"), (said, value)
        link = box.query_selector("a.quiz-where")
        link.click()
        td = page.query_selector("#panels td.quiz-cell")
        if len(cell) >= 2 and td is not None and np.isfinite(value):
            panel_top = page.evaluate("t => t.closest('section.panel').getBoundingClientRect().top", td)
            assert 0 <= panel_top < 120  # the panel brought to the top (under the header)
            assert abs(shown_number(td.inner_text()) - value) <= 0.01 * max(1.0, abs(value))
    assert page.errors == []


def test_the_link_lights_the_cell_of_a_2d_question(browser, app):
    """At least one of several quizzes asks a 2-D cell; its lit cell holds the tape's number."""
    page = open_app(browser, app)
    tape = handformer.walk()
    for _ in range(4):
        page.click("#quiz-start")
        page.wait_for_function("document.querySelectorAll('#quiz-list .quiz-q').length === 6")
        for box in page.query_selector_all("#quiz-list .quiz-q"):
            step, field, cell = json.loads(box.get_attribute("data-where"))
            value = float(read(tape, step, field, tuple(cell)))
            if field != "value" or len(cell) != 2 or not np.isfinite(value):
                continue
            box.query_selector("a.quiz-where").click()
            td = page.query_selector("#panels td.quiz-cell")
            assert td is not None, (step, cell)
            assert abs(shown_number(td.inner_text()) - value) <= 0.01 * max(1.0, abs(value))
            return
    pytest.fail("no 2-D value question in 24")


def a_seed_asking(tape, wanted) -> tuple[int, dict]:
    """The first quiz seed whose sheet (the server's: 6 questions, level medium) has a question
    ``wanted(step, field, cell)`` accepts, and that question's place."""
    from handformer.exercises.render_json import question_json
    from handformer.exercises.sheet import make_sheet

    for seed in range(2000):
        for n, q in enumerate(make_sheet(tape, 6, seed, None, "medium"), 1):
            asked = question_json(n, q, "en", key=False)
            if wanted(asked["step"], asked["field"], asked["cell"]):
                return seed, asked
    raise AssertionError("no seed asks such a question")


def test_a_heads_masked_score_lights_its_cell_in_that_heads_panel(browser, app):
    """A 3-D cell [h, i, j] of the masked scores (a step drawn one panel per head, whose name is
    not scores/pattern/z) lights cell (i, j) of head h's panel, holding the tape's number."""
    tape = handformer.walk()
    seed, asked = a_seed_asking(tape, lambda step, field, cell: step.endswith(".masked")
                                and field == "value" and len(cell) == 3
                                and np.isfinite(float(read(tape, step, field, tuple(cell)))))
    page = open_app(browser, app)

    def with_seed(route):
        body = json.loads(route.request.post_data)
        route.continue_(post_data=json.dumps(body | {"seed": seed}))

    page.route("**/api/quiz", with_seed)
    page.click("#quiz-start")
    page.wait_for_function("document.querySelectorAll('#quiz-list .quiz-q').length === 6")
    box = next(b for b in page.query_selector_all("#quiz-list .quiz-q")
               if json.loads(b.get_attribute("data-where")) == [asked["step"], asked["field"],
                                                                asked["cell"]])
    box.query_selector("a.quiz-where").click()
    td = page.query_selector("#panels td.quiz-cell")
    h, i, j = asked["cell"]
    head_panel = asked["step"].replace(".masked", f".head.{h}.masked")
    assert td is not None
    assert page.evaluate("t => t.closest('section.panel').dataset.id", td) == head_panel
    value = float(read(tape, asked["step"], asked["field"], (h, i, j)))
    assert abs(shown_number(td.inner_text()) - value) <= 0.0005 + 1e-9 * abs(value)
    assert page.errors == []
