"""A worksheet as Markdown: the questions with their given numbers and a blank each, then the
answer key (left out with ``--no-key``)."""

from __future__ import annotations

from .. import i18n
from .question import Question
from .words import answer_text, ask, run_text, tolerance_text, value_text, where


def _question(n: int, question: Question, lang: str) -> list[str]:
    t = i18n.table(lang)
    lines = [f"### {t['ex.question'].format(n=n)}", "", f"*{where(question, lang)}*", "",
             ask(question, lang), "",
             f"**{t['ex.given']}**", ""]
    lines += [f"- {t[g.label]}{f' `{g.symbol}`' if g.symbol else ''}: {value_text(g)}"
              for g in question.given]
    lines += ["", f"**{t['ex.formula']}**: `{question.formula}`", "",
              tolerance_text(question, lang), "", f"{t['ex.blank']}: ______________", ""]
    return lines


def render(sheet: list[Question], meta: dict, lang: str, key: bool = True, **settings) -> str:
    t = i18n.table(lang)
    lines = [f"# {t['ex.title']}", "", t["ex.intro"], "",
             t["ex.run"].format(run=run_text(meta)), ""]
    for n, question in enumerate(sheet, 1):
        lines += _question(n, question, lang)
    if key:
        lines += [f"## {t['ex.key']}", "", f"| # | {t['ex.answer']} | ± | {t['ex.where']} |",
                  "|---|---|---|---|"]
        lines += [f"| {n} | {answer_text(q)} | {q.tolerance:.2g} | `{q.step}` {list(q.cell)} |"
                  for n, q in enumerate(sheet, 1)]
        lines.append("")
    return "\n".join(lines)
