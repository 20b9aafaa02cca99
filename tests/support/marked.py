"""The marked test language's check: text with every sentence inside ⟦ ⟧ leaves no English
word outside a marker once formulas, symbols, names and tokens are removed."""

import re

from handformer import i18n
from handformer.narrate.document import Matrix

WORD = re.compile(r"[A-Za-z]{2,}")


MARKED = re.compile(r"⟦[^⟦⟧]*⟧")


BRAND = {"handformer"}  # the program's name, in every language
# Operators plain-text formulas write out, in every language: a bar over several letters,
# which Unicode cannot span, becomes mean(·) (narrate/unicode_math.py).
OPERATORS = {"mean"}


def marked(table: dict[str, str]) -> dict[str, str]:
    return {k: v if k in i18n.SETTINGS else f"⟦{v}⟧" for k, v in table.items()}


def unmarked(text: str, allowed: set[str]) -> set[str]:
    """The words of ``text`` outside every ⟦ ⟧ that are not formulas, names or tokens."""
    while MARKED.search(text):
        text = MARKED.sub(" ", text)
    return {w for w in WORD.findall(text) if w.lower() not in allowed}


def document_words(sections) -> set[str]:
    """What a drawing shows that is not language: formulas, symbols, names, labels, tokens."""
    found = set(BRAND) | OPERATORS
    for s in sections:
        found |= words(s.id, s.formula, *s.steps)
        mats = [i for i in s.equation if isinstance(i, Matrix)]
        mats += [c.tutorial for c in s.callouts if c.tutorial is not None]
        for m in mats:
            found |= words(m.name, m.symbol, *(m.rows or []), *(m.cols or []))
        found |= words(*(i for i in s.equation if isinstance(i, str)))
    return found


def words(*texts) -> set[str]:
    return {w.lower() for t in texts for w in WORD.findall(str(t))}
