"""limits.py: the tape estimate is an upper bound of what a walk keeps; HANDFORMER_LIMITS."""

import numpy as np
import pytest

from handformer.families.transformer.config import preset
from handformer.families.transformer.run import run_forward, setup
from handformer.limits import LimitError, check, limit, tape_numbers

LONG_SRC = "when you play the game of thrones you win or you die " * 3
LONG_TGT = "you win or you die " * 4


def kept(tape) -> int:
    """Numbers the tape holds: every step's value and extras, counted off the tape itself."""
    return sum(s.value.size + sum(np.size(e) for e in s.extras.values()) for s in tape.steps)


@pytest.mark.parametrize("name,sizes,src,tgt", [
    ("tutorial", {}, "when you play the game of thrones", "you win or you die"),
    ("small", {}, LONG_SRC, LONG_TGT),
    ("small", {"heads": 8, "d_model": 64}, LONG_SRC, LONG_TGT),
    ("small", {"heads": 1, "d_model": 8, "d_ff": 256}, LONG_SRC, LONG_TGT),
    ("tutorial", {"layers": 3}, LONG_SRC, "you"),
])
def test_the_tape_estimate_bounds_what_a_walk_keeps(name, sizes, src, tgt):
    s = setup(preset(name, **sizes))
    tape = run_forward(s, src, tgt)
    n, m = len(tape.meta["src"]["ids"]), len(tape.meta["tgt"]["ids"])
    estimate = tape_numbers(s.config, n, m, len(s.vocab))
    assert kept(tape) <= estimate <= 2 * kept(tape)


def test_limits_can_be_raised_on_purpose(monkeypatch):
    with pytest.raises(LimitError, match="width is 20,000, over the limit of 10,000"):
        check("width", 20_000, "width")
    monkeypatch.setenv("HANDFORMER_LIMITS", "width=3e4, beam=7")
    check("width", 20_000)
    assert (limit("width"), limit("beam")) == (30_000, 7)


@pytest.mark.parametrize("value", ["nope=1", "width=", "width=-5", "width=inf", "width=nan"])
def test_a_malformed_limits_variable_is_refused(monkeypatch, value):
    monkeypatch.setenv("HANDFORMER_LIMITS", value)
    with pytest.raises(LimitError, match="HANDFORMER_LIMITS"):
        limit("width")


def _count(value) -> int:
    return sum(_count(v) for v in value) if isinstance(value, list) else 1


@pytest.mark.parametrize("name", ["tutorial", "small"])
def test_the_backward_json_estimate_bounds_what_is_written(name):
    """The estimate made before the reverse pass allows what tape_to_dict then writes."""
    from handformer.families.transformer.run import run_backward
    from handformer.files.tape_json import backward_json_numbers, tape_to_dict

    tape = run_forward(setup(preset(name)), "when you play", "you win")
    estimate = backward_json_numbers(tape)
    run_backward(tape, 0.1)
    written = tape_to_dict(tape)
    numbers = sum(_count(s["value"]) + sum(_count(v) for v in s.get("extras", {}).values())
                  for s in written["steps"])
    numbers += sum(_count(v) for v in written.get("params", {}).values())
    numbers += sum(_count(g["value"]) for g in written["grads"])
    numbers += sum(3 * _count(u["before"]) for u in written["updates"].values())
    assert numbers <= estimate <= 2 * numbers


def test_the_json_count_is_what_tape_to_dict_writes_even_beside_unused_parameters():
    """Only the parameters the steps read are written (while they stay few): a large parameter
    no step reads neither counts nor stops them being written."""
    from handformer.files.kept_params import PARAMS_LIMIT
    from handformer.files.tape_json import _json_numbers, tape_to_dict

    tape = run_forward(setup(preset("tutorial")), "when you play", "you win")
    tape.params["unused.table"] = np.zeros(PARAMS_LIMIT + 1)
    written = tape_to_dict(tape)
    numbers = sum(_count(s["value"]) + sum(_count(v) for v in s.get("extras", {}).values())
                  for s in written["steps"])
    numbers += sum(_count(v) for v in written["params"].values())
    assert "unused.table" not in written["params"]
    assert _json_numbers(tape) == numbers
