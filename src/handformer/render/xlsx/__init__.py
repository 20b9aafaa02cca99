"""The forward pass as a live spreadsheet (.xlsx), every computed number a formula.

workbook.py writes the book, plan.py decides its sheets and blocks, blocks.py and layout.py
place them, formulas.py turns each op into spreadsheet formulas.
"""

from __future__ import annotations


def render(tape, options) -> bytes:
    """The renderer contract (render/registry.py): the workbook's bytes."""
    from .workbook import render_xlsx

    return render_xlsx(tape, lang=options.lang, precision=options.precision)


def render_xlsx(tape, lang: str = "en", precision: int = 3) -> bytes:
    from .workbook import render_xlsx as draw

    return draw(tape, lang=lang, precision=precision)
