"""Where a line may break between two Chinese characters: where no word of ours spans the gap.

A break between two Hanzi is forbidden when any occurrence of any word of the lexicon
(``lexicon.words``: jieba's words of our own Chinese text) covers it. Every match counts,
overlapping ones too, not one segmentation of the text, so no word jieba found there is ever
split; a gap no word covers may break (one character words, and text the lexicon does not
know, such as a user's sentence filled into a placeholder, break between any two Hanzi).
Punctuation is the line breaker's business (``wrap`` for the terminal, CSS for the page).
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise

from .lexicon import high_bytes, holds_hanzi, is_hanzi, words


def hanzi_pairs(text: str) -> list[int]:
    """Offsets i with a Hanzi on either side (text[i - 1] and text[i])."""
    return [start + k for start, run in hanzi_runs(text) for k in range(1, len(run))]


def hanzi_runs(text: str) -> list[tuple[int, str]]:
    """Each run of two or more Hanzi side by side: where it starts, and its text."""
    if not holds_hanzi(text):
        return []
    return [(m.start(), text[m.start():m.end()]) for m in _RUN.finditer(hanzi_marks(text))]


def hanzi_marks(text: str) -> bytes:
    """One byte per character of ``text``: 1 for a Hanzi (lexicon.is_hanzi), 0 for any other.
    Told by the high byte of each UTF-16 code unit, in C loops (``str.translate`` looks each
    character up one by one, ~20 times slower over a page's Chinese text). Row 4D holds Hanzi
    (to U+4DBF) and the Yijing hexagrams, and a character beyond the BMP takes two units (or a
    lone surrogate one): text with either is marked character by character."""
    marks = high_bytes(text).translate(_MARK_OF_HIGH_BYTE)
    if _UNSURE in marks:
        return bytes(map(is_hanzi, text))
    return marks


# Each high byte's mark: 1 where every character of that row of 256 is a Hanzi (U+3400-U+4CFF,
# U+4E00-U+9FFF, U+F900-U+FAFF), 2 where the row alone cannot tell (row 4D, surrogates), else 0.
_UNSURE = 2
_MARK_OF_HIGH_BYTE = bytes(1 if 0x34 <= b <= 0x4C or 0x4E <= b <= 0x9F or 0xF9 <= b <= 0xFA
                           else _UNSURE if b == 0x4D or 0xD8 <= b <= 0xDF else 0
                           for b in range(256))
_RUN = re.compile(b"\1{2,}")


def hanzi_breaks(text: str) -> list[int]:
    """Offsets i between two Hanzi where a line may break: those that no word of the lexicon
    spans. Every word is all Hanzi, so a word lies inside one run of Hanzi: only the runs are
    scanned. The lexicon is read only when the text holds two Hanzi side by side."""
    return [start + k for start, run in hanzi_runs(text) for k in _run_breaks(run)]


@lru_cache(maxsize=4096)  # runs come back ("注意力", "的值"): a page scans a third fewer
def _run_breaks(run: str) -> tuple[int, ...]:
    """The offsets inside a run of Hanzi that no word of the lexicon spans."""
    covered = _covered(run)
    return tuple(k for k in range(1, len(run)) if k not in covered)


def _covered(text: str) -> set[int]:
    """The offsets strictly inside some occurrence of some lexicon word."""
    lengths, known = _lengths_by_first_two(), words()
    inside: set[int] = set()
    for start in range(len(text) - 1):
        for n in lengths.get(text[start:start + 2], ()):
            if text[start:start + n] in known:
                inside.update(range(start + 1, start + n))
    return inside


@lru_cache(maxsize=1)
def _lengths_by_first_two() -> dict[str, tuple[int, ...]]:
    """For each pair of first characters, the lengths of the lexicon words it begins (every
    word has two or more), so a scan looks up only words that could start there."""
    by_first: dict[str, set[int]] = {}
    for word in words():
        by_first.setdefault(word[:2], set()).add(len(word))
    return {pair: tuple(sorted(ns)) for pair, ns in by_first.items()}


def pieces(text: str) -> list[str]:
    """The text cut at every allowed Hanzi break: the pieces a line breaker may not split
    between two Hanzi (it still splits them elsewhere, at spaces or punctuation)."""
    cuts = [0, *hanzi_breaks(text), len(text)]
    return [text[a:b] for a, b in pairwise(cuts) if b > a]


# Spaces a line must not break at: right after "=" (an equation is not cut at its sign), before
# "=" after a short symbol ("p = 0.130": a line does not end with a lone "p"), after ln, log or
# exp before their number ("ln 25"), and in Chinese between a number and the measure word or
# unit after it ("25 个词元", "第 1 层"). Text with Hanzi has its spaces checked one by one
# (``_glued_at``): a pattern over the range of Hanzi costs ~1 ms to compile. The patterns an
# English paragraph seldom needs are compiled by ``re`` when first used.
_AFTER_EQUALS = re.compile(r"(?<==) (?=\S)")
_BEFORE_EQUALS = re.compile(r"(?<![^\s(])([^\s(]{1,3}) (?==)")
_FUNCTION_ARGUMENT = r"(?<![^\W\d_])(ln|log|exp) (?=\d)"  # no letter before
_SPACE = r"\s"
_COUNTING = frozenset("第共约近")  # ordinal, "in all", "about", "nearly": a number follows
_FUNCTIONS = ("ln", "log", "exp")
SHORT_SYMBOL = 3  # characters at most of a symbol kept with the "=" after it
NBSP = "\u00a0"


def glue(text: str) -> str:
    """The text with a no-break space wherever a line must not break at a space."""
    if not holds_hanzi(text):  # then only the symbol cases can apply
        if "=" in text:
            text = _BEFORE_EQUALS.sub("\\1" + NBSP, _AFTER_EQUALS.sub(NBSP, text))
        if any(f + " " in text for f in _FUNCTIONS):  # the pattern needs one of these
            text = re.sub(_FUNCTION_ARGUMENT, "\\1" + NBSP, text)
        return text
    glued = [m.start() for m in re.finditer(_SPACE, text) if _glued_at(text, m.start())]
    for i in glued:
        text = text[:i] + NBSP + text[i + 1:]
    return text


def _glued_at(text: str, i: int) -> bool:
    """Whether the white space at ``text[i]`` must not break (\\d is str.isdecimal, \\s
    str.isspace: the same Unicode tables)."""
    before = text[i - 1] if i else ""
    after = text[i + 1:i + 2]
    if text[i] == " " and before.isdecimal() and "\u3400" <= after <= "\u9fff":
        return True
    if before in _COUNTING and after.isdecimal():
        return True
    if text[i] != " " or after == "" or after.isspace():
        return False
    return before == "=" or (after == "=" and 0 < len(_word_before(text, i)) <= SHORT_SYMBOL) \
        or (after.isdecimal() and text.endswith(_FUNCTIONS, 0, i)  # before the walk back over
            and _names_a_function(_word_before(text, i)))  # the word: a whole Chinese clause


def _names_a_function(word: str) -> bool:
    """"ln", "−ln", "(log": a word ending in a function's name, no letter before it."""
    return any(word.endswith(f) and not word[:-len(f)][-1:].isalpha() for f in _FUNCTIONS)


def _word_before(text: str, i: int) -> str:
    """The characters between the white space at ``i`` and the white space (or "(") before."""
    start = i
    while start > 0 and not text[start - 1].isspace() and text[start - 1] != "(":
        start -= 1
    return text[start:i]
