"""Greedy translation of many sentences at once, and their scores against the references.

The scores are the ones the field reports, computed by sacrebleu: its default corpus BLEU
(cased; its ``13a`` tokenizer for English targets, its ``zh`` tokenizer, every Chinese character
a word, for Chinese ones), so the score does not depend on how handformer's own tokenizer cut
the words; chrF2 (character 6-grams, β 2); and, beside them, the lower-cased BLEU, which
forgives a capital letter that a lower-cased vocabulary cannot produce.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..config import Config
from ..engine.tape import Tape
from ..errors import HandformerError
from ..families.transformer.incremental import KVCache
from ..families.transformer.model import encode, make_masks
from ..text import END, PAD, START, Sides, Vocab
from ..tokenize import detokenize


def greedy_batch(params, cfg: Config, vocab: Vocab | Sides, sources: list[list[int]],
                 batch_size: int = 64) -> list[list[int]]:
    """The greedy translation (ids, without <start>/<end>) of every source, batch by batch,
    each step computing only the newest position (the key/value cache of families/transformer/incremental.py)."""
    out = []
    for lo in range(0, len(sources), batch_size):
        out += _greedy_chunk(params, cfg, vocab, sources[lo:lo + batch_size])
    return out


def _greedy_chunk(params, cfg: Config, vocab: Vocab | Sides, sources) -> list[list[int]]:
    """Source ids padded with the source's <pad>; the prefix holds the target's ids."""
    target = vocab.target
    pad, start, end = target.id(PAD), target.id(START), target.id(END)
    n = max(len(s) for s in sources)
    src = np.full((len(sources), n), vocab.source.id(PAD), dtype=np.int64)
    for row, ids in enumerate(sources):
        src[row, :len(ids)] = ids
    src_mask = make_masks(np.arange(n) >= np.array([len(s) for s in sources])[:, None],
                          None, 1).src
    tape = Tape(params, record=False)
    memory = tape[encode(tape, cfg, tape.constant("src.ids", src), src_mask)]
    cache = KVCache(params, cfg, memory, src_mask)
    prefix = np.full((len(sources), 1), start, dtype=np.int64)
    done = np.zeros(len(sources), dtype=bool)
    for _ in range(min(2 * n + 10, cfg.max_len - 1)):
        _, p = cache.step(prefix[:, -1])
        best = np.where(done, pad, p.argmax(axis=-1))
        prefix = np.concatenate([prefix, best[:, None]], axis=1)
        done |= best == end
        if done.all():
            break
    return [_until_end(row[1:], end, pad) for row in prefix.tolist()]


def _until_end(ids: list[int], end: int, pad: int) -> list[int]:
    return [i for i in (ids[:ids.index(end)] if end in ids else ids) if i != pad]


def translate_all(params, cfg: Config, vocab: Vocab | Sides, sentences: list[str]) -> list[str]:
    """Greedy translations, detokenized for reading (and for BLEU)."""
    sources = [vocab.source.encode(s, "source sentence")[:cfg.max_len] for s in sentences]
    return [detokenize(vocab.target.decode(ids))
            for ids in greedy_batch(params, cfg, vocab, sources)]


@dataclass(frozen=True)
class Scores:
    """sacrebleu's default BLEU (cased), chrF2 and the lower-cased BLEU, each 0–100, and the
    BLEU tokenizer they were computed with."""
    bleu: float
    chrf: float
    bleu_lower: float
    tokenize: str

    def as_stats(self, prefix: str) -> dict:
        """The three numbers under a run's history names (``val_bleu``, ``val_chrf``, …)."""
        return {f"{prefix}bleu": self.bleu, f"{prefix}chrf": self.chrf,
                f"{prefix}bleu_lower": self.bleu_lower}


def _sacrebleu():
    try:
        import sacrebleu
    except ImportError:
        raise HandformerError("BLEU needs the sacrebleu package: "
                              "pip install -e '.[corpus]' in handformer's checkout") from None
    return sacrebleu


def bleu_tokenizer(target: str) -> str:
    """sacrebleu's tokenizer for a target language: 'zh' splits Chinese by character."""
    return "zh" if target == "zh" else "13a"


def corpus_bleu(hypotheses: list[str], references: list[str], target: str = "en",
                lowercase: bool = False) -> float:
    """sacrebleu's corpus BLEU (0–100), cased unless ``lowercase``."""
    return _sacrebleu().corpus_bleu(hypotheses, [references], tokenize=bleu_tokenizer(target),
                                    lowercase=lowercase).score


def corpus_scores(hypotheses: list[str], references: list[str], target: str = "en") -> Scores:
    """BLEU (cased), chrF2 and lower-cased BLEU of the hypotheses against one reference each."""
    chrf = _sacrebleu().corpus_chrf(hypotheses, [references]).score
    return Scores(corpus_bleu(hypotheses, references, target), chrf,
                  corpus_bleu(hypotheses, references, target, lowercase=True),
                  bleu_tokenizer(target))


def scores_of(params, cfg: Config, vocab: Vocab | Sides, pairs, source: str) -> Scores:
    """The scores of the model's greedy translations of ``pairs``' sources against their
    targets (NaN for no pairs)."""
    from .datasets import target_language

    if not pairs:
        nan = float("nan")
        return Scores(nan, nan, nan, bleu_tokenizer(target_language(source)))
    hyps = translate_all(params, cfg, vocab, [s for s, _ in pairs])
    return corpus_scores(hyps, [t for _, t in pairs], target_language(source))


def bleu_of(params, cfg: Config, vocab: Vocab | Sides, pairs, source: str) -> float:
    """The cased BLEU of the model's greedy translations of ``pairs`` (NaN for no pairs)."""
    return scores_of(params, cfg, vocab, pairs, source).bleu
