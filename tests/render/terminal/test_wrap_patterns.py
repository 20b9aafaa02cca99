"""The cheap patterns English text is cut with (they compile in well under a millisecond) cut
it exactly as the CJK patterns would (their ranges of Chinese cost milliseconds to compile)."""

import random
import re

from handformer.render.common import breaks
from handformer.render.terminal import wrap

# Everything that can make the two patterns differ below U+3000: spaces of several kinds
# (no-break, tab, newline), the openers “ ‘, closing marks, "=", digits, letters, maths.
ALPHABET = ["a", "Z", "7", " ", "  ", "\u00a0", "\t", "\n", "“", "‘", "”", "’", "=", "(", ".",
            ",", "→", "ᵀ", "√", "…", "é", "\u2028", "-"]
# The reference: the one pattern both kinds of text were cut with before.
CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]|(?:[^\s\u3000-\u9fff\uff00-\uffef“‘（《「『【]|"
                 r"\u00a0)+|[“‘（《「『【]|[^\S\u00a0]+")
GLUED = re.compile(r"(?<=\d) (?=[\u3400-\u9fff])|(?<=[第共约近])\s(?=\d)|(?<==) (?=\S)")


def texts(count=3000, seed=24):
    rng = random.Random(seed)
    return ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 14)))
            for _ in range(count)]


def test_text_below_u3000_is_cut_into_the_same_pieces():
    for text in texts():
        assert wrap._token_pattern(text).findall(text) == CJK.findall(text), repr(text)


def test_text_with_chinese_or_full_width_forms_takes_the_cjk_pattern():
    for text in ["i 从 0 到 5", "（注）", "\u3000x", "a，b"]:
        assert wrap._token_pattern(text).findall(text) == CJK.findall(text)


def test_glue_without_hanzi_is_the_chinese_glue():
    for text in [*texts(), "L = 3.385", "第 1 层", "共 25 个词元 = 3"]:
        assert breaks.glue(text) == GLUED.sub(breaks.NBSP, text), repr(text)
