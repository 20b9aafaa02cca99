"""After the update panels, which way the step moved the prediction (issue 19): each position's
p(target) before → after one SGD step, in every language. The numbers are redone by the NumPy
reference model (tests/reference, no handformer code): its forward pass on the tape's weights,
SGD with its own gradients, and its forward pass again."""

from __future__ import annotations

import re

import numpy as np
from tests.reference.check import sizes_of
from tests.reference.model import Reference, sgd

import handformer
from handformer.families.transformer.config import Config
from handformer.narrate import build

LR = 0.1


def reference_p_target(tape) -> tuple[list[float], list[float]]:
    sizes = sizes_of(Config.from_dict(tape.meta["config"]))
    src, tgt, target = (tape.meta[k]["ids"] for k in ("src", "tgt", "target"))
    ref = Reference(sizes, {k: v.copy() for k, v in tape.params.items()})
    ref.run(src, tgt, target)
    ref.backward()
    before = ref.v("generator.probs")[np.arange(len(target)), target]
    again = Reference(sizes, sgd(ref.p, ref.grads, LR))
    again.run(src, tgt, target)
    after = again.v("generator.probs")[np.arange(len(target)), target]
    return before.tolist(), after.tolist()


def moved_paragraphs(tape, lang: str) -> list[str]:
    last = [s for s in build(tape, lang) if s.phase == "update"][-1]
    return last.paragraphs


def test_the_last_update_panel_says_each_positions_p_target_before_and_after_the_step():
    tape = handformer.walk(backward=True, lr=LR)
    before, after = reference_p_target(tape)
    assert max(abs(a - b) for a, b in zip(before, after, strict=True)) > 0.01  # it moves
    words = [tape.meta["vocab"][i] for i in tape.meta["target"]["ids"]]
    for lang, opener in (("en", "Which way the step moved"), ("zh", "这一步把预测往哪边推")):
        paragraphs = moved_paragraphs(tape, lang)
        text = next(p for p in paragraphs if p.startswith(opener))
        pairs = re.findall(r"p\(([^)]+)\) (\d\.\d+) → (\d\.\d+)", text)
        assert [w for w, _, _ in pairs] == words
        for (_, b, a), want_b, want_a in zip(pairs, before, after, strict=True):
            assert abs(float(b) - want_b) <= 0.5 * 10.0 ** -(len(b) - 2) + 1e-12
            assert abs(float(a) - want_a) <= 0.5 * 10.0 ** -(len(a) - 2) + 1e-12
        rose = sum(a > b for a, b in zip(after, before, strict=True))
        assert str(rose) in re.split(r"[:：]", text)[-1]
        most = int(np.argmax(np.abs(np.subtract(after, before))))
        said = paragraphs[paragraphs.index(text) + 1]
        assert f"p({words[most]})" in said
        assert (f"{after[most]:.3f}" in said) and (f"{before[most]:.3f}" in said)


def test_the_decoder_only_model_says_it_too():
    tape = handformer.walk(family="gpt", backward=True)
    text = " ".join(moved_paragraphs(tape, "en"))
    update = tape.meta["update"]
    assert len(update["p_target_after"]) == len(tape.meta["target"]["ids"])
    assert "Which way the step moved" in text
    pairs = re.findall(r"p\(([^)]+)\) (\d\.\d+) → (\d\.\d+)", text)
    probs = tape.index["generator.probs"].value
    before = [probs[t, i] for t, i in enumerate(tape.meta["target"]["ids"])]
    assert len(pairs) == len(before)
    for (_, b, a), want_b, want_a in zip(pairs, before, update["p_target_after"], strict=True):
        assert abs(float(b) - want_b) < 5e-4 and abs(float(a) - want_a) < 5e-4
