"""Greedy translation of many sentences at once (the BLEU of an epoch, `evaluate`): the
encoder once per batch, then each step computes only the newest position (the key/value cache
of incremental.py). The sentence-pair services reach it as the family's ``pairs.translate_all``."""

from __future__ import annotations

import numpy as np

from ...engine.tape import Tape
from ...text import END, PAD, START, Sides, Vocab
from ...tokenize import target_text
from .config import Config
from .incremental import KVCache
from .model import encode, make_masks


def greedy_batch(params, cfg: Config, vocab: Vocab | Sides, sources: list[list[int]],
                 batch_size: int = 64) -> list[list[int]]:
    """The greedy translation (ids, without <start>/<end>) of every source, batch by batch,
    each step computing only the newest position (incremental.py's key/value cache)."""
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
    return [target_text(vocab.target, vocab.target.decode(ids))
            for ids in greedy_batch(params, cfg, vocab, sources)]
