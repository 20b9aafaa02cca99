"""At 100 columns a small matrix (up to 16 × 16) is shown whole, in a compact layout where the
usual one does not fit: the decoder-only model's 13 × 13 masked scores show their whole −∞
triangle (issue 46); a mean bar over more than one letter, which plain text cannot draw, is
written mean(·)."""

from __future__ import annotations

import numpy as np

import handformer
from handformer.narrate import build
from handformer.narrate.unicode_math import to_text
from handformer.render.terminal.screen import render_text


def test_a_13_by_13_masked_pattern_is_whole_at_100_columns():
    tape = handformer.walk(family="gpt")
    sections = [s for s in build(tape, "en") if s.id.endswith(".head.0.masked")]
    text = render_text(sections, 3, 100)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 100
    masked = np.asarray(tape["decoder.0.self_attn.masked"])[0]
    tokens = tape.meta["tgt"]["tokens"]
    body = [line for line in lines if line[:1] != " " and line.split()[:1]
            and line.split()[0] in tokens]  # the rows, labelled by their tokens
    assert len(body) == 13 and "⋯" not in text and "⋮" not in text
    assert sum(line.count("-∞") for line in body) == int(np.isinf(masked).sum()) == 78


def test_a_bar_over_several_letters_is_a_mean():
    assert to_text(r"\overline{\hat g \odot \hat x}") == "mean(g\u0302 ⊙ x\u0302)"
    assert to_text(r"\overline{\hat g}") == "g\u0302\u0304"
