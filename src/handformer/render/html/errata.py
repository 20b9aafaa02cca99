"""Errata of the seed tutorial on the page: a one-line disclosure in the step that opens to the
text and, where the numbers differ visibly, the tutorial's matrix beside ours on one scale."""

from __future__ import annotations

from ... import layout
from ...narrate.document import Callout, Matrix, Section
from ..common import grids


def same_errata(s: Section, base: Section) -> list[Callout]:
    return s.callouts if len(s.callouts) == len(base.callouts) else base.callouts


def told(sections: dict[str, Section], base: Section, k: int) -> dict[str, tuple[str, str]]:
    """Erratum k in every language as (summary, text); a language whose section has other
    errata tells it in the first language's words."""
    return {code: (same_errata(s, base)[k].summary, same_errata(s, base)[k].text)
            for code, s in sections.items()}


def ours_for(c: Callout, matrices: list[Matrix]) -> Matrix | None:
    """Our matrix that the tutorial's stands beside: the last of the drawing with its shape."""
    if c.tutorial is None:
        return None
    same = [m for m in matrices if m.shape == c.tutorial.shape]
    return same[-1] if same else None


def pairs(callouts: list[Callout], matrices: list[Matrix]) -> list[tuple[Matrix, Matrix]]:
    """(tutorial, ours) of every erratum that has both: they share one colour scale."""
    found = [(c.tutorial, ours_for(c, matrices)) for c in callouts]
    return [(t, o) for t, o in found if t is not None and o is not None]


def differ_visibly(a: Matrix, b: Matrix, precision: int) -> bool:
    """Whether two matrices differ in any number as the page writes them."""
    if a.shape != b.shape:
        return True
    va, vb = grids.as_2d(a.value), grids.as_2d(b.value)
    return layout.number_rows(va, precision) != layout.number_rows(vb, precision)


def callout_view(c: Callout, text: dict[str, tuple[str, str]], precision: int, draw,
                 matrices: list[Matrix]) -> dict:
    """One erratum: its summary and text by language; the tutorial's matrix and ours (drawn by
    ``draw``) only when they differ visibly, the tutorial's alone when ours is not drawn."""
    ours = ours_for(c, matrices)
    show = c.tutorial is not None and (ours is None or differ_visibly(c.tutorial, ours, precision))
    return {"code": c.code,
            "summary": {code: s.lstrip("⚠").strip() for code, (s, _) in text.items()},
            "text": {code: t for code, (_, t) in text.items()},
            "tutorial": draw(c.tutorial) if show else None,
            "ours": draw(ours) if show and ours is not None else None}
