"""layout: the one elision rule and the one number format, checked by hand."""

import math

import numpy as np
import pytest

from handformer import layout


def test_elide_keeps_head_and_tail_with_one_gap():
    assert layout.elide(5, 16, 6, 2) == [0, 1, 2, 3, 4]
    assert layout.elide(16, 16, 6, 2) == list(range(16))
    assert layout.elide(20, 16, 6, 2) == [0, 1, 2, 3, 4, 5, None, 18, 19]
    assert layout.shown_cols(512) == [0, 1, 2, 3, 4, 5, 6, 7, None, 510, 511]


@pytest.mark.parametrize("x, precision, page, plain", [
    (0.68812, 3, "0.688", "0.688"),
    (-0.0004, 3, "0.000", "0.000"),  # no "-0.000"
    (-0.0006, 3, "-0.001", "-0.001"),
    (2.5, 0, "2", "2"),  # round half to even, as Python's format
    (-math.inf, 3, "−∞", "-∞"),
    (math.inf, 3, "∞", "∞"),
    (math.nan, 3, "nan", "·"),
])
def test_number(x, precision, page, plain):
    assert layout.number(x, precision) == page
    assert layout.number(x, precision, layout.PLAIN) == plain


def test_number_rows_writes_what_number_writes():
    block = np.array([[0.1234, -0.00001, 2.0], [-1.5, 10.25, -0.0004]])
    assert layout.number_rows(block, 2) == "0.12 0.00 2.00;-1.50 10.25 0.00"
    assert layout.number_rows(np.array([[-math.inf, 1.0]]), 1) == "-inf 1.0"


def test_numbers_of_a_row_are_each_number_as_number_writes_it():
    """The row-at-once spelling (the page's cells) against the one-number rule, on the cases
    it treats apart: NaN, ±∞, values that round to "-0", whole and negative numbers."""
    row = [0.0, -0.0, -0.0004, 0.0004, -0.0005, 1.23456, -7.5, 12.0, float("nan"),
           float("inf"), -float("inf"), 1e20, -1e-300]
    for precision in (0, 1, 3):
        for spelling in (layout.PAGE, layout.PLAIN):
            assert layout.numbers(row, precision, spelling) == \
                [layout.number(x, precision, spelling) for x in row]
    assert layout.numbers([-0.0004, -0.25], 3) == ["0.000", "-0.250"]  # by hand
    finite = [-0.4, -0.6, -1.5, 2.5, -0.04, 0.0]  # no NaN or ∞: "-0" alone is spelled again
    for precision in (0, 1, 2):
        assert layout.numbers(finite, precision) == [layout.number(x, precision) for x in finite]
    assert layout.numbers([], 3) == []
