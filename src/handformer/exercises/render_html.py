"""A worksheet as one printable HTML page: the questions with blanks to fill, then the answer
key on a page of its own (CSS ``break-before: page``), or no key at all (``--no-key``: no
answer anywhere in the file). ``paper`` sets the printed page: A4 or US Letter."""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path

from .. import i18n
from ..errors import HandformerError
from .question import Question
from .words import answer_text, ask, run_text, tolerance_text, value_text, where

TEMPLATES = Path(__file__).parent / "templates"
PAPERS = {"a4": "A4", "letter": "letter"}


def _environment():
    try:
        import jinja2
    except ImportError:
        raise HandformerError("HTML output needs jinja2 (part of handformer's install): "
                              "pip install jinja2") from None
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                              undefined=jinja2.StrictUndefined)


def stylesheet(paper: str) -> str:
    """The worksheet's CSS with the printed page's size."""
    if paper not in PAPERS:
        raise HandformerError(f"unknown paper {paper!r}: choose a4 or letter")
    css = (TEMPLATES / "worksheet.css").read_text(encoding="utf-8")
    return css + f"@page{{size:{PAPERS[paper]}}}\n"


def _question_view(n: int, question: Question, lang: str) -> dict:
    table = i18n.table(lang)
    return {"n": n, "kind": question.kind, "title": table["ex.question"].format(n=n),
            "ask": ask(question, lang), "formula": question.formula,
            "where": where(question, lang),
            "tolerance": tolerance_text(question, lang),
            "given": [{"label": table[g.label], "symbol": g.symbol, "value": value_text(g)}
                      for g in question.given]}


def _key_view(n: int, question: Question) -> dict:
    return {"n": n, "answer": answer_text(question), "tol": f"{question.tolerance:.2g}",
            "step": question.step, "cell": str(list(question.cell))}


def render(sheet: list[Question], meta: dict, lang: str, key: bool = True, paper: str = "a4",
           **settings) -> str:
    css = stylesheet(paper)
    digest = base64.b64encode(hashlib.sha256(css.encode("utf-8")).digest()).decode()
    return _environment().get_template("worksheet.html.j2").render(
        t=i18n.table(lang), css=css, run=i18n.t(lang, "ex.run", run=run_text(meta)),
        csp=f"default-src 'none'; style-src 'sha256-{digest}'; base-uri 'none'; "
            "form-action 'none'",
        questions=[_question_view(n, q, lang) for n, q in enumerate(sheet, 1)],
        key=[_key_view(n, q) for n, q in enumerate(sheet, 1)] if key else [])
