"""A family's own question kinds are its registration (Family.exercises): BERT's GELU lives in
its folder, and a kind a family registers joins the worksheet, its levels and the page's check
after the kind it follows, with no edit to the shared lists."""

import copy

import numpy as np
import pytest

from handformer import pipeline
from handformer.errors import HandformerError
from handformer.exercises import sheet
from handformer.exercises.family_kinds import Kind
from handformer.exercises.question import Given, Question
from handformer.families import registry
from handformer.render.html import check


def test_the_gelu_question_is_berts_registration_not_a_shared_kind():
    bert = registry.get("bert")
    assert "gelu" not in sheet.SHARED_KINDS
    assert [k.name for k in bert.exercises] == ["gelu"]
    kinds = list(sheet.all_kinds())
    assert sheet.all_kinds()["gelu"] is bert.exercises[0].ask
    assert kinds[kinds.index("relu") + 1] == "gelu"  # the lesson's order, as before the move
    assert sheet.level_kinds("easy")[sheet.level_kinds("easy").index("relu") + 1] == "gelu"
    assert "gelu" not in sheet.level_kinds("hard")


def relu_doubled(tape, rng):
    """A made-up kind: twice one ReLU output (the first cell of the first ReLU step)."""
    step = next((s for s in tape.steps if s.op == "relu"), None)
    if step is None:
        return None
    pre = float(tape.value(step.inputs[0])[0, 0])
    answer = 2 * float(step.value[0, 0])
    return Question("relu_doubled", step.name, "value", (0, 0), (Given("ex.given.pre", "h", pre),),
                    answer, 1e-9, "2·max(0, h)", "ex.ask.relu", "ex.hint.relu",
                    {"i": 0, "j": 0, "cell": [0, 0], "first": "2"}, "ffn")


@pytest.fixture
def with_a_kind():
    """A copy of the encoder-decoder registered as another family with one kind of its own."""
    family = copy.copy(registry.get(registry.DEFAULT))
    family.name = "kindful"
    family.exercises = (Kind("relu_doubled", relu_doubled, after="relu", levels=("easy",),
                             part="ffn"),)
    registry.register(family)
    yield family
    registry.FAMILIES.pop("kindful")


def test_a_registered_kind_joins_the_sheet_its_level_and_the_pages_check(with_a_kind):
    kinds = list(sheet.all_kinds())
    assert kinds[kinds.index("relu") + 1] == "relu_doubled"
    assert "relu_doubled" in sheet.level_kinds("easy")
    assert "relu_doubled" not in sheet.level_kinds("medium")
    assert "relu_doubled" in dict((p, k) for p, k, _ in check.parts())["ffn"]
    tape = pipeline.run({}).tape
    (question,) = sheet.make_sheet(tape, count=1, kinds=["relu_doubled"])
    step = tape.index[question.step]
    pre = np.asarray(tape.value(step.inputs[0]))
    assert question.answer == pytest.approx(2 * max(0.0, pre[0, 0]))  # by hand: 2·max(0, h)


def test_without_the_registration_the_kind_is_unknown():
    with pytest.raises(HandformerError, match="unknown kind 'relu_doubled'"):
        sheet.make_sheet(pipeline.run({}).tape, count=1, kinds=["relu_doubled"])
