""""Check yourself" on the walkthrough page, in Chromium: a right answer typed within the
tolerance is accepted, a wrong one refused, text that is no number asked again; in English and
in Chinese; and each box's answer is the tape's number at its step and cell."""

import numpy as np
import pytest

import handformer
from handformer.engine.tape import Tape
from handformer.render.html import page as html
from support.browser import VISIBLE_JS, open_page


@pytest.fixture(scope="module")
def run_tape():
    return handformer.walk(backward=True)


@pytest.fixture(scope="module")
def page_files(run_tape, tmp_path_factory):
    folder = tmp_path_factory.mktemp("check")
    files = {}
    for lang in ("en", "zh"):
        files[lang] = folder / f"{lang}.html"
        files[lang].write_text(html.render(run_tape, lang=lang), encoding="utf-8")
    return files


def on_tape(tape: Tape, step: str, field: str, cell: list[int]) -> float:
    """The number a box asks for, looked up here by hand: a step's value or one of its extras
    (a position's loss), a gradient, an updated parameter (the box names the step and field; a
    parameter's update is its after-value)."""
    if field.startswith("extras."):
        table = tape.index[step].extras[field.removeprefix("extras.")]
    elif step in tape.updates:
        table = tape.updates[step][2]
    elif step in tape.index:
        table = tape.value(step)
    else:
        raise AssertionError(step)
    return float(np.asarray(table)[tuple(cell)])


@pytest.fixture(scope="module")
def english_page(page_files, browser):
    """The English page, loaded once for the two tests that use it: one reads the boxes' data,
    which the other's answers do not change (a box records its verdict beside them)."""
    page = open_page(browser, page_files["en"])
    yield page
    page.context.close()


def opened(browser, page_files, english_page, lang):
    return english_page if lang == "en" else open_page(browser, page_files[lang])


def test_every_part_has_a_check_and_its_answer_is_the_tapes(run_tape, english_page):
    page = english_page
    boxes = page.eval_on_selector_all("aside.check", "bs => bs.map(b => [b.dataset.answer, "
                                      "b.dataset.step, b.dataset.field, b.dataset.cell, "
                                      "b.previousElementSibling.id])")
    assert len(boxes) >= 7  # embedding, attention ×2, norm, FFN, prediction, loss, backward
    for answer, step, field, cell, _after in boxes:
        cells = [int(i) for i in cell.split(",")] if cell else []
        grad = field == "grad"  # a gradient, placed after the panel that shows it
        expected = (float(np.asarray(run_tape.grads[step])[tuple(cells)]) if grad
                    else on_tape(run_tape, step, field, cells))
        assert float(answer) == expected
    assert page.errors == []


# A box's result and the text of each verdict it shows, read in one call rather than a round
# trip for the attribute and one for each verdict's visibility (Playwright's rule) and text.
VERDICT_JS = "box => {" + VISIBLE_JS + """
  return [box.getAttribute('data-result'),
          Array.from(box.querySelectorAll('.verdict')).filter(visible).map(v => v.innerText)];
}"""


@pytest.mark.parametrize("lang, right_word, wrong_word", [("en", "Right", "Not this"),
                                                          ("zh", "正确", "不对")])
def test_a_right_answer_is_accepted_and_a_wrong_one_refused(page_files, browser, english_page,
                                                            lang, right_word, wrong_word):
    page = opened(browser, page_files, english_page, lang)
    boxes = page.query_selector_all("aside.check")
    for box in boxes:
        answer, tol = float(box.get_attribute("data-answer")), float(box.get_attribute("data-tol"))
        box.scroll_into_view_if_needed()
        if np.isinf(answer):
            tries = [("-inf", "right"), ("−∞", "right"), ("0", "wrong")]
        else:
            near = answer + 0.5 * tol
            tries = [(f"{near:.12f}".replace("-", "−"), "right"), (repr(answer), "right"),
                     (f"{answer + 3 * tol + 0.01:.6f}", "wrong"), ("abc", "nan")]
        for typed, expected in tries:
            box.query_selector("input").fill(typed)
            box.query_selector("button.check-it").click()
            result, shown = box.evaluate(VERDICT_JS)
            assert result == expected, (typed, answer, tol)
            assert len(shown) == 1
            if expected == "right":
                assert right_word in shown[0]
            if expected == "wrong":
                assert wrong_word in shown[0]
    assert page.errors == []


def test_hint_and_worked_answer_open_on_demand(page_files, browser):
    page = open_page(browser, page_files["zh"])
    box = page.query_selector("aside.check")
    worked = box.query_selector("details.worked")
    assert not worked.query_selector("b.num").is_visible()
    worked.query_selector("summary").click()
    assert worked.query_selector("b.num").is_visible()
    hint = box.query_selector("details.hint")
    hint.query_selector("summary").click()
    assert hint.query_selector("p.formula math").is_visible()  # MathML, as every formula
    assert hint.query_selector("code") is None
