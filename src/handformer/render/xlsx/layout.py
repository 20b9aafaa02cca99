"""Where every matrix of the workbook sits: one sheet per stage, bands of labelled blocks.

A band is one step: its block (or one block per head, side by side) and, to its right, the
parameters it is the first to use. A block's data starts three rows below its band's top: a title
row, a formula row and a row of column labels; its row labels sit in the column to its left.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from ...errors import XlsxError  # noqa: F401  (raised here)

HEADER_ROWS = 3  # title, formula, column labels
MAX_COLUMNS = 16384  # the xlsx format's last column is XFD
WRAP_COLUMNS = 40




def defined_name(name: str) -> str:
    """A tape name as a workbook name: dots and other non-name characters become "_"."""
    text = re.sub(r"[^A-Za-z0-9_]", "_", name)
    # A name that reads as a cell (A1, R1C1) or starts with a digit is not a valid name.
    if not re.match(r"[A-Za-z_]", text) or re.fullmatch(r"[A-Za-z]{1,3}\d+|[RrCc]\d*", text):
        text = "_" + text
    return text


def column_letters(col: int) -> str:
    letters = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def a1(row: int, col: int) -> str:
    return f"{column_letters(col)}{row + 1}"


def sheet_prefix(sheet: str) -> str:
    """'encoder 0'! : a sheet's name quoted for a reference (a quote inside doubled)."""
    return "'" + sheet.replace("'", "''") + "'!"


@dataclass
class Block:
    """One labelled matrix on a sheet: an input (numbers) or a computed step (formulas)."""

    name: str  # tape step or parameter name; one head of a step is its view's name
    kind: str  # "input", "step" (a tape step, checked) or "helper" (computed, not on the tape)
    value: np.ndarray  # 2-D: the engine's numbers, cached beside every formula
    step: object = None  # the tape Step that computes it (None for inputs)
    head: int | None = None
    rows: list[str] = field(default_factory=list)
    cols: list[str] = field(default_factory=list)
    title: str = ""
    formula: str = ""
    narration: str = ""
    sheet: str = ""
    row: int = 0  # first data cell, 0-based
    col: int = 0

    @property
    def height(self) -> int:
        return self.value.shape[0]

    @property
    def width(self) -> int:
        return self.value.shape[1]

    def _prefix(self, here: str) -> str:
        return "" if here == self.sheet else sheet_prefix(self.sheet)

    def cell(self, i: int, j: int, here: str) -> str:
        return self._prefix(here) + a1(self.row + i, self.col + j)

    def area(self, here: str, rows=None, cols=None) -> str:
        """A range of the block by row and column slices; the whole block by its name."""
        r0, r1 = (0, self.height) if rows is None else rows
        c0, c1 = (0, self.width) if cols is None else cols
        if (r0, r1, c0, c1) == (0, self.height, 0, self.width):
            return defined_name(self.name)
        first, last = a1(self.row + r0, self.col + c0), a1(self.row + r1 - 1, self.col + c1 - 1)
        return f"{self._prefix(here)}{first}:{last}"

    def row_area(self, i: int, here: str) -> str:
        return self.area(here, rows=(i, i + 1), cols=None) if self.height > 1 else self.area(here)

    def col_area(self, j: int, here: str) -> str:
        return self.area(here, rows=None, cols=(j, j + 1)) if self.width > 1 else self.area(here)

    def absolute_area(self) -> str:
        first = f"${column_letters(self.col)}${self.row + 1}"
        last = f"${column_letters(self.col + self.width - 1)}${self.row + self.height}"
        return f"{sheet_prefix(self.sheet)}{first}:{last}"


@dataclass
class Sheets:
    """Blocks placed band by band, sheet by sheet, in the order the sheets were first used."""

    bands: dict[str, list[list[Block]]] = field(default_factory=dict)
    next_row: dict[str, int] = field(default_factory=dict)

    def place(self, sheet: str, band: list[Block]) -> None:
        """Side by side from column B; a block that would reach past WRAP_COLUMNS starts a
        new line of the band (a weight as wide as the vocabulary goes below its step)."""
        top = self.next_row.setdefault(sheet, 0)
        col, line_height = 1, 0  # column A holds the first block's row labels
        for block in band:
            if col > 1 and col + block.width > WRAP_COLUMNS:
                top, col, line_height = top + HEADER_ROWS + line_height + 2, 1, 0
            if col + block.width > MAX_COLUMNS:
                raise XlsxError(f"{block.name!r} is {block.width:,} columns wide; an xlsx "
                                f"sheet holds {MAX_COLUMNS:,}")
            block.sheet, block.row, block.col = sheet, top + HEADER_ROWS, col
            col += block.width + 2  # a label column and a gap before the next block
            line_height = max(line_height, block.height)
        self.bands.setdefault(sheet, []).append(band)
        self.next_row[sheet] = top + HEADER_ROWS + line_height + 2

    def blocks(self, sheet: str | None = None) -> list[Block]:
        names = [sheet] if sheet else list(self.bands)
        return [b for s in names for band in self.bands[s] for b in band]


def as_matrix(value: np.ndarray, name: str) -> np.ndarray:
    """A scalar as 1×1, a vector as one row, a matrix as itself."""
    value = np.asarray(value)
    if value.ndim > 2:
        raise XlsxError(f"{name!r} has shape {value.shape}: the workbook holds one sentence "
                        f"pair, matrices of at most two axes (and heads)")
    return value.reshape(1, -1) if value.ndim < 2 else value


def stage_of(step, sheet_of: dict[str, str]) -> str:
    """The sheet of a step: inputs, encoder i, decoder i, or prediction."""
    parts = step.name.split(".")
    if parts[0] in ("encoder", "decoder") and len(parts) > 1 and parts[1].isdigit():
        return f"{parts[0]} {parts[1]}"
    if parts[0].startswith(("src", "tgt")):
        return "inputs"
    if parts[0] in ("encoder", "decoder") and step.inputs and step.inputs[0] in sheet_of:
        return sheet_of[step.inputs[0]]  # a stack's final norm joins its last layer
    return "prediction"
