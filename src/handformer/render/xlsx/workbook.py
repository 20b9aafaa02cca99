"""The forward pass as a live spreadsheet (.xlsx): every computed number a formula.

One sheet per stage (inputs, encoder i, decoder i, prediction) after a contents sheet. Only the
inputs are numbers: embeddings, weights, biases and the sentences' ids. Each formula carries the
value the engine computed, so viewers that do not recalculate still show the numbers; a
spreadsheet that does recomputes everything after a changed input, down to the predicted words.

    >>> from handformer import api
    >>> from handformer.render.xlsx import render_xlsx
    >>> data = render_xlsx(api.walk(), lang="en")   # the workbook's bytes
"""

from __future__ import annotations

import io

import numpy as np

from ...errors import HandformerError
from ...i18n import t
from .blocks import column_widths, make_styles, write_block
from .formulas import NEEDED_ATTRS, SUPPORTED_OPS
from .layout import XlsxError
from .plan import check_ops, plan_workbook

MAX_CELLS = 100_000  # beyond this LibreOffice takes long to open it and nobody reads it

def render_xlsx(tape, lang: str = "en", precision: int = 3) -> bytes:
    """The workbook's bytes: contents, then one sheet per stage, each matrix a named block."""
    xlsxwriter = _xlsxwriter()
    from .cells import SafeText, add_sheet, check_words

    check_ops(tape, SUPPORTED_OPS, NEEDED_ATTRS)
    _check_size(tape)
    check_words(tape.meta)
    plan = plan_workbook(tape, lang)
    output = io.BytesIO()
    book = xlsxwriter.Workbook(output, {"in_memory": True})
    styles = make_styles(book, precision)
    safe = SafeText()
    contents = add_sheet(book, "contents", safe)
    for name in plan.sheets.bands:
        sheet = add_sheet(book, name, safe)
        blocks = plan.sheets.blocks(name)
        for block in blocks:
            write_block(book, sheet, block, plan, styles)
        for col, width in column_widths(blocks, precision).items():
            sheet.set_column(col, col, width)
        _page_setup(sheet)
    _write_contents(contents, plan, tape, lang, styles)
    notes = [t(lang, "xlsx.replaced")] * bool(safe.replaced) + [
        t(lang, "xlsx.cut", cut=safe.cut)] * bool(safe.cut)
    if notes:  # row 5 is kept free for it
        contents.write_string(4, 1, " ".join(notes), styles.formula)
    _page_setup(contents)
    book.close()
    return output.getvalue()


def _page_setup(sheet) -> None:
    """Printed (or exported to PDF) a sheet is one page wide, in landscape."""
    sheet.set_landscape()
    sheet.set_paper(9)  # A4
    sheet.fit_to_pages(1, 0)


def _xlsxwriter():
    try:
        import xlsxwriter
    except ImportError:
        raise HandformerError("--format xlsx needs XlsxWriter: pip install -e '.[xlsx]' in "
                              "handformer's checkout") from None
    return xlsxwriter


def count_cells(tape) -> int:
    """The numbers the workbook would hold: every step (heads once) and every parameter used."""
    used = {n for s in tape.steps for n in s.inputs if n not in tape.index}
    steps = sum(np.size(s.value) for s in tape.steps if not s.view)
    return int(steps + sum(np.size(tape.params[n]) for n in used))


def _check_size(tape) -> None:
    cells = count_cells(tape)
    if cells > MAX_CELLS:
        raise XlsxError(f"this walk would fill {cells:,} cells; --format xlsx writes at most "
                        f"{MAX_CELLS:,} (the tutorial needs about 3,500): choose a smaller "
                        f"d_model, d_ff, fewer layers, shorter sentences or a smaller corpus")


def _write_contents(sheet, plan, tape, lang: str, styles) -> None:
    sheet.write_string(0, 0, t(lang, "xlsx.title"), styles.name)
    src, tgt = tape.meta.get("src", {}), tape.meta.get("tgt", {})
    sentence = " ".join(src.get("tokens", [])) + "  →  " + " ".join(tgt.get("tokens", []))
    sheet.write_string(1, 0, t(lang, "xlsx.sentence"), styles.label)
    sheet.write_string(1, 1, sentence)
    config = tape.meta.get("config", {})
    sheet.write_string(2, 1, ", ".join(f"{k}={v}" for k, v in config.items()), styles.title)
    sheet.write_string(3, 1, t(lang, "xlsx.hint"), styles.formula)
    row = _write_prediction(sheet, plan, lang, styles, 5)
    headings = [t(lang, "xlsx.sheet"), t(lang, "xlsx.block"), t(lang, "xlsx.shape"),
                t(lang, "xlsx.step")]
    for col, heading in enumerate(headings):
        sheet.write_string(row, col, heading, styles.name)
    for block in plan.sheets.blocks():
        row += 1
        target = f"internal:'{block.sheet}'!{_corner(block)}"
        sheet.write_url(row, 0, target, string=block.sheet)
        sheet.write_string(row, 1, block.name)
        sheet.write_string(row, 2, "×".join(str(n) for n in block.value.shape))
        sheet.write_string(row, 3, block.title or block.formula)
    sheet.set_column(0, 0, 18)
    sheet.set_column(1, 1, 42)
    sheet.set_column(2, 2, 8)


def _write_prediction(sheet, plan, lang: str, styles, row: int) -> int:
    """The predicted words, linked to the prediction sheet, so they move when an input does."""
    argmax = [b for b in plan.sheets.blocks() if b.name.endswith(".argmax")]
    if not argmax:
        return row
    block = argmax[-1]
    sheet.write_string(row, 0, t(lang, "xlsx.reads"), styles.name)
    sheet.write_string(row, 1, t(lang, "xlsx.predicts"), styles.name)
    for i, word in enumerate(block.value[:, 0]):
        sheet.write_string(row + 1 + i, 0, str(block.rows[i]), styles.label)
        sheet.write_formula(row + 1 + i, 1, "=" + block.cell(i, 0, "contents"), styles.word,
                            str(word))
    return row + block.height + 2


def _corner(block) -> str:
    from .layout import a1

    return a1(block.row - 3, block.col - 1)
