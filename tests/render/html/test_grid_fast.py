"""The shortcuts of a matrix's table give what the general rules give."""

import numpy as np
from markupsafe import escape

from handformer.narrate.document import Highlight, Matrix
from handformer.render.common import colour, grids
from handformer.render.html import grid


def test_escaped_labels_are_markupsafes_escape():
    for text in ("cat", "<eos>", 'a "b" & c\'s', "输入", ""):
        assert grid.escaped(text) == str(escape(text))
        assert grid.said(text) == str(escape(text))


def test_cell_classes_are_each_cells_class_row_after_row():
    block = np.array([[0.0, 0.05, -0.3, float("nan")], [2.0, -float("inf"), 0.95, -2.5]])
    for scale in (colour.Scale("prob"), colour.Scale("signed", 2.0), colour.Scale("ids")):
        assert colour.cell_classes(block, scale) == [colour.cell_class(x, scale)
                                                     for x in block.ravel().tolist()]


def test_masked_cells_of_a_pattern_and_of_scores():
    block = np.array([[0.0, -np.inf, 0.5]])
    assert grids.masked_cells(block, "pattern").tolist() == [[True, True, False]]
    assert grids.masked_cells(block, "matrix").tolist() == [[False, True, False]]


def test_the_whole_block_is_the_matrix_itself_and_a_part_is_its_rows_and_columns():
    value = np.arange(12.0).reshape(3, 4)
    assert grid._shown_block(value, [0, 1, 2], [0, 1, 2, 3]) is value
    assert grid._shown_block(value, [0, 2], [1, 3]).tolist() == [[1.0, 3.0], [9.0, 11.0]]


def test_tails_band_the_worked_rows_after_the_columns_marks():
    hl = Highlight(cell=(1, 0), rows=(1,), cols=(0,))
    assert grid._tails([0, 1, 5], [" hk", ""], hl) == [" hk", "", " hr hk", " hr", " hk", ""]
    assert grid._tails([0, 1], ["", " gs"], None) == ["", " gs", "", " gs"]


def test_labels_said_in_each_language_only_where_they_differ():
    en = Matrix("x", "X", np.zeros((2, 2)), rows=["input", "cat"], cols=["a", "b"])
    zh = Matrix("x", "X", np.zeros((2, 2)), rows=["输入", "cat"], cols=["a", "b"])
    same = Matrix("x", "X", np.zeros((2, 2)), rows=["input", "cat"], cols=["a", "b"])
    assert grid._said_each({"en": en, "zh": same}, en, "rows", [0, 1], True) == ["input", "cat"]
    assert grid._said_each({"en": en, "zh": zh}, en, "rows", [0, None, 1], True) == \
        [{"en": "input", "zh": "输入"}, None, "cat"]
    assert grid._said_each({"en": en, "zh": zh}, en, "cols", [0, 1], True) == ["a", "b"]
    assert grid._said_each({}, Matrix("y", "Y", np.zeros((1, 3))), "cols", [0, 2], True) == \
        ["0", "2"]


def test_a_header_is_the_same_made_once_or_with_labels_by_language():
    cols = [("d0", 0, ""), None, ("<b>", 5, "h1 gs")]
    once = grid.table(cols, [("x", 0, "<td>1</td>")])
    assert grid.table(cols, [("x", 0, "<td>1</td>")]) == once  # from the cache
    assert '<th data-j="5" class="h1 gs">&lt;b&gt;</th>' in once
    by_lang = grid.table([({"en": "a", "zh": "甲"}, 0, "")], [("x", 0, "<td>1</td>")])
    assert '<span class="l-zh" lang="zh' in by_lang and ">甲</span></th>" in by_lang
    assert '<tr class="gap">' not in once and '<tr class="gap">' in grid.table(cols, [None])


def test_shown_indices_all_of_a_small_axis_else_the_rule_with_the_named_ones():
    from handformer.render.html.view import _hidden, shown

    assert shown(5, 16, 6, 2, {3, 9}) == [0, 1, 2, 3, 4]
    assert shown(20, 16, 6, 2, {10}) == [0, 1, 2, 3, 4, 5, None, 10, None, 18, 19]
    assert _hidden((20, 5), [0, None, 19], [0, 1, 2, 3, 4]) == (18, 0)


def test_a_label_already_safe_is_not_escaped_again():
    from markupsafe import Markup

    assert grid.said("<b>") == "&lt;b&gt;"
    assert grid.said(Markup("<b>")) == "<b>"


def test_a_blocks_numbers_are_written_once_and_as_layout_writes_them():
    from handformer import layout

    first = np.array([[0.5, -0.0004, float("nan")], [-np.inf, 12.3456, 0.0]])
    again, other = first.copy(), first.copy()
    other[0, 1] = 0.0004  # "-0.000" and "0.000": blocks differ by a byte, not in their text
    for block in (first, again, other):
        values = block.ravel().tolist()
        for precision in (0, 1, 3):
            assert list(grid.numbers(block, values, precision)) == layout.numbers(values,
                                                                                  precision)
    assert grid.numbers(again, again.ravel().tolist(), 3) is grid.numbers(first, [], 3)


def test_blocks_of_the_same_bytes_in_another_dtype_are_written_apart():
    from handformer import layout

    pair = np.array([[1.5, -2.25]], dtype=np.float32)
    one = pair.view(np.float64)  # the same eight bytes, read as one float64
    for block in (pair, one):
        values = block.ravel().tolist()
        assert list(grid.numbers(block, values, 3)) == layout.numbers(values, 3)
