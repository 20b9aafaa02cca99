"""A family's own question kinds (``Family.exercises``): questions on the operations only its
folder registers (BERT's GELU), each placed in the lesson after a kind it follows.

The worksheet (sheet.py) and the page's check (render/html/check.py) list the shared kinds;
``placed`` adds every registered family's own after the kind each names, so a family's kind
is a registration in its folder, not a line here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable


class Kind:
    """One family's question kind: ``ask(tape, rng)`` → a Question or None (no such step on
    this tape); ``after``: the kind it follows in the lesson (and in each level it is in;
    ``levels``: easy, medium, hard); ``part``: the part of the walk whose check on the page may
    ask it (check.PARTS: "ffn", …), or None."""

    __slots__ = ("name", "ask", "after", "levels", "part")

    def __init__(self, name: str, ask: Callable, after: str, levels: tuple[str, ...] = (),
                 part: str | None = None):
        self.name, self.ask, self.after = name, ask, after
        self.levels, self.part = tuple(levels), part


def family_kinds() -> list[Kind]:
    """Every family's own kinds (the built-in families loaded, and any registered since)."""
    from ..families import registry

    registry.load_all()
    return [kind for family in registry.FAMILIES.values() for kind in family.exercises]


def placed(names: Iterable[str], kinds: Iterable[Kind]) -> list[str]:
    """``names`` with each kind's name added after the kind it follows (at the end when that
    one is not among them), each once."""
    out = list(names)
    for kind in kinds:
        if kind.name not in out:
            out.insert(out.index(kind.after) + 1 if kind.after in out else len(out), kind.name)
    return out
