"""Byte-level BPE learnt by hand: GPT-2's tokenizer, trained on a corpus one merge at a time.

1. Split each line as GPT-2 does (``pieces``): contractions ('s 't 're 've 'm 'll 'd), then a run
   of letters, of digits or of other marks, each with the one space before it ("Ġgame"), and
   runs of white space. No word ever merges across these cuts.
2. Each piece becomes its UTF-8 bytes, and each byte one printable character (GPT-2's
   bytes_to_unicode, ``byte_symbols``): the bytes ! … ~, ¡ … ¬ and ® … ÿ stand for themselves;
   the other 68 (control codes, space, DEL, the no-break and the soft hyphen) take the characters
   from U+0100 on, in byte order: space (32) is Ġ, newline (10) is Ċ. A Chinese character is three
   bytes, so three symbols: 你 = e4 bd a0 = ä ½ ł.
3. Count every adjacent pair of symbols, each word weighted by how often it occurs; merge the
   most frequent pair into one new symbol everywhere; count again; repeat N times (``learn``).
4. A new text is split and turned into symbols the same way, then the merges are applied in the
   order they were learnt (``segment``, GPT-2's rule: the earliest-learnt pair present goes
   first).

Ties, as Hugging Face `tokenizers`' BpeTrainer breaks them (its ``Merge`` order: the higher
count first, then the smaller pair of ids): among pairs with the same count, the one whose left
symbol has the smaller id wins, then the one whose right symbol has. The trainer numbers the
single-byte symbols by their characters' code points (! … ~, ¡ …, then Ā … Ġ …) and each merged
token after all of them, in the order it was made. The vocabulary here is numbered the same
way (the byte symbols the corpus uses in code-point order, then the merged tokens, then
<start> and <end>), so the rule reads: the pair with the smaller ids.

The vocabulary holds only the byte symbols the corpus uses (GPT-2 keeps all 256): a table of a
few dozen rows can be shown by hand. A byte of a later text that the corpus never had is refused
by name.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from functools import cache

from .errors import TextError
from .text import END, START, Vocab

DEFAULT_MERGES, MAX_MERGES = 20, 1000
SHOWN_PAIRS = 6  # the counts shown before each merge: the winner and the pairs behind it
_CONTRACTIONS = ("'s", "'t", "'re", "'ve", "'m", "'ll", "'d")
# GPT-2's split over each character's class (L letter, N number, O other, space, w other white
# space): ' ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+' without a Unicode regex library.
_SPLIT = re.compile(r" ?L+| ?N+| ?O+|[ w]+(?![LNO])|[ w]+")


@cache
def byte_symbols() -> tuple[str, ...]:
    """Byte b → its printable character (GPT-2's bytes_to_unicode)."""
    kept = {*range(0x21, 0x7F), *range(0xA1, 0xAD), *range(0xAE, 0x100)}
    moved = iter(range(0x100, 0x200))
    return tuple(chr(b) if b in kept else chr(next(moved)) for b in range(256))


@cache
def symbol_bytes() -> dict[str, int]:
    """The inverse: a byte symbol → its byte."""
    return {s: b for b, s in enumerate(byte_symbols())}


def _char_class(ch: str) -> str:
    if ch == " ":
        return " "
    if ch.isspace():
        return "w"
    kind = unicodedata.category(ch)[0]
    return kind if kind in "LN" else "O"


def pieces(text: str) -> list[str]:
    """GPT-2's pre-tokenization: the spans no merge crosses ("I know" → "I", " know")."""
    classes, out, i = "".join(map(_char_class, text)), [], 0
    while i < len(text):
        short = next((c for c in _CONTRACTIONS if text.startswith(c, i)), None)
        end = i + len(short) if short else _SPLIT.match(classes, i).end()
        out.append(text[i:end])
        i = end
    return out


def symbols(piece: str) -> list[str]:
    """A piece's UTF-8 bytes, each as its symbol."""
    table = byte_symbols()
    return [table[b] for b in piece.encode("utf-8")]


def text_of(tokens) -> str:
    """Tokens back to text: their symbols' bytes, read as UTF-8 (a character cut in two by the
    end of a generation shows as �)."""
    table = symbol_bytes()
    return bytes(table[s] for token in tokens for s in token).decode("utf-8", "replace")


def corpus_words(lines) -> Counter:
    """Every piece of every line (NFC) and how often it occurs, in order of first appearance."""
    return Counter(p for line in lines for p in pieces(unicodedata.normalize("NFC", line)))


def merge_pair(seq: list[str], a: str, b: str) -> list[str]:
    """Every a b in ``seq`` as one symbol, left to right (a a a with a+a → aa a)."""
    out, i = [], 0
    while i < len(seq):
        if i + 1 < len(seq) and seq[i] == a and seq[i + 1] == b:
            out.append(a + b)
            i += 2
        else:
            out.append(seq[i])
            i += 1
    return out


def _pair_counts(seqs: list[list[str]], freqs: list[int]) -> Counter:
    counts: Counter = Counter()
    for seq, f in zip(seqs, freqs, strict=True):
        for pair in zip(seq, seq[1:], strict=False):
            counts[pair] += f
    return counts


def learn(lines, merges: int) -> dict:
    """The merges learnt from ``lines`` (at most ``merges``: fewer when no pair is left), with
    what each panel shows, JSON-able: ``alphabet`` (byte symbols by code point), ``words``
    ([piece, count, its symbols], first appearance), ``merges`` (each: ``pair``, ``count``, ``top``
    [[a, b, count], …] the leading pairs before it, ``ties`` how many others had its count,
    ``token``, ``reads``: the
    characters its bytes spell, if whole and beyond ASCII), ``asked``."""
    words = corpus_words(lines)
    seqs, freqs = [symbols(w) for w in words], list(words.values())
    alphabet = sorted({s for seq in seqs for s in seq}, key=ord)
    rank = {s: i for i, s in enumerate(alphabet)}
    steps = []
    for _ in range(merges):
        counts = _pair_counts(seqs, freqs)
        if not counts:
            break
        order = sorted(counts, key=lambda p: (-counts[p], rank[p[0]], rank[p[1]]))
        (a, b), best = order[0], counts[order[0]]
        steps.append({"pair": [a, b], "count": best, "token": a + b, "reads": _reads(a + b),
                      "top": [[x, y, counts[(x, y)]] for x, y in order[:SHOWN_PAIRS]],
                      "ties": sum(1 for p in order[1:] if counts[p] == best)})
        rank.setdefault(a + b, len(rank))  # a token made twice keeps its first id
        seqs = [merge_pair(seq, a, b) for seq in seqs]
    return {"asked": merges, "alphabet": alphabet, "merges": steps,
            "words": [[w, n, "".join(symbols(w))] for w, n in words.items()]}


def _reads(token: str) -> str:
    """The text a token's bytes spell when they are whole UTF-8 characters beyond ASCII (a
    Chinese character put back together), else ""."""
    raw = bytes(symbol_bytes()[s] for s in token)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return ""
    return "" if text.isascii() else text


def segment(text: str, merges: list[tuple[str, str]]) -> dict:
    """``text`` split, as symbols, then merged: each step the earliest-learnt pair present
    anywhere (GPT-2's rule, word by word: no merge crosses two pieces), merged everywhere.
    Returns ``pieces``, ``symbols`` (before any merge), ``steps`` ([{rank (1 = first learnt),
    pair, token, tokens after}]) and ``tokens``."""
    rank = {tuple(p): r for r, p in reversed(list(enumerate(merges)))}
    parts = pieces(unicodedata.normalize("NFC", text))
    seqs = [symbols(p) for p in parts]
    start, steps = [s for seq in seqs for s in seq], []
    while True:
        present = {p for seq in seqs for p in zip(seq, seq[1:], strict=False) if p in rank}
        if not present:
            break
        a, b = min(present, key=rank.__getitem__)
        seqs = [merge_pair(seq, a, b) for seq in seqs]
        steps.append({"rank": rank[(a, b)] + 1, "pair": [a, b], "token": a + b,
                      "tokens": [s for seq in seqs for s in seq]})
    return {"pieces": parts, "symbols": start, "steps": steps,
            "tokens": [s for seq in seqs for s in seq]}


def _merged(seq: list[str], ranks: dict) -> list[str]:
    """One piece's symbols merged by the merges' ranks, the earliest-learnt pair first."""
    while len(seq) > 1:
        present = [p for p in zip(seq, seq[1:], strict=False) if p in ranks]
        if not present:
            break
        a, b = min(present, key=ranks.__getitem__)
        seq = merge_pair(seq, a, b)
    return seq


class BpeVocab(Vocab):
    """A vocabulary of byte symbols and merged tokens (then the specials), with its merges:
    ``tokenize`` segments a text by them (see the module's docstring)."""

    FIELDS = ("words", "specials", "tokenizer", "merges")

    def __init__(self, words: tuple[str, ...], specials: tuple[str, ...] = (START, END),
                 tokenizer: str = "bpe", merges: tuple[tuple[str, str], ...] = ()):
        self._set(words=tuple(words), specials=tuple(specials), tokenizer="bpe",
                  merges=tuple((str(a), str(b)) for a, b in merges))
        known = set(self.words)
        odd = next((m for m in self.merges if not {m[0], m[1], m[0] + m[1]} <= known), None)
        if odd is not None:
            raise TextError(f"the merge {odd[0]!r} + {odd[1]!r} makes a token the vocabulary "
                            f"lacks: its merges and tokens do not belong together")

    @classmethod
    def learnt(cls, lines, merges: int = DEFAULT_MERGES) -> BpeVocab:
        """The vocabulary ``merges`` merges on ``lines`` make."""
        told = learn(lines, merges)
        made = [m["token"] for m in told["merges"]]
        words = list(dict.fromkeys([*told["alphabet"], *made]))
        return cls(tuple(words), (START, END), "bpe",
                   tuple(tuple(m["pair"]) for m in told["merges"]))

    def tokenize(self, sentence: str) -> list[str]:
        """``segment``'s tokens, each piece's merges worked out once and kept (no merge crosses
        two pieces, so each piece merges alone, its earliest-learnt pair first): a corpus of
        many lines is read in seconds."""
        done = self.__dict__.get("_pieces")
        if done is None:
            done = {}
            object.__setattr__(self, "_pieces", done)
            object.__setattr__(self, "_ranks", {p: r for r, p in reversed(list(
                enumerate(self.merges)))})
        out = []
        for piece in pieces(unicodedata.normalize("NFC", sentence)):
            if piece not in done:
                done[piece] = _merged(symbols(piece), self.__dict__["_ranks"])
            out += done[piece]
        return out

    def encode(self, sentence: str, role: str = "sentence") -> list[int]:
        """Ids of a text's tokens; a byte the corpus never had is an error that names it."""
        index = self._index()
        unseen = [s for s in dict.fromkeys(self.tokenize(sentence)) if s not in index]
        if unseen:
            shown = ", ".join(f"{s!r} (byte {symbol_bytes()[s]:#04x})" for s in unseen[:4])
            raise TextError(f"the {role} has byte(s) the corpus never had: {shown}; a byte-level "
                            f"vocabulary here holds only the bytes of its corpus: add a line "
                            f"with these characters to the corpus")
        return super().encode(sentence, role)

    def joined(self, tokens) -> str:
        return text_of(tokens)
