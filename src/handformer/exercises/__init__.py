"""Exercises from the learner's own run: questions of every kind the lesson teaches, each giving
the numbers it needs and asking for one number read off the tape at a step and cell.

question.py: a question and ``read`` (the one way an answer comes off the tape); pick.py:
finding a kind's steps and choosing cells with a seed; kinds_*.py: the kinds, in lesson order;
sheet.py: a worksheet of N questions by kind and level; words.py: a question in words;
render_json.py, render_markdown.py, render_html.py: the worksheet's formats.
"""

from __future__ import annotations

FORMATS = ("json", "html", "markdown")


def render(fmt: str, sheet: list, meta: dict, lang: str, key: bool = True, **settings) -> str:
    """The worksheet in ``fmt`` (one of FORMATS)."""
    from . import render_html, render_json, render_markdown

    renderer = {"json": render_json, "html": render_html, "markdown": render_markdown}[fmt]
    return renderer.render(sheet, meta, lang, key, **settings)
