r"""The pieces a terminal line may break between: a Chinese character or full-width form alone,
a run of other non-space characters (no-break spaces included), an opening quote, a run of
spaces.

As a regular expression these are

    [\u3000-\u9fff\uff00-\uffef]|(?:[^\s\u3000-\u9fff\uff00-\uffef“‘（《「『【]|\u00a0)+
    |[“‘（《「『【]|[^\S\u00a0]+

but Python's ``re`` takes ~5 ms to compile those ranges of Chinese (a twentieth of a whole
walk), and an English walk has only one paragraph that needs them. So text is cut by the
pattern that is left without them (``LATIN``: exactly those pieces in text below U+3000, where
the only openers are “ and ‘), and a piece holding a CJK character is cut again here, by code
point, as the pattern above would cut it (tests/render/terminal/test_wrap_patterns.py compares
them on random text).
"""

from __future__ import annotations

import re

from ..common.lexicon import reaches

LATIN = re.compile(r"[“‘]|(?:[^\s“‘]|\u00a0)+|[^\S\u00a0]+")
# The same pieces in text whose only white space is spaces and no-break spaces (every other
# white space character is unprintable): the text between these, and these.
SPACES_AND_QUOTES = re.compile(r"( +|[“‘])")
NBSP = "\u00a0"
IDEOGRAPHIC_SPACE = "\u3000"


def is_cjk(char: str) -> bool:
    """A Chinese character, CJK punctuation or a full-width form: a piece of its own."""
    return "\u3000" <= char <= "\u9fff" or "\uff00" <= char <= "\uffef"


def pieces(text: str) -> list[str]:
    """The text's pieces, in order."""
    if not reaches(text, 0x30):  # nothing from U+3000 up
        if text.replace(NBSP, "a").isprintable():  # no white space but spaces and NBSP
            return _between_spaces_and_quotes(text)
        return LATIN.findall(text)
    return [piece for _, piece in pieces_at(text)]


def _between_spaces_and_quotes(text: str) -> list[str]:
    """``SPACES_AND_QUOTES``' pieces of a printable text (half LATIN's cost): where no two
    spaces meet (most paragraphs), by a split at a mark put around each space and quote (NUL,
    which no printable text holds), a few scans in C instead of a pattern tried at every
    character."""
    if "  " in text:  # a run of spaces is one piece
        return list(filter(None, SPACES_AND_QUOTES.split(text)))
    marked = text.replace(" ", "\0 \0").replace("“", "\0“\0").replace("‘", "\0‘\0")
    return list(filter(None, marked.split("\0")))


def pieces_at(text: str) -> list[tuple[int, str]]:
    """The text's pieces, each with the offset where it starts."""
    out: list[tuple[int, str]] = []
    for match in LATIN.finditer(text):
        piece, at = match.group(), match.start()
        if not reaches(piece, 0x30):
            out.append((at, piece))
        elif piece[0].isspace() and piece[0] != "\u00a0":
            out += _spaces(piece, at)
        else:
            out += _run(piece, at)
    return out


def _spaces(piece: str, at: int) -> list[tuple[int, str]]:
    """A run of spaces: an ideographic space that starts it is a piece alone (the pattern
    tries a CJK character first), the rest one piece."""
    k = len(piece) - len(piece.lstrip(IDEOGRAPHIC_SPACE))
    rest = [(at + k, piece[k:])] if k < len(piece) else []
    return [(at + i, IDEOGRAPHIC_SPACE) for i in range(k)] + rest


def _run(piece: str, at: int) -> list[tuple[int, str]]:
    """A run of non-space characters: each CJK character alone, the others between them
    together."""
    out, start = [], 0
    for k, char in enumerate(piece):
        if is_cjk(char):
            if k > start:
                out.append((at + start, piece[start:k]))
            out.append((at + k, char))
            start = k + 1
    if start < len(piece):
        out.append((at + start, piece[start:]))
    return out
