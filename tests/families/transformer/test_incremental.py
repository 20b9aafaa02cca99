"""The key/value cache against full recomputation: same tokens, same probabilities (1e-12).

The reference is the decoder run over each whole prefix (decode.Recompute, and model.forward
for the batched greedy search), which shares no code with handformer.incremental's step."""

import numpy as np
import pytest

from handformer.engine.tape import Tape
from handformer.families.transformer import decode
from handformer.families.transformer.config import preset
from handformer.families.transformer.greedy import greedy_batch
from handformer.families.transformer.model import forward, init_params
from handformer.text import END, PAD, START, UNK, Vocab

WORDS = "a b c d e f g h i j k l".split()


@pytest.fixture(scope="module", params=[("post", False), ("pre", True)], ids=["paper", "pre-tied"])
def model(request):
    """A random 2-layer model with several heads whose <end> is unlikely, so decoding runs
    long enough for the cache to matter; post-norm untied, and pre-norm with tied embeddings
    (the cache's keys and values are then projections of LN(Y))."""
    norm, tied = request.param
    cfg = preset("small").replace(d_model=16, heads=4, d_ff=32, layers=2, seed=3, norm=norm,
                                  tie_embeddings=tied)
    vocab = Vocab(tuple(WORDS), (START, END, PAD, UNK))
    params = init_params(cfg, len(vocab))
    params["generator.b"][vocab.id(END)] = -4.0
    for never in (START, PAD, UNK):  # a random model would emit them; the batched search drops <pad>
        params["generator.b"][vocab.id(never)] = -30.0
    return params, cfg, vocab


@pytest.mark.parametrize("beam", [1, 3])
def test_cache_gives_the_same_tokens_and_log_probabilities(model, beam):
    params, cfg, vocab = model
    for src in ("a b c", "l k j i h g", "d"):
        cached = decode.translate(params, cfg, vocab, src, beam=beam, alpha=0.6, k=4,
                                  max_length=12)
        full = decode.translate(params, cfg, vocab, src, beam=beam, alpha=0.6, k=4,
                                max_length=12, cache=False)
        assert cached.ids == full.ids and len(cached.steps) == len(full.steps) >= 5
        assert abs(cached.score - full.score) <= 1e-12 * max(1.0, abs(full.score))
        for a, b in zip(cached.steps, full.steps, strict=True):
            assert a.prefixes == b.prefixes and [c[:2] for c in a.chosen] == [c[:2] for c in b.chosen]
            np.testing.assert_allclose([s for *_, s in a.chosen], [s for *_, s in b.chosen],
                                       rtol=1e-12, atol=1e-12)
            for top_a, top_b in zip(a.top, b.top, strict=True):
                assert [i for i, _ in top_a] == [i for i, _ in top_b]
                np.testing.assert_allclose(np.log([p for _, p in top_a]),
                                           np.log([p for _, p in top_b]), rtol=0, atol=1e-12)


def test_a_cached_step_equals_the_last_row_of_a_full_forward_pass(model):
    params, cfg, vocab = model
    src_ids = vocab.encode("a b c d")
    encoder, memory = decode.run_encoder(params, cfg, src_ids, False)
    stepper = decode.Cached(params, cfg, encoder[memory], memory, False)
    prefix = [vocab.id(START)] + vocab.encode("e f g h i")
    for t in range(1, len(prefix) + 1):
        _, p = stepper.step([prefix[:t]])
        tape = Tape(params, record=False)
        forward(tape, cfg, np.array(src_ids), np.array(prefix[:t]))
        np.testing.assert_allclose(np.log(p[0]), np.log(tape["generator.probs"][-1]),
                                   rtol=0, atol=1e-12)


def test_the_cache_holds_every_position_and_the_memory_once(model):
    params, cfg, vocab = model
    encoder, memory = decode.run_encoder(params, cfg, vocab.encode("a b c"), False)
    stepper = decode.Cached(params, cfg, encoder[memory], memory, True)
    for t in range(4):
        tape, _ = stepper.step([[vocab.id(START)] + [0] * t])
    assert tape["decoder.1.self_attn.k"].shape == (1, 4, 4, 4)  # (B, h, positions, d_k)
    assert tape["decoder.0.cross_attn.v"].shape == (4, 3, 4)  # (h, source length, d_k)
    assert tape["decoder.1.cross_attn.pattern"].shape == (1, 4, 1, 3)  # the new row only


def test_batched_greedy_with_padding_equals_one_by_one(model):
    params, cfg, vocab = model
    sources = [vocab.encode(s) for s in ("a b c", "l k j i h g", "d", "e e")]
    batched = greedy_batch(params, cfg, vocab, sources, batch_size=3)
    for ids, src in zip(batched, sources, strict=True):
        one = decode.translate(params, cfg, vocab, " ".join(vocab.decode(src)), cache=False,
                               max_length=min(2 * 6 + 10, cfg.max_len - 1))
        assert ids == one.ids[:len(ids)] and (len(ids) == len(one.ids) or not one.finished)
