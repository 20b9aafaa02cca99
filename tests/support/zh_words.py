"""jieba as the judge of Chinese line breaks: where a break cuts a word, by jieba's segmentation
of the whole paragraph (the independent source; handformer itself never imports jieba)."""

from __future__ import annotations

import logging
import re
from functools import cache
from itertools import pairwise

HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


@cache
def inside_words(paragraph: str) -> frozenset[int]:
    """Offsets strictly inside a word of jieba's segmentation of ``paragraph``."""
    import jieba

    jieba.setLogLevel(logging.WARNING)
    inside, at = set(), 0
    for word in jieba.cut(paragraph):
        inside.update(range(at + 1, at + len(word)))
        at += len(word)
    return frozenset(inside)


def split_words(paragraph: str, breaks: list[int]) -> list[str]:
    """The breaks (offsets into ``paragraph``) that jieba says cut a word, shown as "春⏎天"."""
    return [f"{paragraph[max(0, b - 4):b]}⏎{paragraph[b:b + 4]}" for b in breaks
            if b in inside_words(paragraph)]


def terminal_text(line: str) -> str:
    """A terminal line's text: without the indent and an erratum box's borders."""
    return line.strip().strip("│").strip()


def hanzi_line_breaks(output: str, paragraphs: list[str]) -> list[tuple[str, int]]:
    """Every place where a line of ``output`` ending in a Hanzi is followed by one beginning
    with a Hanzi, as (paragraph, offset) in each paragraph that holds the two lines joined (a
    pair held by none straddles two paragraphs, so it is no break inside one)."""
    lines = [terminal_text(line) for line in output.splitlines()]
    found = []
    for a, b in pairwise(lines):
        if a and b and HAN.match(a[-1]) and HAN.match(b[0]):
            found += [(p, m.start() + len(a)) for p in paragraphs
                      for m in re.finditer(re.escape(a + b), p)]
    return found
