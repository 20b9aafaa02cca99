"""One block on its sheet: name, title, formula, labels, numbers or formulas (each with its
computed value cached), a workbook-level name, a colour scale and a note with the narration."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .formulas import MASKED, formulas_of
from .layout import HEADER_ROWS, Block, defined_name

BLUE, WHITE, RED, GREY = "#6f9fd8", "#ffffff", "#e27d7d", "#d9d6cf"
NO_COLOUR_SCALE = ("src.ids", "tgt.ids")  # ids are names of words, not magnitudes


@dataclass
class Styles:
    name: object
    title: object
    formula: object
    label: object
    number: object
    masked: object
    input: object
    integer: object
    word: object
    grey: object


def make_styles(book, precision: int) -> Styles:
    decimals = "0." + "0" * precision if precision else "0"
    return Styles(
        name=book.add_format({"bold": True, "font_color": "#1d1d1f"}),
        title=book.add_format({"font_color": "#6b6b70"}),
        formula=book.add_format({"italic": True, "font_color": "#6b6b70"}),
        label=book.add_format({"bold": True, "font_color": "#6b6b70", "align": "right",
                               "font_size": 9}),
        number=book.add_format({"num_format": decimals}),
        masked=book.add_format({"num_format": f'[<-1E+299]"−∞";[<0]-{decimals};{decimals}'}),
        input=book.add_format({"num_format": decimals, "font_color": "#1f4e9c"}),
        integer=book.add_format({"num_format": "0", "font_color": "#1f4e9c"}),
        word=book.add_format({"bold": True, "align": "left", "indent": 1}),
        grey=book.add_format({"bg_color": GREY}),
    )


def write_block(book, sheet, block: Block, plan, styles: Styles) -> int:
    """Write the block; return how many of its cells are formulas."""
    _write_labels(sheet, block, styles)
    book.define_name(defined_name(block.name), "=" + block.absolute_area())
    if block.kind == "input":
        _write_inputs(sheet, block, styles)
        count = 0
    else:
        count = _write_formulas(sheet, block, plan, _number_style(block, styles))
    _colour(sheet, block, styles)
    return count


def _write_labels(sheet, block: Block, styles: Styles) -> None:
    top, left = block.row - HEADER_ROWS, block.col - 1
    if block.title:
        sheet.write_rich_string(top, left, styles.name, block.name, styles.title,
                                "   " + block.title)
    else:
        sheet.write_string(top, left, block.name, styles.name)
    if block.narration:
        sheet.write_comment(top, left, block.narration, {"x_scale": 4, "y_scale": 3})
    if block.formula:
        sheet.write_string(top + 1, left, block.formula, styles.formula)
    for j, label in enumerate(block.cols):
        sheet.write_string(top + 2, block.col + j, str(label), styles.label)
    for i, label in enumerate(block.rows):
        sheet.write_string(block.row + i, left, str(label), styles.label)


def _write_inputs(sheet, block: Block, styles: Styles) -> None:
    whole = np.issubdtype(block.value.dtype, np.integer)
    style = styles.integer if whole else styles.input
    for (i, j), x in np.ndenumerate(block.value):
        sheet.write_number(block.row + i, block.col + j, float(x), style)


def _write_formulas(sheet, block: Block, plan, style) -> int:
    formulas = formulas_of(block, plan, sheet.name)
    cached = [[_cached(x) for x in row] for row in block.value]
    r0, c0 = block.row, block.col
    for i, row in enumerate(cached):
        for j, x in enumerate(row):
            sheet.write_formula(r0 + i, c0 + j, formulas(i, j), style, x)
    return block.height * block.width


def _cached(x):
    if isinstance(x, str):
        return x
    x = float(x)
    return MASKED if x == -np.inf else x


def _number_style(block: Block, styles: Styles):
    if block.value.dtype == object:
        return styles.word
    if block.step is not None and block.step.op == "mask":
        return styles.masked
    return styles.number


def _colour(sheet, block: Block, styles: Styles) -> None:
    """Colour scales like the HTML panels: probabilities white → blue, the rest blue–white–red
    around 0; masked scores grey; ids and helpers plain."""
    if block.kind == "helper" or block.name in NO_COLOUR_SCALE or block.name.endswith(".targets"):
        return
    r0, c0 = block.row, block.col
    r1, c1 = r0 + block.height - 1, c0 + block.width - 1
    op = block.step.op if block.step is not None else "input"
    if op == "mask":
        sheet.conditional_format(r0, c0, r1, c1, {"type": "cell", "criteria": "<",
                                                  "value": -1e299, "format": styles.grey})
    elif op == "softmax":
        sheet.conditional_format(r0, c0, r1, c1, {
            "type": "2_color_scale", "min_type": "num", "min_value": 0, "min_color": WHITE,
            "max_type": "num", "max_value": 1, "max_color": BLUE})
    else:
        sheet.conditional_format(r0, c0, r1, c1, {
            "type": "3_color_scale", "min_color": BLUE, "mid_type": "num", "mid_value": 0,
            "mid_color": WHITE, "max_color": RED})


def column_widths(blocks: list[Block], precision: int) -> dict[int, float]:
    """Label columns as wide as their longest label, number columns as wide as a number."""
    widths: dict[int, float] = {}
    for block in blocks:
        label = max((len(str(r)) for r in block.rows), default=0) + 2
        widths[block.col - 1] = max(widths.get(block.col - 1, 0), min(max(label, 6), 24))
        for j, col in enumerate(block.cols):
            wide = min(max(precision + 6, len(str(col)) + 2), 16)
            widths[block.col + j] = max(widths.get(block.col + j, 0), wide)
    return widths
