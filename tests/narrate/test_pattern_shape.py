"""The words that explain an attention pattern are chosen from its numbers (issue 46): piled on
one word, on <start>, along the diagonal, on the word before, spread out; the uniform [0, 1)
start's pile-up explanation only where that start made it; never another family's sentence."""

from __future__ import annotations

import numpy as np
import pytest

import handformer
from handformer.narrate import build
from handformer.narrate.pattern_shape import shape

WORDS = ["<start>", "a", "b", "c", "d"]


def causal(rows: list[list[float]]) -> np.ndarray:
    """A masked pattern from each row's weights over the words it can see (normalised)."""
    a = np.zeros((len(rows), len(rows)))
    for i, r in enumerate(rows):
        a[i, :i + 1] = np.array(r) / sum(r)
    return a


@pytest.mark.parametrize("rows, kind", [
    ([[1], [9, 1], [8, 1, 1], [7, 1, 1, 1], [6, 1, 1, 1, 1]], "start"),
    ([[1], [1, 9], [1, 1, 8], [1, 1, 1, 7], [1, 1, 1, 1, 6]], "diagonal"),
    ([[1], [9, 1], [1, 8, 1], [1, 1, 7, 1], [1, 1, 1, 6, 1]], "previous"),
    ([[1], [1, 1], [1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1, 1]], "spread"),
])
def test_a_causal_pattern_is_named_by_where_its_rows_put_their_largest_weight(rows, kind):
    got, numbers = shape(causal(rows), WORDS)
    assert got == kind
    if kind == "spread":  # the rows see 2, 3, 4, 5 words: equal weights 1/2 … 1/5
        assert numbers["even"] == f"{np.mean([1 / 2, 1 / 3, 1 / 4, 1 / 5]):.2f}"
        assert numbers["top"] == numbers["even"]


def test_a_pattern_piled_on_a_word_that_is_not_the_first_names_it():
    a = np.full((4, 5), 0.05)
    a[:, 3] = 0.8
    assert shape(a, WORDS) == ("pile", {"n": 4, "top": "0.80", "even": "0.20", "k": 4,
                                        "word": "c"})


def test_the_gpt_walk_explains_its_random_pattern_by_its_own_numbers_not_the_tutorials():
    tape = handformer.walk(family="gpt")
    first = next(s for s in build(tape, "en") if s.id.endswith(".pattern") and ".head." in s.id)
    text = " ".join(first.paragraphs)
    a = np.asarray(tape["decoder.0.self_attn.pattern"])[0]
    top = np.mean([a[i, :i + 1].max() for i in range(1, len(a))])  # row 0 sees one word
    assert "All-positive" not in text and "pile onto" not in text
    assert top < 0.5 and f"is {top:.2f} on average" in text, text


def test_the_tutorials_uniform_start_keeps_its_pile_up_explanation():
    tape = handformer.walk()
    first = next(s for s in build(tape, "en") if s.id.endswith(".pattern") and ".head." in s.id)
    a = np.asarray(tape["encoder.0.self_attn.pattern"])[0]
    assert np.bincount(a.argmax(-1)).max() >= 0.6 * len(a)  # most rows on one word
    assert "All-positive random projections" in " ".join(first.paragraphs)
