"""Choosing the next token from the logits, every intermediate kept (for `generate` and the
walk's panels alike).

    z = logits / T  →  p = softmax(z)  →  sort p descending (ties: the lower id first)
      →  keep the first k  →  keep the shortest prefix whose cumulative p reaches top-p
      (the token that crosses top-p is kept)  →  q = the kept p renormalised to sum 1
      →  u ~ U[0, 1) (one draw of the generator)  →  the first kept token whose cumulative q
      exceeds u

T = 0 is greedy: the most likely token (the lowest id among equals), and no draw is made, so
a greedy step leaves the generator where it was. Note: top-p is measured on the whole
distribution at temperature T, after top-k has cut it (Hugging Face's warpers renormalise
between the two; the order here is the one listed above).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...errors import HandformerError


@dataclass(frozen=True)
class Sampled:
    """One choice and how it was made. Arrays over the sorted order: ``order`` the token ids,
    ``sorted_p`` their p, ``cumulative`` the running sum of ``sorted_p``; over the kept
    prefix: ``kept`` (its length), ``q`` the renormalised p and ``q_cumulative``; ``u`` the
    uniform number drawn (None when greedy); ``token`` the choice and ``rank`` its place in
    ``order``."""

    temperature: float
    top_k: int | None
    top_p: float | None
    scaled: np.ndarray  # logits / T (the logits themselves when greedy)
    p: np.ndarray  # softmax(scaled), by token id
    order: np.ndarray
    sorted_p: np.ndarray
    cumulative: np.ndarray
    kept_k: int  # after top-k
    kept: int  # after top-p too
    q: np.ndarray
    q_cumulative: np.ndarray
    u: float | None
    token: int
    rank: int


def check_options(temperature: float, top_k: int | None, top_p: float | None) -> None:
    """Refuse what samples nothing: a negative temperature, k below 1, p outside (0, 1]."""
    if not temperature >= 0:
        raise HandformerError(f"--temperature must be 0 (greedy) or more, got {temperature}")
    if top_k is not None and top_k < 1:
        raise HandformerError(f"--top-k must be at least 1, got {top_k}")
    if top_p is not None and not 0 < top_p <= 1:
        raise HandformerError(f"--top-p must be in (0, 1] (the share of probability kept), "
                              f"got {top_p}")


def softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max())
    return e / e.sum()


def sample(logits, temperature: float = 0.0, top_k: int | None = None,
           top_p: float | None = None, rng: np.random.Generator | None = None) -> Sampled:
    """The next token from one row of logits, as the module's docstring lists the steps; ``rng``
    is drawn from once when T > 0 (and never when greedy)."""
    check_options(temperature, top_k, top_p)
    logits = np.asarray(logits, dtype=np.float64)
    greedy = temperature == 0
    with np.errstate(over="ignore"):  # a tiny T: huge ratios, shown as they are
        scaled = logits if greedy else logits / temperature
        # softmax(z / T) = softmax((z − max z) / T): the largest logit's 0 stays 0 for any T,
        # the others go to −∞ rather than the largest few to +∞ together
        p = softmax(logits if greedy else (logits - logits.max()) / temperature)
    order = np.argsort(-p, kind="stable")  # stable: equal p keep ascending ids
    sorted_p = p[order]
    cumulative = np.cumsum(sorted_p)
    if greedy:
        kept_k = kept = 1
    else:
        kept_k = len(p) if top_k is None else min(top_k, len(p))
        kept = kept_k if top_p is None else _reaching(cumulative[:kept_k], top_p)
    q = sorted_p[:kept] / sorted_p[:kept].sum()
    q_cumulative = np.cumsum(q)
    u = None if greedy else float(rng.random())
    rank = 0 if greedy else _first_above(q_cumulative, u)
    return Sampled(temperature, top_k, top_p, scaled, p, order, sorted_p, cumulative, kept_k,
                   kept, q, q_cumulative, u, int(order[rank]), rank)


def _reaching(cumulative: np.ndarray, top_p: float) -> int:
    """The length of the shortest prefix whose cumulative p reaches top_p (all of it when
    none does: the sum of the kept p may round below 1)."""
    reached = np.flatnonzero(cumulative >= top_p)
    return int(reached[0]) + 1 if reached.size else len(cumulative)


def _first_above(q_cumulative: np.ndarray, u: float) -> int:
    """The first place whose cumulative q exceeds u; the last one when round-off leaves the
    total a hair below a u near 1."""
    above = np.flatnonzero(q_cumulative > u)
    return int(above[0]) if above.size else len(q_cumulative) - 1
