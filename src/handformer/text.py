"""Text to ids: the tutorial's dataset, its tokenizer, and a vocabulary in first-appearance order."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from .errors import TextError  # noqa: F401  (raised here)
from .records import Frozen
from .textsafe import normalized
from .tokenize import tokenize as split_tokens

if TYPE_CHECKING:
    from pathlib import Path

TUTORIAL_DATASET = (
    "I drink and I know things.",
    "When you play the game of thrones, you win or you die.",
    "The true enemy won't wait out the storm, He brings the storm.",
)
TUTORIAL_SRC = "when you play the game of thrones"
TUTORIAL_TGT = "you win or you die"

START, END, PAD, UNK = "<start>", "<end>", "<pad>", "<unk>"



def tokenize(sentence: str, tokenizer: str = "tutorial") -> list[str]:
    """NFC, then the tutorial's rule by default: lower-case, drop '.' and ',', split on white
    space ('won't' stays). Other tokenizers: see handformer.tokenize."""
    return split_tokens(normalized(sentence), tokenizer)


class Vocab(Frozen):
    """Words by first appearance, then the special tokens; ``tokenizer`` splits sentences."""

    FIELDS = ("words", "specials", "tokenizer")

    def __init__(self, words: tuple[str, ...], specials: tuple[str, ...] = (START, END),
                 tokenizer: str = "tutorial"):
        self._set(words=words, specials=specials, tokenizer=tokenizer)

    @classmethod
    def from_corpus(cls, sentences, specials=(START, END), tokenizer: str = "tutorial",
                    max_size: int | None = None, min_count: int = 1) -> Vocab:
        """Words seen at least ``min_count`` times, at most ``max_size`` of them (the most
        frequent; ties to the earlier), kept in first-appearance order; the rest become <unk>."""
        counts: Counter[str] = Counter()
        for sentence in sentences:
            counts.update(tokenize(sentence, tokenizer))
        kept = [w for w in counts if counts[w] >= min_count and w not in specials]
        if max_size is not None and len(kept) > max_size:
            rank = {w: i for i, w in enumerate(kept)}
            chosen = set(sorted(kept, key=lambda w: (-counts[w], rank[w]))[:max_size])
            kept = [w for w in kept if w in chosen]
        return cls(tuple(kept), tuple(specials), tokenizer)

    def tokenize(self, sentence: str) -> list[str]:
        return tokenize(sentence, self.tokenizer)

    def unknown(self, sentence: str) -> list[str]:
        """The sentence's tokens that are not in the vocabulary (they read as <unk>, if any)."""
        index = self._index()
        return [w for w in self.tokenize(sentence) if w not in index]

    @property
    def tokens(self) -> list[str]:
        return list(self.words) + list(self.specials)

    def __len__(self) -> int:
        return len(self.words) + len(self.specials)

    def id(self, token: str) -> int:
        return self._index()[token]

    def _index(self) -> dict[str, int]:
        cached = self.__dict__.get("_cache")
        if cached is None:
            cached = {t: i for i, t in enumerate(self.tokens)}
            object.__setattr__(self, "_cache", cached)
        return cached

    def encode(self, sentence: str, role: str = "sentence") -> list[int]:
        """Ids of a sentence's words; an unknown word is an error that names it."""
        words = self.tokenize(sentence)
        if not words:
            raise TextError(f"the {role} is empty: give at least one word")
        index = self._index()
        unknown = [w for w in words if w not in index]
        if unknown and UNK not in index:
            raise TextError(
                f"the {role} has word(s) not in the vocabulary: {', '.join(map(repr, unknown))}. "
                f"The vocabulary comes from the corpus ({len(self.words)} words); add a sentence "
                f"with these words to the corpus or choose other words."
                + _tokenizer_hint(self, unknown)
            )
        return [index.get(w, index.get(UNK, -1)) for w in words]

    def decode(self, ids) -> list[str]:
        tokens = self.tokens
        return [tokens[int(i)] for i in ids]

    def joined(self, tokens) -> str:
        """Tokens as one text to read (words apart; a byte-level vocabulary joins its bytes)."""
        return " ".join(tokens)

    def recased(self, text: str) -> str:
        """A translation's text in its corpus's case (handformer.truecase): as it is, here."""
        return text

    # One vocabulary serves both sides (the tutorial's): the source's and the target's are it.
    @property
    def source(self) -> Vocab:
        return self

    @property
    def target(self) -> Vocab:
        return self

    @property
    def sizes(self) -> tuple[int, int]:
        """(source size, target size): the embeddings' and the generator's rows."""
        return len(self), len(self)


class Sides(Frozen):
    """One vocabulary per side: the source's (the encoder's embedding) and the target's (the
    decoder's embedding, the generator's rows, the loss's label smoothing). A real corpus's
    sides share few words (Chinese characters are never English targets), so a shared
    vocabulary would give the generator rows, and label smoothing mass, for tokens no target
    ever holds."""

    FIELDS = ("source", "target")

    def __init__(self, source: Vocab, target: Vocab):
        self._set(source=source, target=target)

    @property
    def sizes(self) -> tuple[int, int]:
        return len(self.source), len(self.target)

    @property
    def tokenizer(self) -> str:
        return self.source.tokenizer


def _tokenizer_hint(vocab: Vocab, unknown: list[str]) -> str:
    """'coming' is unknown but the corpus has 'coming!': say which tokenizer splits it off."""
    if vocab.tokenizer != "tutorial":
        return ""
    for word in unknown:
        near = [w for w in vocab.words if split_tokens(w, "words")[:1] == [word]]
        if near:
            return (f" The corpus has {near[0]!r}: the tutorial's tokenizer keeps punctuation "
                    f"other than '.' and ','; --tokenizer words splits it off.")
    return ""


def read_corpus(path: str | Path) -> list[str]:
    """One sentence per line, UTF-8; blank lines are skipped."""
    from .files.io import read_text

    return corpus_lines(read_text(path, "corpus file", TextError), f"corpus file {str(path)!r}")


def corpus_lines(text: str, where: str = "the corpus") -> list[str]:
    """The sentences of a corpus text, one per line; blank lines are skipped."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not any(tokenize(line) for line in lines):
        raise TextError(f"{where} has no words")
    return lines


def size_of(vocab: Vocab | Sides) -> int | tuple[int, int]:
    """What a family's param_shapes takes: one vocabulary's size, or (source, target) sizes."""
    return vocab.sizes if isinstance(vocab, Sides) else len(vocab)


class Example(Frozen):
    """One source sentence and its target, as tokens and ids, ready for the model: the
    decoder's input (``tgt_``: <start> y_1 ... y_n) and what each decoder position should
    predict (``out_``: y_1 ... y_n <end>)."""

    FIELDS = ("src_tokens", "src_ids", "tgt_tokens", "tgt_ids", "out_tokens", "out_ids")

    def __init__(self, src_tokens: list[str], src_ids: list[int], tgt_tokens: list[str],
                 tgt_ids: list[int], out_tokens: list[str], out_ids: list[int]):
        self._set(src_tokens=src_tokens, src_ids=src_ids, tgt_tokens=tgt_tokens,
                  tgt_ids=tgt_ids, out_tokens=out_tokens, out_ids=out_ids)


def make_example(vocab: Vocab | Sides, src: str, tgt: str, max_len: int) -> Example:
    """Teacher forcing (the tutorial's step 11): input <start> y_1..y_n, target y_1..y_n <end>."""
    src_ids = vocab.source.encode(src, "source sentence")
    tgt_ids = vocab.target.encode(tgt, "target sentence")
    for role, ids, extra in (("source sentence", src_ids, 0), ("target sentence", tgt_ids, 1)):
        if len(ids) + extra > max_len:
            raise TextError(
                f"the {role} has {len(ids)} words"
                + (" (+1 for <start>)" if extra else "")
                + f", more than the model's maximum length {max_len}; shorten it or raise max_len"
            )
    target = vocab.target
    start, end = target.id(START), target.id(END)
    dec_in = [start] + tgt_ids
    dec_out = tgt_ids + [end]
    return Example(vocab.source.decode(src_ids), src_ids, target.decode(dec_in), dec_in,
                   target.decode(dec_out), dec_out)
