"""Why notes in the backward half (issue 46), both languages: each told once, in the first panel
whose formula does what it explains (the residual sum's copy, the softmax's rowsum, the layer
norm's two means, the tied table's sum)."""

from __future__ import annotations

import pytest

import handformer
from handformer.narrate import build

# note → what the panel's formula must show for the note to belong there
WHERE = {"Why a sum copies": r"\frac{\partial L}{\partial R}",
         "Why A ⊙ (G − rowsum(G ⊙ A))": r"\operatorname{rowsum}",
         "Why layer norm's backward subtracts two means": r"\overline{\hat g \odot \hat x}",
         "Why residual paths keep gradients alive": r"\frac{\partial L}{\partial R}",
         "Why the tied table's gradient is a sum": r"\sum_{\mathrm{lookups}}"}


@pytest.mark.parametrize("family, notes", [("transformer", 4), ("gpt", 5)])
def test_each_backward_why_is_told_once_where_its_formula_works(family, notes):
    tape = handformer.walk(backward=True, **({"family": family} if family == "gpt" else {}))
    sections = [s for s in build(tape, "en") if s.phase == "backward"]
    told = {}
    for s in sections:
        for p in s.paragraphs:
            for start in WHERE:
                if p.startswith(start):
                    assert start not in told, (start, s.id)
                    told[start] = s
    assert len(told) == notes, sorted(told)
    for start, s in told.items():
        assert WHERE[start] in s.formula, (start, s.id, s.formula[:200])
    zh = [p for s in build(tape, "zh") if s.phase == "backward" for p in s.paragraphs
          if p.startswith("为什么")]
    assert len(zh) == notes
