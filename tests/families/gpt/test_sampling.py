"""Sampling from first principles (families/gpt/sampling.py): the kept set and its renormalised
distribution worked out by hand for small logits, the draws' frequencies against it, and each
slip a hand-written sampler makes (top-k keeping k + 1, T applied upside down, top-p dropping
the crossing token or cumulating unsorted, a draw not reproducible or made twice) caught."""

import math

import numpy as np
import pytest

from handformer.errors import HandformerError
from handformer.families.gpt.sampling import sample

# p at T = 1 is e^l / Σ e^l; chosen so that the sorted order differs from the id order and two
# tokens tie (ids 1 and 4).
LOGITS = np.array([0.5, 2.0, -1.0, 3.0, 2.0, 0.0])


def by_hand(logits, T):
    """softmax(logits / T) written out term by term."""
    e = [math.exp(x / T) for x in logits]
    return [x / sum(e) for x in e]


def test_greedy_is_the_argmax_with_the_lowest_id_on_ties_and_draws_nothing():
    rng = np.random.default_rng(0)
    assert sample(LOGITS, 0.0, rng=rng).token == 3
    assert sample([1.0, 4.0, 4.0, 0.0], 0.0, rng=rng).token == 1
    assert rng.random() == np.random.default_rng(0).random()  # no draw was made


def test_sorted_descending_ties_by_lower_id():
    s = sample(LOGITS, 1.0, rng=np.random.default_rng(0))
    assert s.order.tolist() == [3, 1, 4, 0, 5, 2]


@pytest.mark.parametrize("T", [0.5, 2.0])
def test_temperature_divides_the_logits(T):
    s = sample(LOGITS, T, rng=np.random.default_rng(0))
    assert s.p == pytest.approx(by_hand(LOGITS, T), abs=1e-15)
    # × T instead of ÷ T would give these, which differ
    assert not np.allclose(s.p, by_hand(LOGITS, 1 / T))


def test_top_k_keeps_exactly_k():
    p = by_hand(LOGITS, 1.0)
    s = sample(LOGITS, 1.0, top_k=2, rng=np.random.default_rng(0))
    kept = [3, 1]  # the two largest: logits 3.0 and 2.0 (id 1 before id 4, its equal)
    assert s.kept == 2 and s.order[:s.kept].tolist() == kept
    total = p[3] + p[1]
    assert s.q == pytest.approx([p[3] / total, p[1] / total], abs=1e-15)


def test_top_p_keeps_the_token_that_crosses_p():
    p = by_hand(LOGITS, 1.0)  # sorted: p3 ≈ 0.536, p1 = p4 ≈ 0.197, p0 ≈ 0.044, …
    s = sample(LOGITS, 1.0, top_p=0.6, rng=np.random.default_rng(0))
    # p3 alone is below 0.6; p3 + p1 crosses it: both kept, and nothing else
    assert p[3] < 0.6 <= p[3] + p[1]
    assert s.order[:s.kept].tolist() == [3, 1]
    assert s.q == pytest.approx([p[3] / (p[3] + p[1]), p[1] / (p[3] + p[1])], abs=1e-15)


def test_top_p_cumulates_in_sorted_order():
    p = by_hand(LOGITS, 1.0)
    s = sample(LOGITS, 1.0, top_p=0.9, rng=np.random.default_rng(0))
    # sorted: 3, 1, 4 reach p3 + p1 + p4 ≈ 0.929 ≥ 0.9 (in id order 0, 1, 2, 3 would be needed)
    assert p[3] + p[1] < 0.9 <= p[3] + p[1] + p[4]
    assert s.order[:s.kept].tolist() == [3, 1, 4]


def test_top_p_exactly_reached_stops_there():
    first = sample(LOGITS, 1.0, rng=np.random.default_rng(0)).cumulative[0]
    s = sample(LOGITS, 1.0, top_p=float(first), rng=np.random.default_rng(0))
    assert s.kept == 1 and s.token == 3  # "reaches" is ≥: the first alone reaches its own p


def test_top_k_then_top_p_and_temperature_together():
    p = by_hand(LOGITS, 2.0)
    s = sample(LOGITS, 2.0, top_k=3, top_p=0.5, rng=np.random.default_rng(0))
    ranked = sorted(range(6), key=lambda i: (-p[i], i))[:3]
    cum = np.cumsum([p[i] for i in ranked])
    expect = ranked[:int(np.argmax(cum >= 0.5)) + 1]
    assert s.order[:s.kept].tolist() == expect
    total = sum(p[i] for i in expect)
    assert s.q == pytest.approx([p[i] / total for i in expect], abs=1e-15)


def test_the_token_is_the_first_whose_cumulative_q_exceeds_u():
    s = sample(LOGITS, 1.0, top_k=3, rng=np.random.default_rng(5))
    u = np.random.default_rng(5).random()
    assert s.u == u
    cum = np.cumsum(s.q)
    assert s.rank == int(np.argmax(cum > u)) and s.token == s.order[s.rank]


def test_frequencies_of_seeded_draws_match_the_distribution():
    rng, draws = np.random.default_rng(11), 20_000
    first = sample(LOGITS, 1.5, top_k=4, top_p=0.95, rng=rng)
    kept = first.order[:first.kept].tolist()
    counts = {i: 0 for i in kept}
    counts[first.token] += 1
    for _ in range(draws - 1):
        counts[sample(LOGITS, 1.5, top_k=4, top_p=0.95, rng=rng).token] += 1
    chi2 = sum((counts[i] - draws * q) ** 2 / (draws * q) for i, q in zip(kept, first.q, strict=True))
    assert len(kept) == 4  # top-4 sums below 0.95: top-p cuts nothing more
    assert chi2 < 20.5  # χ² with 3 degrees of freedom: P(χ² > 20.5) < 0.0002


def test_a_seed_gives_the_same_draws_one_per_token():
    def run(seed):
        rng = np.random.default_rng(seed)
        return [sample(LOGITS, 1.0, rng=rng).u for _ in range(5)]

    assert run(3) == run(3)
    assert run(3) == np.random.default_rng(3).random(5).tolist()  # one draw each, in order


@pytest.mark.parametrize("kwargs", [{"temperature": -1.0}, {"temperature": 1.0, "top_k": 0},
                                    {"temperature": 1.0, "top_p": 0.0},
                                    {"temperature": 1.0, "top_p": 1.5}])
def test_what_samples_nothing_is_refused(kwargs):
    with pytest.raises(HandformerError):
        sample(LOGITS, rng=np.random.default_rng(0), **kwargs)


def test_generate_uses_the_sampler_one_draw_per_token():
    from handformer.families.gpt.config import GptConfig
    from handformer.families.gpt.run import build
    from handformer.families.gpt.train import generate

    model = build(GptConfig(preset="tutorial", seed=4))
    out = generate(model, "when you", max_new=4, temperature=1.5, top_k=6, top_p=0.9, seed=9)
    us = [c.u for c in out.choices]
    assert us == np.random.default_rng(9).random(len(us)).tolist()
