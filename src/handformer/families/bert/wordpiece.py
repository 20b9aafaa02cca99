"""BERT's tokenizer from vocab.txt: clean, lower-case, split words and punctuation, then WordPiece.

WordPiece cuts each word greedily into the longest pieces found in the vocabulary; a piece that
continues a word is written with ``##`` ("thrones" → ``throne ##s``). A word that cannot be cut
becomes ``[UNK]``. The sentence is framed by ``[CLS]`` … ``[SEP]``. This is the "uncased" BERT
tokenizer (BertNormalizer with lowercase, accents stripped, Chinese characters split apart,
BertPreTokenizer, WordPiece with at most 100 characters per word).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from pathlib import Path

from ...errors import HandformerError

MAX_WORD_CHARS = 100


@dataclass(frozen=True)
class Tokenized:
    """One sentence: its words (after cleaning), each word's pieces, the tokens with the
    specials, and their ids."""

    text: str
    words: tuple[str, ...]
    pieces: tuple[tuple[str, ...], ...]
    tokens: tuple[str, ...]
    ids: tuple[int, ...]


class WordPiece:
    """The vocabulary of a BERT checkpoint (one piece a line, id = line number) and its rules."""

    def __init__(self, pieces: list[str], lowercase: bool = True):
        self.pieces = pieces
        self.ids = {p: i for i, p in enumerate(pieces)}
        self.lowercase = lowercase
        for special in ("[CLS]", "[SEP]", "[UNK]", "[PAD]"):
            if special not in self.ids:
                raise HandformerError(f"vocab.txt has no {special} token")

    @classmethod
    def from_file(cls, path: str | Path, lowercase: bool = True) -> WordPiece:
        from ...files.io import read_text

        lines = read_text(path, "vocabulary").split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        return cls([line.rstrip("\r") for line in lines], lowercase)

    def __len__(self) -> int:
        return len(self.pieces)

    def words(self, text: str) -> list[str]:
        """Clean the text, then split it on white space and around every punctuation mark."""
        return split_words(normalize(text, self.lowercase))

    def split(self, word: str) -> list[str]:
        """Greedy longest-match-first: 'thrones' → ['throne', '##s']; ['[UNK]'] if impossible."""
        if len(word) > MAX_WORD_CHARS:
            return ["[UNK]"]
        pieces, start = [], 0
        while start < len(word):
            end = len(word)
            while end > start:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in self.ids:
                    break
                end -= 1
            if end == start:
                return ["[UNK]"]
            pieces.append(piece)
            start = end
        return pieces

    def encode(self, text: str) -> Tokenized:
        """[CLS] + the pieces of every word + [SEP], with their ids."""
        words = self.words(text)
        pieces = tuple(tuple(self.split(w)) for w in words)
        tokens = ("[CLS]", *(p for ps in pieces for p in ps), "[SEP]")
        return Tokenized(text, tuple(words), pieces, tokens, tuple(self.ids[t] for t in tokens))


def normalize(text: str, lowercase: bool = True) -> str:
    """Drop control characters, turn white space into spaces, space out CJK characters,
    lower-case and strip accents (as BERT's uncased normalizer)."""
    out = []
    for ch in unicodedata.normalize("NFC", text):
        cp = ord(ch)
        if cp == 0 or cp == 0xFFFD or _is_control(ch):
            continue
        if _is_whitespace(ch):
            out.append(" ")
        elif _is_cjk(cp):
            out.append(f" {ch} ")
        else:
            out.append(ch)
    text = "".join(out)
    if lowercase:
        text = unicodedata.normalize("NFD", text.lower())
        text = "".join(ch for ch in text if unicodedata.category(ch) != "Mn")
    return text


def split_words(text: str) -> list[str]:
    """White space separates words; each punctuation character is a word of its own."""
    words, current = [], []
    for ch in text:
        if ch.isspace() or _is_punctuation(ch):
            if current:
                words.append("".join(current))
                current = []
            if not ch.isspace():
                words.append(ch)
        else:
            current.append(ch)
    if current:
        words.append("".join(current))
    return words


def _is_whitespace(ch: str) -> bool:
    return ch in " \t\n\r" or unicodedata.category(ch) == "Zs"


def _is_control(ch: str) -> bool:
    if ch in "\t\n\r":
        return False
    return unicodedata.category(ch) in ("Cc", "Cf")


def _is_punctuation(ch: str) -> bool:
    """ASCII symbols such as $ + ^ count as punctuation too, as in BERT."""
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


_CJK_RANGES = ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F),
               (0x2B740, 0x2B81F), (0x2B820, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F))


def _is_cjk(cp: int) -> bool:
    """The CJK Unified Ideographs blocks (not Japanese kana or Korean hangul), as in BERT."""
    return any(lo <= cp <= hi for lo, hi in _CJK_RANGES)
