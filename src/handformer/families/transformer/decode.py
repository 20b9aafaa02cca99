"""Inference, one new token at a time: greedy search and beam search, every step on a tape.

The encoder runs once (its own tape). Each decoding step is a tape of the decoder for the
tokens chosen so far, ``<start> y_1 … y_t`` under the causal mask, whose last position's
probabilities choose y_{t+1}; decoding stops at ``<end>`` or at the length limit (the tutorial's
step 13). By default a step computes only the newest position, reading the earlier positions'
keys and values from a cache (families/transformer/incremental.py); ``cache=False`` runs the decoder over the
whole prefix every step, as the tutorial describes. Both give the same tokens and, to round-off,
the same probabilities (tests/test_decode.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ...engine.tape import Tape
from ...errors import HandformerError
from ...limits import check_walk
from ...text import END, START, UNK, Sides, Vocab
from .config import Config
from .incremental import KVCache
from .model import Masks, causal_mask, encode, generator
from .model import decode as decoder


@dataclass
class DecodeStep:
    """One new token: the tape that chose it, the top candidates, and what was kept."""

    tape: Tape
    prefixes: list[list[int]]  # the decoder input of each hypothesis (one for greedy)
    top: list[list[tuple[int, float]]]  # per hypothesis: (id, probability), best first
    chosen: list[tuple[int, int, float]]  # (hypothesis, id, score) kept after this step


@dataclass
class Translation:
    ids: list[int]  # without <start> and <end>
    tokens: list[str]
    score: float  # log-probability (beam: divided by the length penalty)
    encoder: Tape
    steps: list[DecodeStep] = field(default_factory=list)
    beam: int = 1
    alpha: float = 0.0
    memory: str = ""  # the encoder tape's output step
    finished: bool = True  # False: stopped at the length limit without <end>
    cached: bool = True  # decoded with the key/value cache (families/transformer/incremental.py)


def length_penalty(length: int, alpha: float) -> float:
    """GNMT: lp(Y) = ((5 + |Y|) / 6)^α; the beam's score is log P(Y) / lp(Y)."""
    return ((5.0 + length) / 6.0) ** alpha


def run_encoder(params, cfg: Config, src_ids, record: bool) -> tuple[Tape, str]:
    tape = Tape(params, record=record)
    memory = encode(tape, cfg, tape.constant("src.ids", np.asarray(src_ids)), None)
    return tape, memory


def decoder_step(params, cfg: Config, memory: np.ndarray, memory_name: str, prefixes,
                 record: bool) -> tuple[Tape, np.ndarray]:
    """The decoder over each prefix (B, t); returns the tape and p(next token) of shape (B, V)."""
    tape = Tape(params, record=record)
    ids = np.asarray(prefixes)
    tape.constant(memory_name, np.broadcast_to(memory, (len(ids), *memory.shape)))
    masks = Masks(None, causal_mask(ids.shape[-1]))
    y = decoder(tape, cfg, tape.constant("tgt.ids", ids), memory_name, masks)
    generator(tape, y, tied=cfg.tie_embeddings)
    return tape, tape["generator.probs"][:, -1, :]


def top_k(p: np.ndarray, k: int) -> list[tuple[int, float]]:
    order = np.argsort(-p, kind="stable")[:k]
    return [(int(i), float(p[i])) for i in order]


class Recompute:
    """No cache: every step runs the decoder over each whole prefix (the tutorial's step 13)."""

    def __init__(self, params, cfg: Config, memory: np.ndarray, memory_name: str, record: bool):
        self.params, self.cfg, self.memory, self.memory_name = params, cfg, memory, memory_name
        self.record = record

    def step(self, prefixes) -> tuple[Tape, np.ndarray]:
        return decoder_step(self.params, self.cfg, self.memory, self.memory_name, prefixes,
                            self.record)

    def reorder(self, rows) -> None:
        """Nothing is kept between steps, so nothing follows the hypotheses."""


class Cached:
    """The key/value cache (families/transformer/incremental.py): each step computes the newest position
    only; the same numbers as Recompute, up to round-off."""

    def __init__(self, params, cfg: Config, memory: np.ndarray, memory_name: str, record: bool):
        self.cache, self.record = KVCache(params, cfg, memory), record

    def step(self, prefixes) -> tuple[Tape, np.ndarray]:
        return self.cache.step([prefix[-1] for prefix in prefixes], self.record)

    def reorder(self, rows) -> None:
        self.cache.reorder(rows)


def translate(params, cfg: Config, vocab: Vocab | Sides, src: str, beam: int = 1,
              alpha: float = 0.0, max_length: int | None = None, record: bool = False, k: int = 5,
              cache: bool = True) -> Translation:
    """Greedy search (beam 1) or beam search with the GNMT length penalty α; ``cache`` False
    recomputes every prefix in full at every step. The sentence is read with the source's
    vocabulary, the words chosen from the target's."""
    if beam < 1:
        raise HandformerError(f"the beam width must be at least 1, got {beam}")
    source, target = vocab.source, vocab.target
    unknown = source.unknown(src)
    if unknown and UNK not in source.specials:
        raise HandformerError(
            f"the model never saw the word(s) {', '.join(map(repr, unknown))}: it knows only "
            f"the {len(source.words)} words of its training pairs")
    src_ids = source.encode(src, "sentence to translate")
    if len(src_ids) > cfg.max_len:
        raise HandformerError(f"the sentence has {len(src_ids)} words; this model takes at "
                              f"most {cfg.max_len}")
    limit = min(max_length or len(src_ids) * 2 + 10, cfg.max_len - 1)
    check_walk(cfg, len(src_ids), limit + 1, len(target), beam * (limit if record else 1))
    enc_tape, memory_name = run_encoder(params, cfg, src_ids, record)
    stepper = (Cached if cache else Recompute)(params, cfg, enc_tape[memory_name], memory_name,
                                               record)
    if beam == 1:
        ids, score, steps, finished = _greedy(stepper, target, limit, k)
    else:
        ids, score, steps, finished = _beam(stepper, target, beam, alpha, limit, k)
    return Translation(ids, target.decode(ids), score, enc_tape, steps, beam, alpha, memory_name,
                       finished, cache)


def _greedy(stepper, vocab, limit, k):
    start, end = vocab.id(START), vocab.id(END)
    prefix, score, steps = [start], 0.0, []
    for _ in range(limit):
        tape, p = stepper.step([prefix])
        best = int(np.argmax(p[0]))
        score += math.log(max(float(p[0, best]), 1e-300))
        steps.append(DecodeStep(tape, [list(prefix)], [top_k(p[0], k)], [(0, best, score)]))
        if best == end:
            return prefix[1:], score, steps, True
        prefix.append(best)
    return prefix[1:], score, steps, False


def _beam(stepper, vocab, beam, alpha, limit, k):
    """Keep the ``beam`` best prefixes by log-probability; a finished one is scored
    log P / lp(length); stop when ``beam`` have finished or at the limit."""
    start, end = vocab.id(START), vocab.id(END)
    alive, finished, steps = [([start], 0.0)], [], []
    for _ in range(limit):
        tape, p = stepper.step([a[0] for a in alive])
        logp = np.log(np.maximum(p, 1e-300))
        candidates = [(score + logp[h, w], h, w) for h, (_, score) in enumerate(alive)
                      for w, _ in top_k(p[h], beam)]
        candidates.sort(key=lambda c: -c[0])
        kept, chosen, parents = [], [], []
        for total, h, w in candidates[:beam]:
            chosen.append((h, w, float(total)))
            prefix = alive[h][0] + [w]
            if w == end:
                finished.append((prefix, total / length_penalty(len(prefix) - 1, alpha)))
            else:
                kept.append((prefix, float(total)))
                parents.append(h)
        steps.append(DecodeStep(tape, [a[0] for a in alive], [top_k(row, k) for row in p],
                                chosen))
        alive = kept
        if len(finished) >= beam or not alive:
            break
        stepper.reorder(parents)
    done = bool(finished)
    if not finished:
        finished = [(a[0], a[1] / length_penalty(len(a[0]) - 1, alpha)) for a in alive]
    best, score = max(finished, key=lambda f: f[1])
    ids = best[1:-1] if best[-1] == end else best[1:]
    return ids, float(score), steps, done
