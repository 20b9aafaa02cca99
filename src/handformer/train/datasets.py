"""Where training pairs come from: the tutorial's lines, a TSV file, the HSK sentences or
Tatoeba's (train/tatoeba.py).

A source is named by one string, saved in the checkpoint so that --resume and `walk
--checkpoint` find the same pairs again: ``default``, a file path, or ``hsk:zh-en:1-3``.

The HSK pairs are the 4,354 graded sentences of the PyPI package ``hsk-sentences-audio``
(Chinese with an English translation, HSK levels 1–6); its data is licensed CC-BY-SA 4.0, and
wherever handformer shows it, it says so (HSK_CREDIT).
"""

from __future__ import annotations

import json

from ..errors import DatasetError, HandformerError  # noqa: F401  (raised here)
from ..text import TUTORIAL_DATASET
from .data import default_pairs, read_pairs

HSK_CREDIT = ("HSK sentence pairs from the hsk-sentences-audio package (hsk-sentences-audio "
              "contributors), licensed CC-BY-SA 4.0: https://creativecommons.org/licenses/by-sa/4.0/")
HSK_LICENCE = {"name": "hsk-sentences-audio (hsk-sentences-audio contributors)",
               "licence": "CC-BY-SA 4.0", "url": "https://creativecommons.org/licenses/by-sa/4.0/"}
DIRECTIONS = ("zh-en", "en-zh")
DATASETS = ("hsk", "tatoeba")




def parse_levels(text: str) -> tuple[int, ...]:
    """'1-3' → (1, 2, 3); '2' → (2,); '1,4-5' → (1, 4, 5); HSK has levels 1 to 6."""
    levels: set[int] = set()
    try:
        for part in text.split(","):
            lo, _, hi = part.strip().partition("-")
            levels.update(range(int(lo), int(hi or lo) + 1))
    except ValueError:
        raise DatasetError(f"--levels takes levels like 1-3 or 1,4, got {text!r}") from None
    if not levels or min(levels) < 1 or max(levels) > 6:
        raise DatasetError(f"--levels must lie within 1-6 (HSK's levels), got {text!r}")
    return tuple(sorted(levels))


def source_name(dataset: str | None, pairs_file: str | None, direction: str, levels: str,
                simplify: bool = True) -> str:
    """The one string that names where the pairs come from: ``hsk:zh-en:1,2,3``,
    ``tatoeba:zh-en:simplified`` (or ``:as-written``), a file path, or ``default``."""
    if dataset and pairs_file:
        raise DatasetError("give --dataset or --pairs, not both")
    if dataset:
        if direction not in DIRECTIONS:
            raise DatasetError(f"--direction must be zh-en or en-zh, got {direction!r}")
        if dataset == "tatoeba":
            return f"tatoeba:{direction}:{'simplified' if simplify else 'as-written'}"
        span = ",".join(map(str, parse_levels(levels)))
        return f"{dataset}:{direction}:{span}"
    return pairs_file or "default"


def load_pairs(source: str) -> list[tuple[str, str]]:
    """The pairs a source name stands for."""
    if source == "default":
        return default_pairs()
    if source.startswith("hsk:"):
        _, direction, span = source.split(":")
        return hsk_pairs(direction, parse_levels(span))
    if source.startswith("tatoeba:"):
        from .tatoeba import tatoeba_pairs

        _, direction, script = source.split(":")
        return tatoeba_pairs(direction, simplify=script == "simplified")
    return read_pairs(source)


def source_sentences(source: str) -> list[str]:
    """The sentences of the pairs a checkpoint was trained on, for showing: the tutorial's
    dataset, or a named dataset's. A file path stored in a checkpoint is never opened (a crafted
    checkpoint could name any file on this machine): it shows none."""
    if source == "default":
        return list(TUTORIAL_DATASET)
    if not is_dataset(source):
        return []
    try:
        return [s for pair in load_pairs(source) for s in pair]
    except HandformerError:
        return []


def licence_of(source: str) -> dict | None:
    """The data licence to credit wherever a source's sentences are shown (None: nothing to
    credit, e.g. the tutorial's lines or the user's own file)."""
    from .tatoeba import TATOEBA_LICENCE

    if source.startswith("tatoeba:"):
        return dict(TATOEBA_LICENCE)
    return dict(HSK_LICENCE) if source.startswith("hsk:") else None


def credit_of(source: str) -> str | None:
    """The line that credits a dataset's authors and names its licence (None: nothing to
    credit)."""
    from .tatoeba import TATOEBA_CREDIT

    if source.startswith("tatoeba:"):
        return TATOEBA_CREDIT
    return HSK_CREDIT if source.startswith("hsk:") else None


HELD_OUT = {"tatoeba": 25, "hsk": 100}  # per mille of the sentences, for validation and for test


def hash_split(source: str) -> bool:
    """A dataset splits by a hash of each source sentence, not by the seed's permutation."""
    return is_dataset(source)


def split_of(source: str, sentence: str) -> str:
    """'train', 'valid' or 'test' for a pair of a dataset, from its source sentence alone (the
    first 8 bytes of its SHA-256, as a number, mod 1000): the same sentence is always in the
    same part, whatever --levels or --limit loaded, and all its translations with it."""
    import hashlib

    held = HELD_OUT[source.split(":")[0]]
    digest = hashlib.sha256(sentence.encode("utf-8")).digest()
    bucket = int.from_bytes(digest[:8], "big") % 1000
    return "test" if bucket < held else "valid" if bucket < 2 * held else "train"


def is_dataset(source: str) -> bool:
    return source.startswith(tuple(f"{d}:" for d in DATASETS))


def hsk_records() -> list[dict]:
    """Every record of hsk_sentences_audio/data/sentences.json (read, not imported: its loader
    is not needed)."""
    from importlib.resources import files

    try:
        data = files("hsk_sentences_audio").joinpath("data", "sentences.json")
        return json.loads(data.read_text(encoding="utf-8"))
    except ModuleNotFoundError:
        raise DatasetError("--dataset hsk needs the hsk-sentences-audio package: "
                           "pip install -e '.[corpus]' in handformer's checkout") from None


def hsk_pairs(direction: str, levels) -> list[tuple[str, str]]:
    """(Chinese, English) or (English, Chinese) for the records of the given HSK levels, in
    the file's order."""
    pairs = [(r["chinese"].strip(), r["translation"]["en"].strip()) for r in hsk_records()
             if r["hsk_level"] in set(levels)]
    return pairs if direction == "zh-en" else [(en, zh) for zh, en in pairs]


def target_language(source: str) -> str:
    """'zh' when the targets are Chinese (BLEU then splits them by character), else 'en'."""
    return "zh" if source.startswith(("hsk:en-zh", "tatoeba:en-zh")) else "en"


def default_tokenizer(source: str) -> str:
    """The tutorial's rule for its own pairs (its numbers stay identical); characters for the
    Chinese of HSK (1,546 sentences are too few for 2,500 jieba words, most seen once);
    English words with punctuation split off for any other file."""
    if source == "default":
        return "tutorial"
    return "char" if is_dataset(source) else "words"
