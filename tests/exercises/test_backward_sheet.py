"""Worksheets on the backward half (issue 46): gradient questions at every level and at least
half of a hard sheet, no question asked twice on one sheet, each question placed by the walk's
panel number and the row's token (not a tape name and a 0-based cell), and no formula with a
symbol the question does not give."""

from __future__ import annotations

import re
from functools import lru_cache

import pytest

from handformer import pipeline
from handformer.exercises.places import placed
from handformer.exercises.sheet import BACKWARD_KINDS, make_sheet
from handformer.exercises.words import where
from handformer.narrate import build


@lru_cache(maxsize=2)
def tape(family: str = "transformer"):
    return pipeline.run({"backward": True, "family": family}).tape


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_a_hard_sheet_is_at_least_half_gradients_of_several_kinds(seed):
    sheet = make_sheet(tape(), count=6, seed=seed, level="hard")
    back = [q for q in sheet if q.kind in BACKWARD_KINDS]
    assert len(back) * 2 >= len(sheet) == 6
    many = make_sheet(tape(), count=24, seed=seed, level="hard")
    assert {"grad_softmax", "grad_norm", "grad_weight", "sgd_update"} <= {q.kind for q in many}


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_every_level_asks_about_gradients(level):
    sheet = make_sheet(tape(), count=24, seed=5, level=level)
    assert any(q.kind in BACKWARD_KINDS for q in sheet)


def test_no_question_is_asked_twice_on_a_long_sheet():
    sheet = make_sheet(tape("gpt"), count=200, seed=0, level="hard")
    cells = [(q.kind, q.step, q.cell) for q in sheet]
    assert len(set(cells)) == len(cells) > 50


def test_each_question_is_placed_by_panel_number_and_token():
    t = tape()
    sections = build(t, "en")
    sheet = placed(make_sheet(t, count=24, seed=5, level="hard"), sections)
    numbers = {s.panel for s in sections}
    tokens = {"tgt": t.meta["tgt"]["tokens"], "src": t.meta["src"]["tokens"]}
    for q in sheet:
        line = where(q, "en")
        assert "Step " in line and "cell [" not in line and f"step {q.step}" not in line, line
        assert int(re.search(r"Step (\d+)", line).group(1)) in numbers
        if q.kind == "grad_softmax":  # a row of attention weights: a token of the sentence
            side = "src" if q.step.startswith("encoder") else "tgt"
            assert f"row “{tokens[side][q.cell[-2]]}”" in line, line


def test_the_loss_formula_names_label_smoothing_only_where_it_gives_it():
    sheet = make_sheet(tape(), count=30, seed=1, kinds=["loss"])
    assert all("ε" not in q.formula for q in sheet)
    smoothed = pipeline.run({"label_smoothing": 0.1}).tape
    q = make_sheet(smoothed, count=1, seed=1, kinds=["loss"])[0]
    assert "ε" in q.formula and any(g.symbol == "ε" for g in q.given)


def test_a_placed_update_or_weight_question_names_no_tape_name():
    t = tape()
    sheet = placed(make_sheet(t, count=24, seed=2, kinds=["sgd_update", "grad_weight"]),
                   build(t, "en"))
    from handformer.exercises.words import ask

    for q in sheet:
        sentence = ask(q, "en")
        assert q.step not in sentence and f"Step {q.words['panel']}" in sentence, sentence


def test_a_sheets_title_says_the_width_it_runs_at():
    from handformer.exercises.words import run_text

    wide = pipeline.run({"family": "gpt", "d_model": 10}).tape
    assert "d_model = 10" in run_text(wide.meta)
    assert "d_model = 6" in run_text(tape().meta)
