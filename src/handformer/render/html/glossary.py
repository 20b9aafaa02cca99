"""The glossary: a few words a learner meets everywhere (Q/K/V, d_model, logits, residual, …),
each defined once per language (i18n ``gloss.<id>.*``). In a panel's narration the first
time a word appears it is marked, its definition shown on hover, on focus and on a tap; the
page ends with the whole list."""

from __future__ import annotations

import os
import re
from functools import cache, lru_cache

from markupsafe import Markup, escape

from ... import i18n
from ...files.kept_table import KeptTable, python_sources, sources_stamp
from ..common.breaks import hanzi_breaks, hanzi_pairs
from ..common.lexicon import holds_hanzi

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
    # the backward pass and training (issue 46)
    ("gradient", "gloss.gradient.term", "gloss.gradient.match", "gloss.gradient.def"),
    ("chain_rule", "gloss.chain_rule.term", "gloss.chain_rule.match", "gloss.chain_rule.def"),
    ("backward", "gloss.backward.term", "gloss.backward.match", "gloss.backward.def"),
    ("loss", "gloss.loss.term", "gloss.loss.match", "gloss.loss.def"),
    ("learning_rate", "gloss.learning_rate.term", "gloss.learning_rate.match", "gloss.learning_rate.def"),
    ("update", "gloss.update.term", "gloss.update.match", "gloss.update.def"),
    ("adam", "gloss.adam.term", "gloss.adam.match", "gloss.adam.def"),
    ("epoch", "gloss.epoch.term", "gloss.epoch.match", "gloss.epoch.def"),
    ("mask", "gloss.mask.term", "gloss.mask.match", "gloss.mask.def"),
    ("scores", "gloss.scores.term", "gloss.scores.match", "gloss.scores.def"),
    ("attention_weights", "gloss.attention_weights.term", "gloss.attention_weights.match", "gloss.attention_weights.def"),
    ("head", "gloss.head.term", "gloss.head.match", "gloss.head.def"),
    ("self_attention", "gloss.self_attention.term", "gloss.self_attention.match", "gloss.self_attention.def"),
    ("cross_attention", "gloss.cross_attention.term", "gloss.cross_attention.match", "gloss.cross_attention.def"),
    ("ffn", "gloss.ffn.term", "gloss.ffn.match", "gloss.ffn.def"),
    ("relu", "gloss.relu.term", "gloss.relu.match", "gloss.relu.def"),
    ("vocabulary", "gloss.vocabulary.term", "gloss.vocabulary.match", "gloss.vocabulary.def"),
    ("token", "gloss.token.term", "gloss.token.match", "gloss.token.def"),
    ("weight", "gloss.weight.term", "gloss.weight.match", "gloss.weight.def"),
    ("jacobian", "gloss.jacobian.term", "gloss.jacobian.match", "gloss.jacobian.def"),
)
TERMS = tuple(entry[0] for entry in GLOSSARY)
DEFINITION = {entry[0]: entry[3] for entry in GLOSSARY}


def entries(lang: str) -> list[dict]:
    """Every term with its definition, in the order of ``TERMS``."""
    return [{"id": key, "term": i18n.t(lang, term), "text": i18n.t(lang, definition)}
            for key, term, _, definition in GLOSSARY]


@lru_cache(maxsize=8)
def _alternatives(lang: str) -> tuple[tuple[str, str, bool], ...]:
    """The pattern's alternatives in its order, longest form first: each surface form of each
    term, its group's name (the term's key and a number), and whether it matches whole words
    only (a form that begins with a Latin letter or a digit: not "tape" in "taped")."""
    forms = sorted(((form, key) for key, _, match, _ in GLOSSARY
                    for form in i18n.t(lang, match).split("|")),
                   key=lambda fk: -len(fk[0]))
    return tuple((form, f"{key}_{n}", form[:1].isascii() and form[:1].isalnum())
                 for n, (form, key) in enumerate(forms))


@lru_cache(maxsize=8)
def _pattern(lang: str) -> re.Pattern:
    """One pattern for every surface form of every term, each a named group."""
    parts = []
    for form, group, whole_word in _alternatives(lang):
        body = re.escape(form)
        if whole_word:
            body = rf"(?<![\w-]){body}(?![\w-])"
        parts.append(f"(?P<{group}>{body})")
    return re.compile("|".join(parts), re.I)


@lru_cache(maxsize=8)
def _forms(lang: str) -> tuple[str, ...]:
    """Every surface form of every term, lower-cased."""
    return tuple(sorted({form.lower() for form, _, _ in _alternatives(lang)}))


def _plain_case(char: str) -> bool:
    """ASCII, CJK (punctuation, ideographs), a full-width form, or a character without case
    (quotes, dashes, ×, √, −, subscripts: those str.lower and str.upper both leave alone, which
    re.I matches to themselves only): characters whose matches under re.I are exactly those of
    str.lower, one character each."""
    return char < "\x80" or "\u3000" <= char <= "\u9fff" or "\uf900" <= char <= "\ufaff" \
        or "\uff00" <= char <= "\uffef" or char.lower() == char == char.upper()


def _foreign_case(char: str) -> bool:
    """A letter with case, none of whose forms (str.lower, str.upper) is or holds an ASCII
    character, lower-cased into one character: Greek (μ, σ, ε), ŷ. Under re.I it matches only
    letters of its own kind (σ, Σ, ς), never an ASCII or CJK character (the three letters that
    re.I matches to ASCII ones, ı ſ K, have ASCII upper or lower cases), so it is part of no
    match of forms written in those (``_forms_ascii_or_cjk``), nor is its lower case."""
    lower, upper = char.lower(), char.upper()
    return len(lower) == 1 and not any(c.isascii() for c in lower + upper)


def _matches(lang: str, text: str) -> list[tuple[int, int, str]]:
    """Where the terms occur, as ``_pattern(lang).finditer(text)`` finds them: (start, end,
    the group's name) of each match. A shipped language's matches are kept between runs
    (``_KEPT_MATCHES``: finding them is most of the glossary's cost in a fresh process)."""
    if not i18n.shipped(lang):
        return _whole_words(_found(lang, text), text)
    key = f"{lang} {text}"
    kept = _KEPT_MATCHES.lookup(key)
    found = None if kept is None else _read_matches(kept, text)
    if found is None:
        found = _whole_words(_found(lang, text), text)
        _KEPT_MATCHES.keep(key, ";".join(f"{start},{end},{group}" for start, end, group in found))
    return found


def _read_matches(kept: str, text: str) -> list[tuple[int, int, str]] | None:
    """The matches written in ``kept`` ("start,end,group;…", "" for none), or None if what is
    kept cannot be ``text``'s (a file edited by hand: then they are found afresh, never an
    error)."""
    found = []
    for match in filter(None, kept.split(";")):
        start, _, rest = match.partition(",")
        end, _, group = rest.partition(",")
        if not (start.isdecimal() and end.isdecimal() and group.rsplit("_", 1)[0] in DEFINITION
                and int(start) < int(end) <= len(text)):
            return None
        found.append((int(start), int(end), group))
    return found


def _stamp() -> str | None:
    """A checksum of what decides a text's matches: this module and the shipped tables."""
    tables = os.path.dirname(os.path.abspath(i18n.__file__))
    return sources_stamp([os.path.abspath(__file__), *python_sources(tables)])


_KEPT_MATCHES = KeptTable("glossary", _stamp, limit=20_000, file_chars=1 << 19)


def _found(lang: str, text: str) -> list[tuple[int, int, str]]:
    """The matches of ``_pattern(lang).finditer(text)``, told afresh. Found faster: a match
    starts where a form occurs, ignoring case, so the forms are tried only there (in order, after the last match), each compared as
    the pattern compares it, and the pattern (~4 ms to compile) is not needed. Text with
    letters that re.I matches beyond their str.lower and to ASCII ones (ſ, K, İ), or forms
    written in other letters than ASCII and CJK, are scanned by the pattern itself."""
    if not (_found_by_lower(text) and _forms_ascii_or_cjk(lang)):
        return [(m.start(), m.end(), m.lastgroup) for m in _pattern(lang).finditer(text)]
    lowered, starts = text.lower(), set()
    for form in _forms(lang):
        at = lowered.find(form)
        while at >= 0:
            starts.add(at)
            at = lowered.find(form, at + 1)
    found, end = [], 0
    for at in sorted(starts):
        match = _match_at(lang, text, lowered, at) if at >= end else None
        if match:
            found.append(match)
            end = match[1]
    return found


def _found_by_lower(text: str) -> bool:
    """Whether the forms' matches in ``text`` are found by comparing lower cases: each of its
    characters matches under re.I exactly what its str.lower matches (``_plain_case``) or
    matches no character of a form (``_foreign_case``)."""
    return text.isascii() or all(map(_compared_by_lower, set(text)))


@cache  # asked of each distinct character of each text: a few thousand
def _compared_by_lower(char: str) -> bool:
    return _plain_case(char) or _foreign_case(char)


@lru_cache(maxsize=8)
def _forms_ascii_or_cjk(lang: str) -> bool:
    """Whether every form is written in ASCII, CJK and full-width characters (``_plain_case``'s
    ranges, not a letter with other cases)."""
    return all(c < "\x80" or "\u3000" <= c <= "\u9fff" or "\uf900" <= c <= "\ufaff"
               or "\uff00" <= c <= "\uffef" for form, _, _ in _alternatives(lang) for c in form)


def _match_at(lang: str, text: str, lowered: str, at: int) -> tuple[int, int, str] | None:
    """What ``_pattern(lang).match(text, at)`` matches, in plain text (``lowered``: the text
    lower-cased): the first alternative whose form is there, a whole word if it must be."""
    for form, group, whole_word in _alternatives(lang):
        end = at + len(form)
        if lowered.startswith(form.lower(), at) and not (
                whole_word and (_in_word(text[at - 1:at]) or _in_word(text[end:end + 1]))):
            return at, end, group
    return None


def _in_word(char: str) -> bool:
    """A character the pattern's ``[\\w-]`` matches: a letter or digit (str.isalnum is re's \\w
    test), "_" or "-"."""
    return char != "" and (char.isalnum() or char in "_-")


def glossed(paragraphs: list[str], lang: str, wbr) -> list[Markup]:
    """The paragraphs as markup (``wbr``: the page's filter for plain text), the first
    appearance of each glossary term marked with its definition."""
    seen: set[str] = set()
    out = []
    for text in paragraphs:
        pieces, at = [], 0
        for start, end, group in _matches(lang, text):
            key = group.rsplit("_", 1)[0]
            if key in seen:
                continue
            seen.add(key)
            pieces += [wbr(text[at:start]), _mark(text[start:end], key, lang, wbr)]
            at = end
        pieces.append(wbr(text[at:]))
        out.append(Markup("").join(pieces))
    return out


def _whole_words(found: list[tuple[int, int, str]], text: str) -> list[tuple[int, int, str]]:
    """The matches that cut no word of the lexicon: a term marked inside a longer Chinese word
    (更新 in 不断更新) would split it, and the line could break inside it. Kept with the
    matches, so a later page reads the lexicon no more than before."""
    if not found or not holds_hanzi(text):
        return found
    cuts = set(hanzi_pairs(text)).difference(hanzi_breaks(text))
    return [m for m in found if m[0] not in cuts and m[1] not in cuts]


def _mark(word: str, key: str, lang: str, wbr) -> Markup:
    definition = escape(i18n.t(lang, DEFINITION[key]))
    return Markup(f'<dfn class="gl" tabindex="0" data-g="{key}">'
                  f'{wbr(word)}<span class="gl-def" role="tooltip">{definition}</span></dfn>')
