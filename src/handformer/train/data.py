"""Training pairs: the tutorial's lines cut at the first comma, or a TSV file; padded batches.

A batch holds, for B pairs padded to the longest in the batch, the source ids, the decoder
input ``<start> y_1 … y_n`` and its target ``y_1 … y_n <end>`` (teacher forcing, the tutorial's step 11),
the padding masks, and loss weights that are 0 at pad positions.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..text import END, PAD, START, TUTORIAL_DATASET, UNK, Sides, TextError, Vocab, tokenize

SPECIALS = (START, END, PAD)
MIN_FOR_VALIDATION = 20  # below this every pair is needed for training
MIN_FOR_TEST = 100  # from here on a test tenth is held out too
BUCKET = 50  # batches whose pairs are sorted by length together (similar lengths, less padding)


def default_pairs() -> list[tuple[str, str]]:
    """Each tutorial line split at its first comma (clause → rest); no comma: itself → itself."""
    return pairs_from_lines(TUTORIAL_DATASET)


def pairs_from_lines(lines) -> list[tuple[str, str]]:
    """Each line split at its first comma (clause → rest); no comma: itself → itself."""
    pairs = []
    for line in lines:
        src, comma, rest = line.partition(",")
        pairs.append((src.strip(), rest.strip() if comma else src.strip()))
    return pairs


def read_pairs(path: str | Path) -> list[tuple[str, str]]:
    """UTF-8, one pair per line: source TAB target. Blank lines and '#' comments are skipped."""
    from ..files.io import read_text

    pairs = parse_pairs(read_text(path, "pairs file", TextError), str(path))
    if not pairs:
        raise TextError(f"pairs file {str(path)!r} has no pairs")
    return pairs


def parse_pairs(text: str, where: str = "pairs") -> list[tuple[str, str]]:
    """'source<TAB>target' lines (maybe none); ``where`` names the text in errors."""
    pairs = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 2 or not tokenize(parts[0]) or not tokenize(parts[1]):
            raise TextError(f"{where}:{number}: expected 'source<TAB>target' with words on both "
                            f"sides, got {line[:60]!r}")
        pairs.append((parts[0].strip(), parts[1].strip()))
    return pairs


def pairs_vocab(pairs, tokenizer: str = "tutorial", max_size: int | None = None,
                min_count: int = 1) -> Vocab:
    """Words by first appearance over the tutorial dataset's order, then <start> <end> <pad>
    (and <unk> for any tokenizer but the tutorial's: a real corpus has words a test sentence
    never saw). For the default pairs this keeps the tutorial's ids (<start> 23, <end> 24).
    """
    specials = SPECIALS if tokenizer == "tutorial" else (*SPECIALS, UNK)
    return Vocab.from_corpus([s for pair in pairs for s in pair], specials, tokenizer,
                             max_size, min_count)


def sides_vocab(pairs, tokenizer: str = "tutorial", max_size: int | None = None,
                min_count: int = 1) -> Sides:
    """One vocabulary per side: the source sentences' words, and the target sentences'; each
    with pairs_vocab's specials (``max_size`` bounds each side). A lower-casing tokenizer's
    target learns its sentences' truecaser (handformer.truecase)."""
    specials = SPECIALS if tokenizer == "tutorial" else (*SPECIALS, UNK)
    source, target = (Vocab.from_corpus([pair[side] for pair in pairs], specials, tokenizer,
                                        max_size, min_count) for side in (0, 1))
    if tokenizer != "tutorial":  # the tutorial's lines keep the tutorial's lower case
        from ..truecase import with_cases

        target = with_cases(target, [t for _, t in pairs])
    return Sides(source, target)


@dataclass
class Batch:
    src: np.ndarray  # (B, n) ids
    src_pad: np.ndarray  # (B, n) True at pads
    tgt_in: np.ndarray  # (B, m) <start> y
    tgt_out: np.ndarray  # (B, m) y <end>
    tgt_pad: np.ndarray  # (B, m)
    weights: np.ndarray  # (B, m) 1 at real targets, 0 at pads

    @property
    def tokens(self) -> int:
        return int(self.weights.sum())


def encode_pairs(vocab: Vocab | Sides, pairs, max_len: int) -> list[tuple[list[int], list[int]]]:
    """Ids of every pair; a sentence longer than the model's max length is an error."""
    encoded = []
    for src, tgt in pairs:
        s = vocab.source.encode(src, "source sentence")
        t = vocab.target.encode(tgt, "target sentence")
        if len(s) > max_len or len(t) + 1 > max_len:
            raise TextError(f"the pair {src!r} → {tgt!r} is longer than max_len {max_len}")
        encoded.append((s, t))
    return encoded


def make_batch(vocab: Vocab | Sides, encoded, dtype="float64", pad: int | None = None) -> Batch:
    """Pad a list of (src ids, tgt ids) to rectangles; the masks mark the pads (from the
    lengths, so ``pad``, by default each side's <pad> id, may be any id: the walk's vocabulary
    has none)."""
    src_pad_id = vocab.source.id(PAD) if pad is None else pad
    tgt_pad_id = vocab.target.id(PAD) if pad is None else pad
    start, end = vocab.target.id(START), vocab.target.id(END)
    n = max(len(s) for s, _ in encoded)
    m = max(len(t) for _, t in encoded) + 1
    b = len(encoded)
    src = np.full((b, n), src_pad_id, dtype=np.int64)
    tgt_in, tgt_out = (np.full((b, m), tgt_pad_id, dtype=np.int64) for _ in range(2))
    for row, (s, t) in enumerate(encoded):
        src[row, :len(s)] = s
        tgt_in[row, :len(t) + 1] = [start, *t]
        tgt_out[row, :len(t) + 1] = [*t, end]
    src_pad = np.arange(n) >= np.array([len(s) for s, _ in encoded])[:, None]
    tgt_pad = np.arange(m) > np.array([len(t) for _, t in encoded])[:, None]
    return Batch(src, src_pad, tgt_in, tgt_out, tgt_pad, (~tgt_pad).astype(dtype))


def split(encoded, rng: np.random.Generator, fraction: float = 0.1):
    """(train, validation): a validation tenth, drawn from the seed, once there are enough pairs."""
    train, valid, _ = split3(encoded, rng, fraction, min_for_test=None)
    return train, valid


def split3(items, rng: np.random.Generator, fraction: float = 0.1,
           min_for_test: int | None = MIN_FOR_TEST):
    """(train, validation, test), drawn from the seed: a validation tenth from 20 pairs on,
    and a test tenth too from ``min_for_test`` on (None: never); below 20, all trains."""
    if len(items) < MIN_FOR_VALIDATION:
        return list(items), [], []
    order = rng.permutation(len(items))
    held = max(1, int(len(items) * fraction))
    tested = held if min_for_test is not None and len(items) >= min_for_test else 0
    pick = lambda idx: [items[i] for i in idx]  # noqa: E731
    return pick(order[held + tested:]), pick(order[:held]), pick(order[held:held + tested])


def batch_order(encoded, batch_size: int, rng: np.random.Generator | None,
                by_length: bool = False) -> list[np.ndarray]:
    """Which pairs form each batch. Shuffled by ``rng`` (None: file order); ``by_length`` sorts
    each run of BUCKET batches by length before cutting it, then shuffles the batches, so a
    batch holds sentences of similar length (less padding) in an order still drawn at random."""
    order = np.arange(len(encoded)) if rng is None else rng.permutation(len(encoded))
    if not by_length:
        return [order[lo:lo + batch_size] for lo in range(0, len(order), batch_size)]
    size = np.array([max(len(s), len(t) + 1) for s, t in encoded])
    cut = []
    for lo in range(0, len(order), batch_size * BUCKET):
        chunk = order[lo:lo + batch_size * BUCKET]
        chunk = chunk[np.argsort(size[chunk], kind="stable")]
        cut += [chunk[i:i + batch_size] for i in range(0, len(chunk), batch_size)]
    shuffled = range(len(cut)) if rng is None else rng.permutation(len(cut))
    return [cut[i] for i in shuffled]


def batches(vocab: Vocab, encoded, batch_size: int, rng: np.random.Generator | None,
            dtype="float64", by_length: bool = False):
    """Mini-batches in an order shuffled by ``rng`` (None: in file order)."""
    for idx in batch_order(encoded, batch_size, rng, by_length):
        yield make_batch(vocab, [encoded[i] for i in idx], dtype)


def split_parts(pairs, seed: int, source: str) -> tuple[list, list, list]:
    """Indices of the train / validation / test pairs: by a hash of each source sentence for a
    dataset (datasets.split_of), else drawn from the config's seed (the same pairs always split
    alike)."""
    from .datasets import hash_split, split_of

    if hash_split(source):
        parts = {"train": [], "valid": [], "test": []}
        for i, (src, _) in enumerate(pairs):
            parts[split_of(source, src)].append(i)
        return parts["train"], parts["valid"], parts["test"]
    return split3(range(len(pairs)), np.random.default_rng([seed, 1]))
