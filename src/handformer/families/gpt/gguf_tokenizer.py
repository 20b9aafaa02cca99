"""A GGUF file's own tokenizer: byte-level BPE (GPT-2's) from its vocabulary and merge table
(``tokenizer.ggml.tokens`` and ``tokenizer.ggml.merges``), as transformers builds it from the
same file (``AutoTokenizer.from_pretrained(folder, gguf_file=…)``).

1. The control tokens (``<|im_start|>``, ``<|im_end|>``, ``<|endoftext|>``: token type 3) are
   matched whole in the text, before anything else.
2. The rest is split as GPT-2 splits (bpe.pieces: contractions, a run of letters, digits or
   marks with the one space before it, runs of white space; SmolLM2's file names the "smollm"
   pre-tokenizer, which transformers reads as GPT-2's), each piece turned into byte symbols
   (bpe.symbols: a space is Ġ).
3. In each piece, the adjacent pair with the earliest merge in the table is merged, again and
   again until no pair of the piece is in the table (GPT-2's rule).
"""

from __future__ import annotations

import re
from functools import cached_property

from ...bpe import byte_symbols, merge_pair, pieces, segment, symbols, text_of
from ...errors import PretrainedError, TextError
from ...text import Vocab

CONTROL = 3  # llama.cpp's token type of a control token


class GgufVocab(Vocab):
    """Every token of the file in its id order (``words``; no specials of ours), its merges
    and its control tokens."""

    FIELDS = ("words", "specials", "tokenizer", "merges", "control", "end_id")

    def __init__(self, words: tuple[str, ...], merges: tuple[tuple[str, str], ...],
                 control: tuple[str, ...], end_id: int | None = None):
        self._set(words=tuple(words), specials=(), tokenizer="gguf-bpe",
                  merges=tuple(merges), control=tuple(control),
                  end_id=None if end_id is None else int(end_id))

    @classmethod
    def from_fields(cls, fields: dict) -> GgufVocab:
        """From a GGUF file's metadata fields (gguf_model.fields_of)."""
        if fields.get("tokenizer.ggml.model") != "gpt2":
            raise PretrainedError(f"the GGUF file's tokenizer is "
                                  f"{fields.get('tokenizer.ggml.model')!r}; only byte-level BPE "
                                  f"(gpt2) is read")
        tokens = [str(t) for t in fields["tokenizer.ggml.tokens"]]
        merges = tuple(tuple(str(m).split(" ", 1)) for m in fields["tokenizer.ggml.merges"])
        alphabet = set(byte_symbols())
        kinds = fields.get("tokenizer.ggml.token_type") or [1] * len(tokens)
        control = tuple(t for t, kind in zip(tokens, kinds, strict=True)
                        if int(kind) == CONTROL and set(t) <= alphabet)
        return cls(tuple(tokens), merges, control, fields.get("tokenizer.ggml.eos_token_id"))

    @cached_property
    def _rank(self) -> dict[tuple[str, str], int]:
        return {pair: r for r, pair in reversed(list(enumerate(self.merges)))}

    @cached_property
    def _control_split(self) -> re.Pattern:
        return re.compile("(" + "|".join(map(re.escape, sorted(self.control, key=len,
                                                                reverse=True))) + ")")

    def chunks(self, text: str) -> list[str]:
        """The text cut around its control tokens (kept as chunks of their own)."""
        if not self.control:
            return [text] if text else []
        return [c for c in self._control_split.split(text) if c]

    def _piece_tokens(self, piece: str) -> list[str]:
        seq, rank = symbols(piece), self._rank
        while len(seq) > 1:
            pairs = [(rank.get(p), i) for i, p in enumerate(zip(seq, seq[1:], strict=False))]
            best = min(((r, i) for r, i in pairs if r is not None), default=None)
            if best is None:
                break
            a, b = seq[best[1]], seq[best[1] + 1]
            seq = merge_pair(seq, a, b)
        return seq

    def tokenize(self, sentence: str) -> list[str]:
        out: list[str] = []
        control = set(self.control)
        for chunk in self.chunks(sentence):
            if chunk in control:
                out.append(chunk)
                continue
            for piece in pieces(chunk):
                out += self._piece_tokens(piece)
        return out

    def encode(self, sentence: str, role: str = "text") -> list[int]:
        tokens = self.tokenize(sentence)
        if not tokens:
            raise TextError(f"the {role} is empty: give at least one word")
        index = self._index()
        missing = [t for t in tokens if t not in index]
        if missing:
            raise TextError(f"the {role} makes token(s) the model's vocabulary lacks: "
                            f"{', '.join(map(repr, missing[:4]))}")
        return [index[t] for t in tokens]

    def joined(self, tokens) -> str:
        control = set(self.control)
        return "".join(t if t in control else text_of([t]) for t in tokens)

    def merges_fired(self, text: str) -> dict:
        """What the page shows: ``text`` segmented by the model's own merge table, each merge
        that fires in order (bpe.segment: the earliest merge present anywhere first)."""
        return segment(text, list(self.merges))
