"""Compare with one weight edited, or after training steps: the second run is the first run's
model changed in exactly that way, and the diff says where and by how much."""

from __future__ import annotations

import numpy as np
import pytest

from handformer.families.transformer.config import preset
from handformer.families.transformer.run import run_backward, run_forward, setup

PAIR = {"src": "you play the game", "tgt": "you win or you die"}
EDIT = {"param": "decoder.0.cross_attn.w_k", "index": [1, 2], "value": 0.75}


def _run(params=None):
    s = setup(preset("tutorial"))
    if params is not None:
        s.params = params
    return run_forward(s, PAIR["src"], PAIR["tgt"])


def _downstream(tape, param: str) -> set:
    """Every step that reads ``param``, directly or through another step (from the inputs)."""
    reached = {param}
    for step in tape.steps:
        if reached.intersection(step.inputs):
            reached.add(step.name)
    return reached - {param}


def _expected_diffs(a, b) -> dict:
    """Largest |b − a| per step; equal cells (masked −inf included) count as 0."""
    out = {}
    for s in a.steps:
        va, vb = np.asarray(s.value, float), np.asarray(b[s.name], float)
        if va.size and va.shape == vb.shape:
            with np.errstate(invalid="ignore"):
                out[s.name] = float(np.where(va == vb, 0.0, np.abs(vb - va)).max())
    return out


def test_one_weight_moves_only_the_steps_downstream_of_it(client):
    status, d = client.json("POST", "/api/compare", {"a": PAIR, "edit": EDIT})
    assert status == 200, d
    a = _run()
    readers = [s.name for s in a.steps if EDIT["param"] in s.inputs]
    assert d["first_difference"] == readers[0] == "decoder.0.cross_attn.k"
    rows = {r["name"]: r for r in d["steps"]}
    downstream = _downstream(a, EDIT["param"])
    changed = {n for n, r in rows.items() if r["changed"]}
    assert changed and changed <= downstream
    assert all(not r["changed"] for n, r in rows.items() if n.startswith(("encoder.", "src")))
    params = {k: v.copy() for k, v in a.params.items()}
    params[EDIT["param"]][tuple(EDIT["index"])] = EDIT["value"]
    want = _expected_diffs(a, _run(params))
    for name, row in rows.items():
        if name in want and not row["reshaped"]:
            assert row["max_abs_diff"] == pytest.approx(want[name], abs=0, rel=0), name


def test_one_training_step_equals_the_engine_on_the_updated_weights(client):
    status, d = client.json("POST", "/api/compare", {"a": PAIR, "train_steps": 1})
    assert status == 200, d
    a = _run()
    run_backward(a, 0.1)  # the engine's own update: θ − η g
    after = {k: a.updates[k][2] if k in a.updates else v for k, v in a.params.items()}
    b = _run(after)
    want = _expected_diffs(_run(), b)
    rows = {r["name"]: r for r in d["steps"]}
    assert d["first_difference"] == "src_embed.tok"
    for name, row in rows.items():
        if name in want:
            assert row["max_abs_diff"] == want[name], name
    assert rows["loss"]["b"] < rows["loss"]["a"]  # the step went downhill on this pair
    assert rows["loss"]["b"] == pytest.approx(a.meta["update"]["loss_after"], rel=1e-12)


@pytest.mark.parametrize("change, field", [
    ({"edit": {"param": "decoder.9.nothing", "index": [0, 0], "value": 1.0}}, "edit.param"),
    ({"edit": {"param": "generator.b", "index": [25], "value": 1.0}}, "edit.index"),
    ({"edit": {"param": "generator.w", "index": [0], "value": 1.0}}, "edit.index"),
    ({"edit": {"param": "generator.w", "index": [0, 0], "value": "nan"}}, "edit.value"),
    ({"edit": {"param": "generator.w", "index": [0, 0]}}, "edit"),
    ({"train_steps": -1}, "train_steps"),
    ({"train_steps": 10_000}, "train_steps"),
    ({"train_steps": 1.5}, "train_steps"),
])
def test_bad_changes_are_refused_naming_the_field(client, change, field):
    status, d = client.json("POST", "/api/compare", {"a": PAIR, **change})
    assert status == 422 and d["field"] == field, d


def test_no_change_is_identical(client):
    status, d = client.json("POST", "/api/compare", {"a": PAIR, "train_steps": 0})
    assert status == 200 and d["first_difference"] is None
