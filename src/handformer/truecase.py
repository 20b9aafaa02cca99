"""Truecasing: the case a lower-cased translation gives back.

The word tokenizers lower-case (one token for "The" and "the"), so a translator trained on
them writes lower-case English, and cased BLEU, the score the field reports, counts every
capital it lacks as a miss. A truecaser learnt from the training targets puts the case back:

- each word takes the form it is most often written in where it is not the first word of its
  sentence (there a capital says nothing about the word): "tom" → "Tom", "i" → "I",
  "paris" → "Paris", while "the" stays "the";
- the first letter of the translation is a capital, as in most of the training targets.

A corpus whose targets mostly do not begin with a capital (Chinese, or lower-cased text) learns
no truecaser: its translations stay as the tokens wrote them.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict

from .text import END, START, Vocab
from .textsafe import normalized

WORD = re.compile(r"(?<!\w)[^\W\d_]+(?:['’][^\W\d_]+)*(?!\w)")  # letters only: not "3pm"
_WORD_OR_SPECIAL = re.compile(rf"<[^<>\s]+>|{WORD.pattern}")


def learnt(sentences) -> tuple[tuple[str, str], ...] | None:
    """The (lower-case word, its usual written form) pairs where the two differ, by word; None
    when most sentences do not begin with a capital letter (nothing to give back)."""
    forms: dict[str, Counter] = defaultdict(Counter)
    capital = total = 0
    for sentence in sentences:
        words = [m.group() for m in WORD.finditer(normalized(sentence))]
        if not words:
            continue
        total += 1
        capital += words[0][0].isupper()
        for word in words[1:]:
            forms[word.lower()][word] += 1
    if not total or capital * 2 <= total:
        return None
    usual = {low: max(seen, key=lambda form: (seen[form], form == low)) for low, seen in forms.items()}
    return tuple(sorted((low, form) for low, form in usual.items() if form != low))


def recased(text: str, cases: dict[str, str]) -> str:
    """``text`` with each word in its usual form and its first letter a capital; a special
    token (<unk>) is left as it is."""
    out, at, first = [], 0, True
    for m in _WORD_OR_SPECIAL.finditer(text):
        word = m.group()
        if not word.startswith("<"):
            word = cases.get(word.lower(), word)
            if first:
                word, first = word[0].upper() + word[1:], False
        out += [text[at:m.start()], word]
        at = m.end()
    return "".join(out) + text[at:]


class CasedVocab(Vocab):
    """A lower-cased word vocabulary with the truecaser of its sentences (``cases``: learnt's
    pairs): translations into it are recased."""

    FIELDS = ("words", "specials", "tokenizer", "cases")

    def __init__(self, words: tuple[str, ...], specials: tuple[str, ...] = (START, END),
                 tokenizer: str = "words", cases=()):
        cases = tuple((str(low), str(form)) for low, form in cases)
        self._set(words=tuple(words), specials=tuple(specials), tokenizer=tokenizer,
                  cases=cases, _table=dict(cases))

    def recased(self, text: str) -> str:
        return recased(text, self._table)


def with_cases(vocab: Vocab, sentences) -> Vocab:
    """``vocab`` with the truecaser ``sentences`` teach, if they teach one (see learnt)."""
    pairs = learnt(sentences)
    if pairs is None:
        return vocab
    return CasedVocab(vocab.words, vocab.specials, vocab.tokenizer, pairs)
