"""The glossary: a few words a learner meets everywhere (Q/K/V, d_model, logits, residual, …),
each defined once per language (i18n ``gloss.<id>.*``). In a panel's narration the first
time a word appears it is marked, its definition shown on hover, on focus and on a tap; the
page ends with the whole list."""

from __future__ import annotations

import re
from functools import lru_cache

from markupsafe import Markup, escape

from ... import i18n

# Each term: its id, then its keys (the term as the glossary names it, the forms it takes in
# the text separated by "|", its definition), written out so that they can be found.
GLOSSARY = (
    ("qkv", "gloss.qkv.term", "gloss.qkv.match", "gloss.qkv.def"),
    ("d_model", "gloss.d_model.term", "gloss.d_model.match", "gloss.d_model.def"),
    ("d_k", "gloss.d_k.term", "gloss.d_k.match", "gloss.d_k.def"),
    ("logits", "gloss.logits.term", "gloss.logits.match", "gloss.logits.def"),
    ("residual", "gloss.residual.term", "gloss.residual.match", "gloss.residual.def"),
    ("layer_norm", "gloss.layer_norm.term", "gloss.layer_norm.match", "gloss.layer_norm.def"),
    ("teacher_forcing", "gloss.teacher_forcing.term", "gloss.teacher_forcing.match", "gloss.teacher_forcing.def"),
    ("memory", "gloss.memory.term", "gloss.memory.match", "gloss.memory.def"),
    ("tape", "gloss.tape.term", "gloss.tape.match", "gloss.tape.def"),
    ("softmax", "gloss.softmax.term", "gloss.softmax.match", "gloss.softmax.def"),
    ("embedding", "gloss.embedding.term", "gloss.embedding.match", "gloss.embedding.def"),
    ("positional_encoding", "gloss.positional_encoding.term", "gloss.positional_encoding.match", "gloss.positional_encoding.def"),
)
TERMS = tuple(entry[0] for entry in GLOSSARY)
DEFINITION = {entry[0]: entry[3] for entry in GLOSSARY}


def entries(lang: str) -> list[dict]:
    """Every term with its definition, in the order of ``TERMS``."""
    return [{"id": key, "term": i18n.t(lang, term), "text": i18n.t(lang, definition)}
            for key, term, _, definition in GLOSSARY]


@lru_cache(maxsize=8)
def _pattern(lang: str) -> re.Pattern:
    """One pattern for every surface form of every term, longest first, each a named group;
    Latin words only whole (not "tape" in "taped")."""
    forms = sorted(((form, key) for key, _, match, _ in GLOSSARY
                    for form in i18n.t(lang, match).split("|")),
                   key=lambda fk: -len(fk[0]))
    parts = []
    for form, key in forms:
        body = re.escape(form)
        if form[:1].isascii() and form[:1].isalnum():
            body = rf"(?<![\w-]){body}(?![\w-])"
        parts.append(f"(?P<{key}_{len(parts)}>{body})")
    return re.compile("|".join(parts), re.I)


def glossed(paragraphs: list[str], lang: str, wbr) -> list[Markup]:
    """The paragraphs as markup (``wbr``: the page's filter for plain text), the first
    appearance of each glossary term marked with its definition."""
    seen: set[str] = set()
    out = []
    for text in paragraphs:
        pieces, at = [], 0
        for match in _pattern(lang).finditer(text):
            key = match.lastgroup.rsplit("_", 1)[0]
            if key in seen:
                continue
            seen.add(key)
            pieces += [wbr(text[at:match.start()]), _mark(match.group(0), key, lang, wbr)]
            at = match.end()
        pieces.append(wbr(text[at:]))
        out.append(Markup("").join(pieces))
    return out


def _mark(word: str, key: str, lang: str, wbr) -> Markup:
    definition = escape(i18n.t(lang, DEFINITION[key]))
    return Markup(f'<dfn class="gl" tabindex="0" data-g="{key}">'
                  f'{wbr(word)}<span class="gl-def" role="tooltip">{definition}</span></dfn>')
