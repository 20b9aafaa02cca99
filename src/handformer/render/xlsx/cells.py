"""Text on its way into the workbook's XML: every string a cell, comment, link or sheet name
holds passes through here.

XML 1.0 cannot hold most C0 controls (NUL, ESC, backspace …), lone surrogates or U+FFFE/U+FFFF:
a corpus word holding one would make a workbook that no reader opens. Each is replaced by a
visible stand-in (␀ … ␟ for the controls, � for the rest) and counted, so the contents sheet can
say so. A cell holds at most 32,767 UTF-16 units: a word longer than that is refused before
anything is written (``check_words``); any other longer text is cut with a visible end mark
instead of silently.
"""

from __future__ import annotations

import re

from xlsxwriter.worksheet import Worksheet

from ...errors import XlsxError
from ...textsafe import one_line

CELL_LIMIT = 32_767  # UTF-16 units in one cell (Excel's limit; XlsxWriter cuts silently)
# What XML 1.0's Char production leaves out (tab, newline and carriage return are allowed).
XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
CUT_MARK = "… [cut: {n:,} characters in all]"


def _stand_in(match: re.Match) -> str:
    code = ord(match.group())
    return chr(0x2400 + code) if code < 0x20 else "\ufffd"  # ␀ … ␟, or �


def utf16_length(text: str) -> int:
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


class SafeText:
    """Cleans strings and counts what it replaced or cut (one per workbook)."""

    def __init__(self) -> None:
        self.replaced = 0
        self.cut = 0

    def __call__(self, text):
        if not isinstance(text, str):
            return text
        if XML_ILLEGAL.search(text):
            self.replaced += len(XML_ILLEGAL.findall(text))
            text = XML_ILLEGAL.sub(_stand_in, text)
        if len(text) > CELL_LIMIT // 2 and utf16_length(text) > CELL_LIMIT:
            self.cut += 1
            mark = CUT_MARK.format(n=len(text))
            keep = CELL_LIMIT - len(mark)
            while utf16_length(text[:keep]) > CELL_LIMIT - len(mark):
                keep -= 1
            text = text[:keep] + mark
        return text


class SafeSheet(Worksheet):
    """A worksheet whose every written string goes through the workbook's ``SafeText``."""

    safe: SafeText  # set by the workbook right after the sheet is added

    def write_string(self, row, col, string, cell_format=None):
        return super().write_string(row, col, self.safe(string), cell_format)

    def write_formula(self, row, col, formula, cell_format=None, value=0):
        return super().write_formula(row, col, formula, cell_format, self.safe(value))

    def write_rich_string(self, row, col, *args):
        return super().write_rich_string(row, col, *(self.safe(a) for a in args))

    def write_comment(self, row, col, comment, options=None):
        return super().write_comment(row, col, self.safe(comment), options)

    def write_url(self, row, col, url, cell_format=None, string=None, tip=None):
        return super().write_url(row, col, url, cell_format, self.safe(string), self.safe(tip))


def add_sheet(book, name: str, safe: SafeText) -> SafeSheet:
    sheet = book.add_worksheet(safe(name), worksheet_class=SafeSheet)
    sheet.safe = safe
    return sheet


def check_words(meta: dict) -> None:
    """Refuse a word (of the vocabulary or the sentences) that no cell can hold."""
    words = list(meta.get("vocab", [])) + list(meta.get("src_vocab", []))
    for part in ("src", "tgt", "target"):
        words += list((meta.get(part) or {}).get("tokens", []))
    for word in words:
        if isinstance(word, str) and len(word) > CELL_LIMIT // 2 \
                and utf16_length(word) > CELL_LIMIT:
            raise XlsxError(f"the word {one_line(word[:12])!r}… is {len(word):,} characters "
                            f"long; a workbook cell holds at most {CELL_LIMIT:,}: shorten it "
                            f"in the corpus or choose another --format")
