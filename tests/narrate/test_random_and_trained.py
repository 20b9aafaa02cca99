"""Random weights and trained weights, in words (issue 19): the attention pattern and the
prediction say what random weights can and cannot do, without claiming that a right word
cannot come out of them (the small preset gets some positions right by chance); a walk from a
trained checkpoint speaks of trained weights."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

import handformer
from handformer.cli import main
from handformer.narrate import build


def told(sections, section_id: str) -> str:
    return " ".join(next(s for s in sections if s.id == section_id).paragraphs)


def right_positions(tape) -> int:
    picked = np.argmax(tape["generator.probs"], axis=-1).ravel()
    return int(np.sum(picked == np.ravel(tape.meta["target"]["ids"])))


@pytest.mark.parametrize("preset", ["tutorial", "small"])
def test_random_weights_are_called_chance_whether_or_not_a_word_comes_out_right(preset):
    tape = handformer.walk(preset=preset)
    for lang, luck, meaning in (("en", "by luck", "not as meaning"), ("zh", "碰巧", "而不是含义")):
        sections = build(tape, lang)
        prediction = told(sections, "prediction")
        assert luck in prediction and "cannot come out" not in prediction
        assert "做不到" not in prediction
        first = next(s for s in sections if s.id.endswith(".pattern") and ".head." in s.id)
        assert meaning in " ".join(first.paragraphs)
    if preset == "small":  # the case the old sentence got wrong: right by chance
        assert right_positions(tape) >= 1


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    path = tmp_path_factory.mktemp("ckpt") / "handformer.ckpt"
    result = CliRunner().invoke(main, ["train", "--quiet", "--save", str(path)])
    assert result.exit_code == 0, result.output
    return handformer.walk(checkpoint=str(path), backward=True)


def test_a_trained_walk_speaks_of_trained_weights(trained):
    sections = build(trained, "en")
    text = " ".join(p for s in sections for p in s.paragraphs)
    assert "start random" not in text and "These numbers were learned" in text
    assert "These weights were trained" in text and "not as meaning" not in text
    assert not [c for s in sections for c in s.callouts if c.code == "D14"]  # no "[0, 1)"
    assert "by luck" not in told(sections, "prediction")
    zh = " ".join(p for s in build(trained, "zh") for p in s.paragraphs)
    assert "一开始是随机的" not in zh and "这些数是学出来的" in zh
