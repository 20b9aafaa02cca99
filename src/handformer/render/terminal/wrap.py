"""Lines of a paragraph for the terminal, in English and in Chinese.

English breaks at spaces. Chinese has no spaces: a line may break between two Hanzi only where
no word of our Chinese text spans the gap (``breaks.hanzi_breaks``), and by the rules of Chinese
typesetting no line starts with closing punctuation (，。）” …) and none ends with opening
punctuation (（“ …). A break is sought first where it cannot cut a word even by chance (after
punctuation, at a space, where Chinese meets Latin letters or numbers), looking back at most a
third of the line for one, so the lines stay full. A run of Hanzi with no allowed break that is
wider than a whole line (overlapping words chained together) is cut between characters where
the line is full, as the only way to keep within the width.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate
from operator import add

from ..common import breaks
from ..common.breaks import NBSP, glue
from ..common.lexicon import holds_hanzi, is_hanzi
from .ansi import cells, one_cell_each
from .pieces import is_cjk as _cjk
from .pieces import pieces, pieces_at

NO_LINE_START = set("，。、：；！？）》」』】”’%…·,.;:!?)")
NO_LINE_END = set("（《「『【“‘(")
_SOFT_AFTER = set("，。、：；！？）》」』】”’")


def wrap(paragraph: str, width: int) -> list[str]:
    """The paragraph's lines, each at most ``width`` cells (a single longer word excepted); a
    Chinese number stays with its measure word, an equation's "=" with what follows it
    (``breaks.glue``). A paragraph that fits is its one line, as the breaking would leave it
    (most do: labels, short sentences)."""
    if cells(paragraph.rstrip()) <= width:
        return [paragraph.rstrip().replace(NBSP, " ")]
    return [line.replace(NBSP, " ") for line in _wrap(glue(paragraph), width)]


def _wrap(paragraph: str, width: int) -> list[str]:
    """Fill each line with the tokens that fit, then break at the best place (``_break_at``).
    The line is the run ``tokens[start:end]``; the tokens that fit are found by bisection on
    ``reach`` (the cells up to each token's last visible cell, which never decreases), so the
    Python work is per line, not per word."""
    tokens = _tokens(paragraph, width)
    measure = len if one_cell_each(paragraph) else cells
    before = [0, *accumulate(map(measure, tokens))]  # cells of all the tokens before token k
    reach = list(map(add, before, map(measure, map(str.rstrip, tokens))))
    lines, start, end, n = [], 0, 0, len(tokens)
    while end < n:
        if not _holds_word(tokens, start, end):  # a line of spaces takes the next token
            end += 1
            continue
        end = bisect_right(reach, before[start] + width, end, n)  # tokens[end] would overflow
        if end == n:
            break
        cut = start + _break_at(tokens[start:end + 1], end - start, width)
        lines.append("".join(tokens[start:cut]).rstrip())
        start, end = cut, end + 1
        while start < end and not tokens[start].strip():
            start += 1
    lines.append("".join(tokens[start:end]).rstrip())
    return lines


def _holds_word(tokens: list[str], start: int, end: int) -> bool:
    """Whether ``tokens[start:end]`` hold more than white space (joined: one scan in C)."""
    text = "".join(tokens[start:end])
    return bool(text) and not text.isspace()


def _tokens(paragraph: str, width: int) -> list[str]:
    """The paragraph in the pieces a line may break between: a Hanzi run that no allowed break
    cuts is one piece (characters again when it is wider than ``width``)."""
    if not holds_hanzi(paragraph):  # most paragraphs: nothing to join, no word list loaded
        return pieces(paragraph)
    return _glued(_hanzi_tokens(paragraph, width))


def _glued(tokens: list[str]) -> list[str]:
    """Tokens joined across a no-break space (breaks.glue put it where no break may be)."""
    out: list[str] = []
    for token in tokens:
        if out and (out[-1].endswith("\u00a0") or token.startswith("\u00a0")):
            out[-1] += token
        else:
            out.append(token)
    return out


def _hanzi_tokens(paragraph: str, width: int) -> list[str]:
    allowed, out = set(breaks.hanzi_breaks(paragraph)), []
    for start, token in pieces_at(paragraph):
        if out and is_hanzi(token[0]) and is_hanzi(out[-1][-1]) and start not in allowed:
            out[-1] += token
        else:
            out.append(token)
    return [part for token in out
            for part in (token if _too_wide(token, width) else [token])]


def _too_wide(token: str, width: int) -> bool:
    """A run of Hanzi wider than a whole line (at most 2 cells a character: most are not)."""
    return 2 * len(token) > width and is_hanzi(token[0]) and cells(token) > width


def _break_at(tokens: list[str], at: int, width: int) -> int:
    """Where to break before ``tokens[at]``: the nearest allowed place that cannot cut a word,
    looking back at most a third of the width, else the nearest allowed place however far back
    (a short line rather than a broken rule)."""
    budget, moved, nearest = max(2, width // 3), 0, None
    for k in range(at, 0, -1):
        if _allowed(tokens[k - 1], tokens[k]):
            if moved <= budget and _soft(tokens[k - 1], tokens[k]):
                return k
            nearest = nearest or k
            if moved > budget:
                break
        moved += cells(tokens[k - 1])
    return nearest or at


def _allowed(before: str, after: str) -> bool:
    if not after.strip():
        return before.rstrip()[-1:] not in NO_LINE_END
    return after[0] not in NO_LINE_START and before.rstrip()[-1:] not in NO_LINE_END


def _soft(before: str, after: str) -> bool:
    if not before.strip() or not after.strip():
        return True
    return before[-1] in _SOFT_AFTER or _cjk(before[-1]) != _cjk(after[0])
