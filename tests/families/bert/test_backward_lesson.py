"""BERT's backward panels taught like the encoder-decoder's (issue 19): headings in lesson words
("gradient of …", never "back through W₂"), and a worked cell in every panel of the last layer
whose gradient's readers are told that way, in en and zh; the cell's total is the tape's
gradient there and each share is redone here by the chain rule (a tiny BERT folder by hand)."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from tests.narrate.test_backward_worked import NUMBER, close
from tests.support.clirun import bert_folder

import handformer
from handformer.narrate import build

LAST_LAYER = ["ln2", "ffn.out", "ffn.pre", "ln1", "self_attn.out", "self_attn.z",
              "self_attn.pattern", "self_attn.scores"]  # GELU's entry has its own sentence


@pytest.fixture(scope="module")
def tape(tmp_path_factory):
    folder = bert_folder(tmp_path_factory.mktemp("bert") / "tiny")
    return handformer.walk(pretrained=str(folder), src="hello world", tgt="the storm",
                           backward=True)


def cell_of(section) -> tuple[str, tuple[int, int]]:
    first = section.equation[0]
    return first.name.removeprefix("grad."), first.highlight.cell


def hand_share(tape, use, name: str, at: tuple) -> float:
    """What reader ``use`` sends back to ``name`` at row/col ``at`` of sentence A (head 1)."""
    g = np.asarray(tape.grads[use.name])[0]
    args = [np.asarray(tape.index[x].value)[0] if x in tape.index else np.asarray(tape.params[x])
            for x in use.inputs]
    i, j = at
    k = use.inputs.index(name)
    if use.op in ("add", "identity"):
        return g[i, j]
    if use.op == "mask":
        return g[0, i, j] if np.isfinite(np.asarray(tape.index[use.name].value)[0][0, i, j]) else 0
    if use.op == "linear":
        return float(g[i] @ args[1][j])
    if use.op == "layer_norm":
        row, gamma, eps = args[0][i], args[1], use.attrs["eps"]
        s = math.sqrt(row.var() + eps)
        xhat, d = (row - row.mean()) / s, len(row)
        return float(sum(g[i, m] * gamma[m] * ((m == j) - 1 / d - xhat[m] * xhat[j] / d) / s
                         for m in range(d)))
    if use.op == "merge_heads":
        return g[i, j]  # head 1: its columns come first
    if use.op == "attend":
        a, v = args
        return float(g[0, i] @ v[0, j] if k == 0 else a[0, :, i] @ g[0, :, j])
    if use.op == "scores":
        q, key = args
        return float((g[0, i] @ key[0, :, j] if k == 0 else g[0, :, i] @ q[0, :, j])
                     / math.sqrt(q.shape[-1]))
    raise AssertionError(f"no hand rule for {use.op}")


def test_the_last_layers_gradient_panels_work_out_a_cell_redone_by_hand(tape):
    sections = {s.id: s for s in build(tape, "en")}
    for leaf in LAST_LAYER:
        s = sections[f"grad.layer.0.{leaf}"]
        text = next((p for p in s.paragraphs if p.startswith("Worked out for one cell")), None)
        assert text, s.id
        name, at = cell_of(s)
        uses = [u for u in tape.steps if name in u.inputs and not u.view and u.name in tape.grads]
        expected = [hand_share(tape, u, name, at) for u in uses]
        pieces = text.split(". In all: ")
        printed = [NUMBER.findall(part)[-1] for part in pieces[0].split("; plus ")]
        assert len(printed) == len(expected), (s.id, text)
        for said, value in zip(printed, expected, strict=True):
            assert close(said, value), (s.id, said, value)
        g = np.asarray(tape.grads[name])[0]
        plane = g[0] if g.ndim == 3 else g
        assert math.isclose(sum(expected), plane[at], rel_tol=1e-9, abs_tol=1e-15)
        assert close(NUMBER.findall(pieces[1])[0], plane[at])


def test_backward_headings_are_lesson_words_and_small_gradients_keep_their_digits(tape):
    for lang, word, cell in (("en", "radient", "Worked out for one cell"),
                             ("zh", "梯度", "算一个格子")):
        backward = [s for s in build(tape, lang) if s.phase == "backward"]
        assert len(backward) > 12
        assert not [s.title for s in backward if "back through" in s.title or "反向经过" in s.title]
        lessons = [s for s in backward if s.id.startswith("grad.layer.")]
        assert all(word in s.title for s in backward), [s.title for s in backward]
        assert all(word in s.title for s in lessons), [s.title for s in lessons]
        assert sum(any(p.startswith(cell) for p in s.paragraphs) for s in lessons) >= 8
    scaled = [m for s in build(tape, "en") if s.id.startswith("grad.layer.")
              for m in s.equation if hasattr(m, "symbol") and re.search(r"\\times 10\^", m.symbol)]
    assert scaled  # this tiny model's gradients are all below 0.05: drawn ×10ⁿ, not as 0.000
