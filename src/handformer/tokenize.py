"""Sentences to tokens: the tutorial's rule, English words, Chinese characters or jieba words.

- ``tutorial``: lower-case, drop "." and ",", split on white space ("won't" stays; "coming!"
  stays "coming!"). The tutorial's own rule, kept so that its numbers stay identical.
- ``words``: lower-case, split on white space, and every punctuation mark (ASCII or full-width)
  becomes a token of its own: "Winter is coming!" → winter is coming !. Apostrophes inside a
  word stay ("won't"). Chinese written with spaces between words keeps those words.
- ``char``: as ``words``, and every Chinese character is a token: 你爱我，我爱你。 → 你 爱 我 ，
  我 爱 你 。
- ``jieba``: as ``words``, and runs of Chinese are cut into words by jieba (offline): 我喜欢学中文
  → 我 喜欢 学 中文.
- ``bpe``: byte-level BPE, merges learnt from the corpus (handformer.bpe; the decoder-only
  family's vocabulary, which holds the merges, splits a text).

Full-width letters and digits (ＡＢＣ１２) are read as their ASCII forms (NFKC); full-width
punctuation keeps its form and becomes a token of its own, like ASCII punctuation.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from .errors import TokenizerError  # noqa: F401  (raised here)

TOKENIZERS = ("tutorial", "words", "char", "jieba", "bpe")

_DROP = re.compile(r"[.,]")
_CJK = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"


@cache
def _patterns() -> tuple[re.Pattern, re.Pattern]:
    """(a piece, a run of Chinese), compiled on first use: the ranges of Chinese cost ~10 ms to
    compile, and the tutorial's rule (every default walk) needs neither. A piece is a word
    (letters/digits with inner apostrophes or hyphens), a run of Chinese characters, or any
    other single non-space character (punctuation, symbols, full-width marks)."""
    return (re.compile(rf"(?:[^\W{_CJK}]|_)+(?:['’-](?:[^\W{_CJK}]|_)+)*|[{_CJK}]+|\S"),
            re.compile(rf"[{_CJK}]+"))


def tokenize(sentence: str, tokenizer: str = "tutorial") -> list[str]:
    """The tokens of one sentence under the named tokenizer (see the module's docstring)."""
    if tokenizer == "tutorial":
        return _DROP.sub(" ", sentence.lower()).split()
    if tokenizer == "bpe":
        raise TokenizerError("--tokenizer bpe learns its merges from the corpus, which only "
                             "--family gpt does (handformer.bpe)")
    if tokenizer not in TOKENIZERS:
        raise TokenizerError(f"unknown tokenizer {tokenizer!r}; choose one of "
                             f"{', '.join(TOKENIZERS)}")
    tokens, (pieces, cjk_run) = [], _patterns()
    for piece in pieces.findall(_normalize(sentence)):
        if tokenizer == "words" or not cjk_run.fullmatch(piece):
            tokens.append(piece)
        elif tokenizer == "char":
            tokens.extend(piece)
        else:
            tokens.extend(_jieba_cut(piece))
    return tokens


def _normalize(sentence: str) -> str:
    """Lower-case; full-width letters and digits as ASCII, punctuation left as written."""
    out = []
    for ch in sentence:
        folded = unicodedata.normalize("NFKC", ch)
        out.append(folded if folded.isalnum() else ch)
    return "".join(out).lower()


def _jieba_cut(run: str) -> list[str]:
    try:
        import jieba
    except ImportError:
        raise TokenizerError("--tokenizer jieba needs the jieba package: "
                             "pip install -e '.[corpus]' in handformer's checkout") from None
    if not getattr(jieba, "_handformer_quiet", False):
        jieba.setLogLevel(60)  # its "Building prefix dict" lines are not ours to print
        jieba._handformer_quiet = True
    return [w for w in jieba.lcut(run, HMM=True) if w.strip()]


def target_text(target, tokens: list[str]) -> str:
    """A translation's tokens as text: a byte-level BPE target (`train --target-bpe`) joins
    its bytes, as written; words are detokenized, then recased where the target vocabulary
    learnt its corpus's case (handformer.truecase)."""
    return target.joined(tokens) if target.tokenizer == "bpe" else target.recased(detokenize(tokens))


def detokenize(tokens: list[str]) -> str:
    """Tokens joined for reading: spaces between words; none between Chinese characters or
    full-width marks, before closing punctuation, or after opening punctuation."""
    text = ""
    for token in tokens:
        glue = (not text or _wide(token[0]) and _wide(text[-1])
                or unicodedata.category(token[0]) in ("Pe", "Po", "Pf")
                or unicodedata.category(text[-1]) in ("Ps", "Pi"))
        text += token if glue else " " + token
    return text


def _wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


def changes(sentence: str, tokenizer: str) -> list[str]:
    """What the tokenizer did to each white-space word it changed: "'Coming!' → coming !";
    with the tutorial's rule, also the punctuation it kept: "'coming!' keeps '!'"."""
    said = []
    for word in sentence.split():
        tokens = tokenize(word, tokenizer)
        if tokens != [word.lower()]:  # lower-casing alone is every tokenizer's rule: not news
            said.append(f"{word!r} → {' '.join(tokens) if tokens else '(dropped)'}")
        if tokenizer == "tutorial":
            kept = [t for t in tokens if len(tokenize(t, "words")) > 1]
            said += [f"{t!r} keeps its punctuation" for t in kept]
    return said


def corpus_warning(sentences, tokenizer: str, shown: int = 4) -> str | None:
    """One line saying what the tokenizer did to the corpus's words (None: nothing changed)."""
    said: dict[str, None] = {}
    for sentence in sentences:
        said.update(dict.fromkeys(changes(sentence, tokenizer)))
    if not said:
        return None
    first = list(said)[:shown]
    more = f" and {len(said) - shown} more" if len(said) > shown else ""
    hint = " (--tokenizer words splits punctuation off)" if tokenizer == "tutorial" else ""
    return f"tokenizer {tokenizer}: {'; '.join(first)}{more}{hint}"
