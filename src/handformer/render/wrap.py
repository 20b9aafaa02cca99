"""Lines of a paragraph for the terminal, in English and in Chinese.

English breaks at spaces. Chinese has no spaces: a line may break between two characters, but
by the rules of Chinese typesetting no line starts with closing punctuation (，。）” …) and
none ends with opening punctuation (（“ …); and a break is sought first where one cannot cut a
word (after punctuation, at a space, where Chinese meets Latin letters or numbers), looking back
at most a third of the line for one, so the lines stay full.
"""

from __future__ import annotations

import re

from .ansi import cells

_TOKENS = re.compile(r"[\u3000-\u9fff\uff00-\uffef]|[^\s\u3000-\u9fff\uff00-\uffef“‘（《「『【]+"
                     r"|[“‘（《「『【]|\s+")
NO_LINE_START = set("，。、：；！？）》」』】”’%…·,.;:!?)")
NO_LINE_END = set("（《「『【“‘(")
_SOFT_AFTER = set("，。、：；！？）》」』】”’")


def _cjk(char: str) -> bool:
    return "\u3000" <= char <= "\u9fff" or "\uff00" <= char <= "\uffef"


def wrap(paragraph: str, width: int) -> list[str]:
    """The paragraph's lines, each at most ``width`` cells (a single longer word excepted)."""
    lines, line, used = [], [], 0  # used: cells of "".join(line)
    for token in _TOKENS.findall(paragraph):
        if used + cells(token.rstrip()) <= width or not any(t.strip() for t in line):
            line.append(token)
            used += cells(token)
            continue
        cut = _break_at([*line, token], len(line), width)
        lines.append("".join(line[:cut]).rstrip())
        line = [*line[cut:], token]
        while line and not line[0].strip():
            line.pop(0)
        used = sum(cells(t) for t in line)
    lines.append("".join(line).rstrip())
    return lines


def _break_at(tokens: list[str], at: int, width: int) -> int:
    """Where to break before ``tokens[at]``: the nearest allowed place that cannot cut a word,
    else the nearest allowed place, looking back at most a third of the width."""
    budget, moved, first_allowed = max(2, width // 3), 0, None
    k = at
    while k >= 1 and moved <= budget:
        if _allowed(tokens[k - 1], tokens[k]):
            if _soft(tokens[k - 1], tokens[k]):
                return k
            first_allowed = first_allowed or k
        moved += cells(tokens[k - 1])
        k -= 1
    return first_allowed or at


def _allowed(before: str, after: str) -> bool:
    if not after.strip():
        return before.rstrip()[-1:] not in NO_LINE_END
    return after[0] not in NO_LINE_START and before.rstrip()[-1:] not in NO_LINE_END


def _soft(before: str, after: str) -> bool:
    if not before.strip() or not after.strip():
        return True
    return before[-1] in _SOFT_AFTER or _cjk(before[-1]) != _cjk(after[0])
