"""The nested table of contents: phase → stack → layer → sub-layer → head (Section.place), each
entry the part of its title that tells it apart from its neighbours."""

from __future__ import annotations

import re
from functools import lru_cache

from ...records import Record

# The page's phases (forward, loss, backward, …) and their names in the i18n tables
PHASE_KEYS = {"text": "page.phase.text", "forward": "page.phase.forward",
              "loss": "page.phase.loss", "backward": "page.phase.backward",
              "update": "page.phase.update", "decode": "page.phase.decode",
              "recap": "page.phase.recap"}


SEPARATORS = " :：·,，-—"
COLONS = (":", "：", "·", ",", "，")  # what ends a title's leading group name
ORDINAL = re.compile(r"\s*\d+$")  # a group's number among its siblings, not in the titles


class Node(Record):
    """A group (label by language, its children; ``key``: the phase's i18n key, for a phase
    group) or an entry (its panel, and ``short``: its distinguishing title)."""

    FIELDS = ("label", "key", "panel", "short", "children")

    def __init__(self, label: dict[str, str] | None = None, key: str = "",
                 panel: dict | None = None, short: dict[str, str] | None = None,
                 children: list[Node] | None = None):
        self.label = {} if label is None else label
        self.key, self.panel = key, panel
        self.short = {} if short is None else short
        self.children = [] if children is None else children


def toc_tree(panels: list[dict], langs: list[str]) -> list[Node]:
    """Groups in reading order; a new group opens wherever a panel's path leaves the last one."""
    root, open_path, stack = Node(), [], []
    for p in panels:
        path = [("phase", p["phase"])] + [("place", part) for part in _place(p, langs[0])]
        depth = _common(open_path, path)
        stack, open_path = stack[:depth], open_path[:depth]
        for k in range(depth, len(path)):
            node = _group(p, path[k], k - 1, langs)
            (stack[-1] if stack else root).children.append(node)
            stack.append(node)
            open_path.append(path[k])
        entry = Node(panel=p, short={code: _short(p, code) for code in langs})
        (stack[-1] if stack else root).children.append(entry)
    return root.children


def _place(p: dict, lang: str) -> tuple[str, ...] | list[str]:
    return p.get("place", {}).get(lang) or ()


def _common(a: list, b: list) -> int:
    n, shorter = 0, min(len(a), len(b))
    while n < shorter and a[n] == b[n]:
        n += 1
    return n


def _group(p: dict, part: tuple[str, str], k: int, langs: list[str]) -> Node:
    kind, value = part
    if kind == "phase":
        return Node(key=PHASE_KEYS.get(value, ""), label={code: value for code in langs})
    return Node(label={code: (_place(p, code) or [value] * (k + 1))[k] for code in langs})


def _short(p: dict, lang: str) -> str:
    """The title without what its groups already say ("Layer 1: self-attention, head 1" under
    Layer 1 reads "self-attention, head 1"; "Add & norm: layer normalization" under "Add & norm
    2", the layer's second, reads "layer normalization")."""
    title = p["title"][lang]
    for group in _place(p, lang):
        for length, label in _names(group):  # the colon first: it rules out most titles
            if title[length:length + 1] in COLONS and title[:length].lower() == label:
                title = title[length:].lstrip(SEPARATORS) or title
    return title[:1].upper() + title[1:]  # an entry starts like a title, whatever was cut


@lru_cache(maxsize=1024)  # the same groups head many entries ("Layer 1", "Add & norm 2")
def _names(group: str) -> tuple[tuple[int, str], ...]:
    """What a group may be called at the head of a title: its label, and its label without
    its number; each with its length and in lower case (titles are compared in lower case)."""
    return tuple((len(label), label.lower())
                 for label in dict.fromkeys((group, ORDINAL.sub("", group))) if label)
