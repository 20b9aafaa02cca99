"""Where a question's number is in the walk, as a learner finds it: the panel's number ("Step
12" in the terminal, on the page and in Markdown) and the row's and column's labels (a token, a
dimension d3, a word of the vocabulary), read off the narrated sections' matrices; the tape's
name and 0-based cell stay in the answer key."""

from __future__ import annotations

import re

from .question import Question


def placed(sheet: list[Question], sections: list) -> list[Question]:
    """The questions with ``panel`` (and ``row``, ``col`` where its matrix labels them) in
    their words; a question whose number no panel draws is left as it is."""
    return [_place(q, sections) for q in sheet]


def _names(q: Question) -> tuple[str, list[str]]:
    """The panel a question's number is drawn in (its section id) and the matrix names it may
    have there (a head's slice of a tensor by head)."""
    base, _, leaf = q.step.rpartition(".")
    head = [f"{base}.head.{q.cell[0]}.{leaf}"] if len(q.cell) == 3 else []
    if q.field == "grad":
        heads = [f"grad.{q.step}.head.{q.cell[0]}"] if len(q.cell) == 3 else []
        return f"grad.{q.step}", [*heads, f"grad.{q.step}"]
    if q.field == "update.after":
        return f"update.{q.step}", [f"update.{q.step}.after"]
    return q.step, [*head, q.step]


def _place(q: Question, sections: list) -> Question:
    section_id, matrices = _names(q)
    found = next((s for s in sections if s.id == section_id), None) or next(
        (s for s in sections if any(getattr(m, "name", None) in matrices for m in s.equation)),
        None) or next((s for s in sections if q.step in s.steps), None)
    if found is None or found.panel is None:
        return q
    words = dict(q.words) | {"panel": found.panel}
    drawn = {m.name: m for m in found.equation if hasattr(m, "rows")}
    m = next((drawn[n] for n in matrices if n in drawn), None)
    if m is not None and len(q.cell) >= 2:
        i, j = _row_of(m, q.cell[-2]), q.cell[-1]
        if m.rows and i is not None and i < len(m.rows) and m.cols and j < len(m.cols):
            words |= {"row": str(m.rows[i]), "col": str(m.cols[j])}
    elif m is not None and len(q.cell) == 1 and m.cols and q.cell[0] < len(m.cols):
        words |= {"col": str(m.cols[q.cell[0]])}  # an entry of a vector (a bias, γ)
    return q.replace(words=words)


def _row_of(m, i: int) -> int | None:
    """Where row i of the array is drawn: an embedding table's panel draws only the rows of
    the sentence's words, labelled "word (id)"."""
    ids = [re.fullmatch(r".* \((\d+)\)", str(r)) for r in (m.rows or [])]
    if ids and all(ids):
        return next((k for k, found in enumerate(ids) if int(found.group(1)) == i), None)
    return i
