"""Compare two runs: which steps moved, by how much, and where the runs part."""

from __future__ import annotations

import numpy as np

import handformer


def test_identical_runs_do_not_part(client):
    body = {"src": "the game", "tgt": "you die"}
    status, d = client.json("POST", "/api/compare", {"a": body, "b": body})
    assert status == 200 and d["first_difference"] is None and d["changed_steps"] == 0
    assert all(s["max_abs_diff"] == 0.0 for s in d["steps"])


def test_another_target_parts_at_the_decoder_embedding(client):
    """The encoder never reads the target, so nothing moves before the target's embedding;
    there the change is the difference of the two embedding rows, computed here."""
    a = {"src": "you play the game", "tgt": "you win or you die"}
    b = {"src": "you play the game", "tgt": "you die or you win"}
    status, d = client.json("POST", "/api/compare", {"a": a, "b": b})
    assert status == 200
    tape = handformer.walk(**a)
    first = d["first_difference"]
    assert first == "tgt.ids"
    before = [s.name for s in tape.steps][: [s.name for s in tape.steps].index(first)]
    rows = {s["name"]: s for s in d["steps"]}
    assert all(not rows[n]["changed"] for n in before if n in rows)
    table = tape.params["tgt_embed.weight"]
    ids = tape.meta["vocab"]
    ia = [ids.index(w) for w in ["<start>", *a["tgt"].split()]]
    ib = [ids.index(w) for w in ["<start>", *b["tgt"].split()]]
    expected = np.abs(table[ib] - table[ia]).max()
    assert rows["tgt_embed.tok"]["max_abs_diff"] == expected
    assert rows["tgt_embed.tok"]["cells"] == int((table[ib] != table[ia]).sum())
    assert all(not rows[n]["changed"] for n in rows if n.startswith("encoder."))


def test_more_heads_part_at_the_first_attention(client):
    status, d = client.json("POST", "/api/compare", {
        "a": {"config": {"d_model": 8}}, "b": {"config": {"d_model": 8, "heads": 2}}})
    assert status == 200
    assert d["first_difference"].startswith("encoder.0.self_attn")
    assert "encoder.0.self_attn.head.1.scores" in d["only_b"]
