"""Lines of text with styled spans for a terminal: cell widths, cropping, ANSI colours.

What the terminal walkthrough needs of a terminal library, without one: importing rich and
printing through it cost more than computing the whole Transformer. A character takes 0, 1 or 2
cells (combining marks 0, Chinese 2), a line is cut at a cell width, and a style such as
"bold blue" becomes an SGR escape when the stream is a terminal. Colours are decided the way rich
decides them (TTY_COMPATIBLE, FORCE_COLOR, isatty, TERM=dumb, NO_COLOR), so the output is the
same, byte for byte, as it was when rich drew it.
"""

from __future__ import annotations

import os
import re
import unicodedata
from functools import cache, lru_cache

from ...records import Frozen

_ATTRIBUTES = {"bold": "1", "dim": "2", "italic": "3", "underline": "4", "reverse": "7"}
_COLOURS = {"black": "30", "red": "31", "green": "32", "yellow": "33", "blue": "34",
            "magenta": "35", "cyan": "36", "white": "37"}
_ZERO_WIDTH = frozenset(("Mn", "Me", "Mc", "Cf", "Zl", "Zp"))


class Line:
    """One line of plain text with styled spans (start, end or None for the end, style). Spans
    are replaced, never changed in place, so lines may share them."""

    __slots__ = ("plain", "spans")

    def __init__(self, plain: str, spans=()):
        self.plain, self.spans = plain, spans


class Block(list):
    """Lines drawn as one piece (a matrix, an operator), each padded to ``width`` cells and its
    spans ending where its text does (never None), so that blocks side by side need not
    measure their lines again."""

    def __init__(self, lines, width: int):
        super().__init__(lines)
        self.width = width


# Characters one cell wide in every terminal: Latin, Greek, Cyrillic, phonetic letters (ᵀ ᵢ),
# punctuation (“ ” …), super- and subscripts, arrows, maths (⋯ ⋮ ∞ √), box drawing (─ │ ╭).
ONE_CELL_RANGES = ((0x20, 0x7E), (0xA0, 0xAC), (0xAE, 0x2FF), (0x370, 0x482), (0x1D00, 0x1DBF),
                   (0x2010, 0x2027), (0x2030, 0x205E), (0x2070, 0x209F), (0x2190, 0x22FF),
                   (0x2500, 0x25FC))
_OTHER = re.compile("[^" + "".join(f"{chr(a)}-{chr(b)}" for a, b in ONE_CELL_RANGES) + "]")


@lru_cache(maxsize=8192)  # the same numbers, words and labels are measured again and again
def cells(text: str) -> int:
    """Terminal cells a text takes: its length, unless it holds wide or zero-width characters."""
    return len(text) if one_cell_each(text) else sum(map(char_cells, text))


def one_cell_each(text: str) -> bool:
    """Whether every character of ``text`` takes one cell (then so does every part of it)."""
    return text.isascii() and text.isprintable() or not _OTHER.search(text)


@cache
def char_cells(char: str) -> int:
    """0 for control and combining characters, 2 for East Asian wide ones, else 1 (as wcwidth)."""
    code = ord(char)
    if code < 32 or 0x7F <= code < 0xA0:
        return 0
    category = unicodedata.category(char)
    if category == "Cn":  # unassigned: Python's tables may be older than the terminal's
        return 1
    if (category in _ZERO_WIDTH and code != 0xAD) or 0x1160 <= code <= 0x11FF \
            or 0xD7B0 <= code <= 0xD7FF:  # Hangul medial vowels and final consonants join
        return 0
    return 2 if unicodedata.east_asian_width(char) in "WF" else 1


def fit(text: str, width: int) -> str:
    """The text cut or padded with spaces to exactly ``width`` cells; a wide character cut in
    half becomes a space."""
    size = cells(text)
    if size <= width:
        return text + " " * (width - size)
    if text.isascii():
        return text[:max(width, 0)]
    used = 0
    for i, char in enumerate(text):
        if used + char_cells(char) > width:
            return text[:i] + " " * (width - used)
        used += char_cells(char)
    return text


def crop(line: Line, width: int) -> Line:
    """The line cut at ``width`` cells (its spans kept), or the line itself if it fits."""
    return line if cells(line.plain) <= width else Line(fit(line.plain, width), line.spans)


def truncate(text: str, width: int) -> str:
    """The text cut to ``width`` cells with an ellipsis where it was cut."""
    return text if cells(text) <= width else fit(text, width - 1) + "…"


@lru_cache(maxsize=256)
def sgr(style: str, colour: bool = True) -> str:
    """The SGR parameters of a style: attributes in order, then the last colour named."""
    words = style.split()
    codes = sorted({_ATTRIBUTES[w] for w in words if w in _ATTRIBUTES}, key=int)
    colours = [_COLOURS[w] for w in words if w in _COLOURS] if colour else []
    return ";".join(codes + colours[-1:])


def styled(line: Line, colour: bool = True) -> str:
    """The line with an escape around each run of one style (as rich writes a segment)."""
    plain, end = line.plain, len(line.plain)
    if not line.spans:
        return plain
    spans = [(min(a, end), end if b is None else min(b, end), s) for a, b, s in line.spans]
    cuts = sorted({0, end, *(x for a, b, _ in spans for x in (a, b))})
    out = []
    for start, stop in zip(cuts, cuts[1:], strict=False):
        codes = sgr(" ".join(s for a, b, s in spans if a <= start and stop <= b), colour)
        piece = plain[start:stop]
        out.append(f"\x1b[{codes}m{piece}\x1b[0m" if codes else piece)
    return "".join(out)


class Terminal(Frozen):
    """Where the walkthrough is printed: its width, whether it takes styles as SGR escapes (a
    terminal that is not dumb), and colours too, not only bold/dim/italic (off with
    NO_COLOR)."""

    FIELDS = ("width", "escapes", "colour")

    def __init__(self, width: int, escapes: bool = False, colour: bool = True):
        self._set(width=width, escapes=escapes, colour=colour)

    @classmethod
    def detect(cls, stream, width: int | None = None, environ=None) -> Terminal:
        env = os.environ if environ is None else environ
        terminal = _is_terminal(stream, env)
        dumb = terminal and env.get("TERM", "").lower() in ("dumb", "unknown")
        if width is None:
            width = 80 if dumb and not env.get("COLUMNS", "").isdigit() else _columns(env)
        return cls(width, terminal and not dumb, env.get("NO_COLOR", "") == "")

    def line(self, line: Line) -> str:
        return styled(line, self.colour) if self.escapes else line.plain


def _is_terminal(stream, env) -> bool:
    """TTY_COMPATIBLE=0/1 or FORCE_COLOR decide; otherwise whether the stream is a TTY."""
    if env.get("TTY_COMPATIBLE", "") in ("0", "1"):
        return env["TTY_COMPATIBLE"] == "1"
    if env.get("FORCE_COLOR") is not None:
        return env["FORCE_COLOR"] != ""
    try:
        return bool(getattr(stream, "isatty", lambda: False)())
    except ValueError:  # a closed stream
        return False


def _columns(env) -> int:
    """COLUMNS, else the size of the first of stdin, stdout, stderr that is a terminal (so
    `handformer walk | less` still gets the terminal's width), else 80. Either is held to the
    limit ``width`` as --width is (COLUMNS=999999999 would draw rules a billion wide)."""
    given = env.get("COLUMNS", "")
    if given.isascii() and given.isdigit() and given.strip("0"):
        return _bounded(int(given[:12]), "the COLUMNS environment variable", len(given))
    for fd in (0, 1, 2):
        try:
            return _bounded(os.get_terminal_size(fd).columns or 80, "the terminal's width")
        except (AttributeError, ValueError, OSError):
            continue
    return 80


def _bounded(columns: int, what: str, digits: int = 0) -> int:
    from ...limits import LimitError, check, limit

    if digits > 12:  # int() of thousands of digits is itself slow, or refused
        raise LimitError(f"{what} is a number of {digits:,} digits, over the limit of "
                         f"{limit('width'):,}")
    check("width", columns, what)
    return columns
