"""The glossary: a few words a learner meets everywhere (Q/K/V, d_model, logits, residual, …),
each defined once per language (i18n ``gloss.<id>.*``). In a panel's narration the first
time a word appears it is marked, its definition shown on hover, on focus and on a tap; the
page ends with the whole list."""

from __future__ import annotations

import re
from functools import cache, lru_cache

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


@lru_cache(maxsize=8)
def _forms(lang: str) -> tuple[str, ...]:
    """Every surface form of every term, lower-cased."""
    return tuple(sorted({form.lower() for _, _, match, _ in GLOSSARY
                         for form in i18n.t(lang, match).split("|")}))


@cache  # asked of each distinct character of each text: a few thousand
def _plain_case(char: str) -> bool:
    """ASCII, CJK (punctuation, ideographs), a full-width form, or a character without case
    (quotes, dashes, ×, √, −, subscripts: those str.lower and str.upper both leave alone, which
    re.I matches to themselves only): characters whose matches under re.I are exactly those of
    str.lower, one character each."""
    return char < "\x80" or "\u3000" <= char <= "\u9fff" or "\uf900" <= char <= "\ufaff" \
        or "\uff00" <= char <= "\uffef" or char.lower() == char == char.upper()


def _matches(lang: str, text: str) -> list:
    """What ``_pattern(lang).finditer(text)`` finds, found faster: a match starts where a
    form occurs, ignoring case, so the pattern is tried only there (in order, after the last
    match), not at every character of the text. Text with letters whose case folds beyond
    str.lower (Greek, accented Latin, ...) is scanned by the pattern itself."""
    pattern = _pattern(lang)
    if not text.isascii() and not all(map(_plain_case, set(text))):
        return list(pattern.finditer(text))
    lowered, starts = text.lower(), set()
    for form in _forms(lang):
        at = lowered.find(form)
        while at >= 0:
            starts.add(at)
            at = lowered.find(form, at + 1)
    found, end = [], 0
    for at in sorted(starts):
        match = pattern.match(text, at) if at >= end else None
        if match:
            found.append(match)
            end = match.end()
    return found


def glossed(paragraphs: list[str], lang: str, wbr) -> list[Markup]:
    """The paragraphs as markup (``wbr``: the page's filter for plain text), the first
    appearance of each glossary term marked with its definition."""
    seen: set[str] = set()
    out = []
    for text in paragraphs:
        pieces, at = [], 0
        for match in _matches(lang, text):
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
