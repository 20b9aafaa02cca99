"""The JSON tape (handformer.tape/1): schema, determinism, round trip, −∞."""

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from handformer.api import walk
from handformer.files.tape_json import FORMAT, TapeFormatError, dumps, loads

HANDFORMER = str(Path(sys.executable).parent / "handformer")  # the installed console script


@pytest.fixture(scope="module")
def tutorial():
    return walk()


@pytest.fixture(scope="module")
def small_backward():
    return walk(preset="small", backward=True, lr=0.05)


def test_schema_fields_of_the_issue(tutorial):
    data = json.loads(dumps(tutorial))
    assert data["format"] == FORMAT == "handformer.tape/1"
    assert data["config"]["d_model"] == 6 and data["config"]["d_k"] == 4
    assert len(data["vocab"]) == 25 and data["vocab"][23:] == ["<start>", "<end>"]
    assert data["src"]["tokens"] == "when you play the game of thrones".split()
    assert data["src"]["ids"] == [5, 6, 7, 8, 9, 10, 11]  # first-appearance ids
    assert data["tgt"]["tokens"] == ["<start>", "you", "win", "or", "you", "die"]
    assert data["tgt"]["ids"] == [23, 6, 12, 13, 6, 14]
    steps = {s["name"]: s for s in data["steps"]}
    for name in ("src_embed.out", "tgt_embed.out", "encoder.0.out", "decoder.0.out",
                 "generator.logits", "generator.probs"):
        step = steps[name]
        assert {"name", "op", "formula", "inputs", "shape", "value"} <= set(step)
        assert list(np.shape(step["value"])) == step["shape"]
    assert steps["generator.probs"]["shape"] == [6, 25]
    assert steps["encoder.0.self_attn.z"]["inputs"] == ["encoder.0.self_attn.pattern",
                                                        "encoder.0.self_attn.v"]
    assert "\\sqrt{d_k}" in steps["encoder.0.self_attn.scores"]["formula"]
    probs = np.array(steps["generator.probs"]["value"])
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, atol=1e-12)


def test_minus_infinity_is_a_string_and_comes_back(tutorial):
    text = dumps(tutorial)
    json.loads(text, parse_constant=lambda c: pytest.fail(f"bare {c} in JSON"))  # strict JSON
    masked = next(s for s in json.loads(text)["steps"]
                  if s["name"] == "decoder.0.self_attn.masked")["value"]
    assert masked[0][0][1] == "-inf"  # head 0, row <start> sees only itself
    back = loads(text)["decoder.0.self_attn.masked"]
    assert math.isinf(back[0, 0, 1]) and back[0, 0, 1] < 0
    np.testing.assert_array_equal(back, tutorial["decoder.0.self_attn.masked"])


def test_byte_identical_across_two_runs(tutorial):
    assert dumps(walk()) == dumps(tutorial)


@pytest.mark.process
@pytest.mark.slow
def test_byte_identical_across_two_processes(tmp_path):
    files = [tmp_path / "a.json", tmp_path / "b.json"]
    for f in files:
        subprocess.run([HANDFORMER, "walk", "--preset", "small",
                        "--backward", "--format", "json", "-o", str(f)], check=True,
                       capture_output=True)
    assert files[0].read_bytes() == files[1].read_bytes()
    assert files[0].read_bytes() == dumps(walk(preset="small", backward=True)).encode()


@pytest.mark.parametrize("which", ["tutorial", "small_backward"])
def test_round_trip(which, request):
    tape = request.getfixturevalue(which)
    text = dumps(tape)
    back = loads(text)
    assert dumps(back) == text
    assert back.names() == tape.names()
    for step in tape.steps:
        np.testing.assert_array_equal(back[step.name], step.value, err_msg=step.name)
        assert back.index[step.name].formula == step.formula
        assert back.index[step.name].view == step.view
    assert back.grad_order == tape.grad_order
    for name, grad in back.grads.items():
        np.testing.assert_array_equal(grad, tape.grads[name], err_msg=name)
    assert set(back.updates) == set(tape.updates)


def test_backward_sections(small_backward):
    data = json.loads(dumps(small_backward))
    # the loss after the update travels with the tape, so `render` tells it without recomputing
    after = small_backward.meta["update"]
    assert data["update"] == {"optimizer": "sgd", "lr": 0.05, "loss_after": after["loss_after"],
                              "p_target_after": after["p_target_after"],
                              "predicted_after": after["predicted_after"]}
    assert loads(dumps(small_backward)).meta["update"] == small_backward.meta["update"]
    grads = [g["name"] for g in data["grads"]]
    assert grads[0] == "loss" and "generator.w" in grads and "encoder.0.ffn.w_1" in grads
    before = np.array(data["updates"]["generator.b"]["before"])
    grad = np.array(data["updates"]["generator.b"]["grad"])
    after = np.array(data["updates"]["generator.b"]["after"])
    np.testing.assert_allclose(after, before - 0.05 * grad, rtol=0, atol=1e-15)
    assert set(data["params"]) == set(small_backward.params)


@pytest.mark.parametrize("text,message", [
    ("{", "not a JSON tape"), ("[]", "not a handformer tape"),
    ('{"format": "other/1"}', "not a handformer tape"),
    ('{"format": "handformer.tape/1"}', "damaged"),
    ('{"format": "handformer.tape/1", "steps": [{"name": "x"}]}', "damaged"),
    ('{"format": "handformer.tape/1", "steps": [{"name": "x", "op": "add", "inputs": [],'
     ' "value": ["minus one"]}]}', "damaged"),
])
def test_bad_tapes_are_refused(text, message):
    with pytest.raises(TapeFormatError, match=message):
        loads(text)
