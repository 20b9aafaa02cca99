"""The Chinese words of handformer's own text, so that a line never breaks inside one.

Chinese has no spaces; where one word ends only a segmenter knows. jieba knows, but costs about a
second to start, far too slow for every walk and page, so its answer for our own text is made
once and shipped as data: ``i18n/zh_words.txt``, every word of two or more characters, all
Hanzi (so a word lies inside one run of Hanzi), that jieba finds in the sentences of the i18n
tables. Regenerate it after editing a table (needs ``pip install jieba``, part of the ``corpus``
and ``dev`` extras):

    python -m handformer.render.common.lexicon

The walk reads the file (``words``) only when a text holds two Hanzi side by side; jieba is
never imported at run time.
"""

from __future__ import annotations

import os
import sys
from functools import lru_cache

# i18n/zh_words.txt: a plain path, so that importing this module never loads pathlib
LEXICON = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__)))), "i18n", "zh_words.txt")
HEADER = "# Chinese words of the i18n tables, found by jieba: python -m handformer.render.common.lexicon\n"


def is_hanzi(char: str) -> bool:
    """A Chinese character (CJK unified ideographs, extension A, compatibility ideographs),
    told by comparing code points: a regex of these ranges costs more to compile than all the
    wrapping of a walk."""
    return ("\u4e00" <= char <= "\u9fff" or "\u3400" <= char <= "\u4dbf"
            or "\uf900" <= char <= "\ufaff")  # per character: kept cheap


def holds_hanzi(text: str) -> bool:
    """Whether ``text`` may hold a Hanzi (a character from U+3400 up): false for nearly every
    English paragraph, so those skip the per-character work."""
    return reaches(text, 0x34)


def reaches(text: str, high: int) -> bool:
    """Whether a character of ``text`` is at U+XX00 or above, XX = ``high``: the high bytes of
    its UTF-16 code units, those below ``high`` deleted, in three C loops (``max(text)``
    compares character objects one by one, ten times slower; a regex of that range takes ~10
    ms to compile). A character beyond the BMP, or a lone surrogate, is a surrogate unit,
    high byte D8 to DF: above every ``high`` asked here, as it is above them in ``max``."""
    if text.isascii():
        return False
    return bool(high_bytes(text).translate(None, _BYTES_BELOW[high]))


def high_bytes(text: str) -> bytes:
    """The high byte of each UTF-16 code unit of ``text``, in two C loops: one byte per
    character of the BMP; a character beyond it takes two units (high bytes D8 to DF), as
    does a lone surrogate one."""
    return text.encode("utf-16", "surrogatepass")[_FIRST_HIGH_BYTE::2]


# "utf-16" rather than "utf-16-le": Python encodes it without looking the codec up (a third of
# the cost for a line), in the machine's byte order after a byte order mark, so the first
# unit's high byte is the mark's two bytes on, and one further on a little-endian machine.
_FIRST_HIGH_BYTE = 3 if sys.byteorder == "little" else 2


class _Below(dict):
    def __missing__(self, high: int) -> bytes:
        self[high] = bytes(range(high))
        return self[high]


_BYTES_BELOW = _Below()


@lru_cache(maxsize=1)
def words() -> frozenset[str]:
    """The shipped words (read once)."""
    with open(LEXICON, encoding="utf-8") as f:
        lines = f.read().splitlines()
    return frozenset(line for line in lines if line and not line.startswith("#"))


def literal_pieces() -> list[str]:
    """Every piece of text the tables ship, cut at their {placeholders} (a number or a token
    goes there, so no word of ours spans one)."""
    import string

    from ... import i18n

    return [literal for code in i18n.languages() for sentence in i18n.table(code).values()
            for literal, _, _, _ in string.Formatter().parse(sentence) if literal]


# The Chinese text's own terms, which jieba would cut in two (原|教程): the seed tutorial,
# this walkthrough, the tape. A line never breaks inside them.
TERMS = ("原教程", "本讲解", "运算记录")


def segment(pieces: list[str]) -> list[str]:
    """The lexicon of ``pieces``: jieba's words of two or more characters, all Hanzi, sorted,
    each once; ``TERMS`` are words to it."""
    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)
    for term in TERMS:
        jieba.add_word(term)
    found = {w for piece in pieces for w in jieba.cut(piece) if len(w) >= 2 and all(map(is_hanzi, w))}
    return sorted(found)


def generated() -> str:
    """The lexicon file's text, made now from the tables."""
    return HEADER + "".join(word + "\n" for word in segment(literal_pieces()))


def main() -> None:
    from ...files.io import atomic_write

    text = generated()
    atomic_write(LEXICON, text)  # whole or not at all, as every file handformer writes
    print(f"{LEXICON}: {text.count(chr(10)) - 1} words", file=sys.stderr)


if __name__ == "__main__":
    main()
