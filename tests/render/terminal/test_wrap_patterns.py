"""The pieces a terminal line breaks between, and the spaces glued to what follows them, found
without compiling Python patterns over the ranges of Chinese (milliseconds each): the same, on
random text, as those patterns find."""

import random
import re

from handformer.render.common import breaks
from handformer.render.terminal import pieces

# Everything that makes the cases differ: spaces of several kinds (no-break, ideographic, tab,
# newline), the openers “ ‘ （ 《, closing marks, full-width letters and digits, Hanzi, the
# counting words 第 共, digits (also Arabic-Indic ones), "=", Latin letters, maths.
ALPHABET = ["a", "Z", "7", "٣", " ", "  ", "\u00a0", "\u3000", "\t", "\n", "“", "‘", "”", "’",
            "（", "《", "）", "，", "。", "Ａ", "１", "中", "文", "第", "共", "=", "(", ".", ",",
            "→", "ᵀ", "√", "…", "é", "\u2028", "-", "\U0001f600", "\uffff", "ln", "exp", "p"]
# The references: the patterns the text was cut and glued with before.
CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]|(?:[^\s\u3000-\u9fff\uff00-\uffef“‘（《「『【]|"
                 r"\u00a0)+|[“‘（《「『【]|[^\S\u00a0]+")
GLUED = re.compile(r"(?<=\d) (?=[\u3400-\u9fff])|(?<=[第共约近])\s(?=\d)|(?<==) (?=\S)")
BEFORE_EQUALS = re.compile(r"(?<![^\s(])[^\s(]{1,3}( )(?==)")  # "p = …": a short symbol's "="
FUNCTION = re.compile(r"(?<![^\W\d_])(?:ln|log|exp)( )(?=\d)")  # "ln 25", no letter before


def glued(text: str) -> str:
    at = {m.start() for m in GLUED.finditer(text)}
    at |= {m.start(1) for pattern in (BEFORE_EQUALS, FUNCTION) for m in pattern.finditer(text)}
    return "".join(breaks.NBSP if i in at else c for i, c in enumerate(text))


def texts(count=4000, seed=24):
    rng = random.Random(seed)
    return ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 16)))
            for _ in range(count)]


def test_pieces_are_the_patterns_pieces():
    for text in [*texts(), "i 从 0 到 5", "（注）", "\u3000 \u3000x", "a，b"]:
        assert pieces.pieces(text) == CJK.findall(text), repr(text)
        assert pieces.pieces_at(text) == [(m.start(), m.group()) for m in CJK.finditer(text)]


def test_the_latin_pattern_alone_cuts_text_below_u3000():
    below = [t for t in texts() if max(t, default="") < "\u3000"]
    assert len(below) > 100
    for text in below:
        assert pieces.LATIN.findall(text) == CJK.findall(text), repr(text)


def test_glue_is_the_patterns_glue():
    for text in [*texts(), "L = 3.385", "第 1 层", "共 25 个词元 = 3", "约\u30003",
                 "p = 0.130 是 ln 25", "(ab = 1) −ln 2 loge 2"]:
        assert breaks.glue(text) == glued(text), repr(text)


def test_text_whose_only_white_space_is_spaces_is_cut_as_the_pattern_cuts_it():
    """pieces' shortcut (a split on runs of spaces and the openers “ ‘) on the text it takes:
    below U+3000, no white space but spaces and no-break spaces."""
    taken = [t for t in texts(8000, seed=5)
             if max(t, default="") < "\u3000" and t.replace("\u00a0", "a").isprintable()]
    assert len(taken) > 300
    for text in [*taken, " lead", "trail  ", "“‘quoted”", "x\u00a0=\u00a0y  z", "“a  b\u00a0c ‘d"]:
        assert pieces.pieces(text) == CJK.findall(text), repr(text)


def test_reaches_is_a_comparison_with_the_largest_character():
    """lexicon.reaches(text, high), read from UTF-16 high bytes, against max(text) itself:
    characters on each side of U+3000 and U+3400, beyond the BMP, lone surrogates."""
    from handformer.render.common.lexicon import holds_hanzi, reaches

    edges = ["a", "é", "→", "\u2fff", "\u3000", "\u33ff", "\u3400", "中", "\ud800", "\udfff",
             "\ue000", "\uffff", "\U00010000", "\U0001f600", "\U0010ffff"]
    rng = random.Random(7)
    for text in ["", *edges, *("".join(rng.choices(edges, k=rng.randint(1, 5)))
                               for _ in range(3000))]:
        assert reaches(text, 0x30) == (max(text, default="") >= "\u3000"), repr(text)
        assert holds_hanzi(text) == (max(text, default="") >= "\u3400"), repr(text)
