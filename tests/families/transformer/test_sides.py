"""One vocabulary per side: the source embedding has the source's rows, the target embedding
and the generator the target's; the gradient equals torch's; label smoothing spreads ε over
the target's tokens only."""

import numpy as np
import pytest

from handformer.errors import ConfigError
from handformer.families.transformer.config import preset, weight_count
from handformer.families.transformer.loss import batch_loss
from handformer.families.transformer.model import init_params, param_shapes
from handformer.families.transformer.weights import to_state_dict
from handformer.train import loop
from handformer.train.data import make_batch, sides_vocab

from .test_model_grad_torch import PAIRS, torch_grads


def test_each_table_has_its_side_s_rows():
    cfg = preset("small", d_model=8, heads=2, d_ff=16, layers=1)
    shapes = {name: shape for name, (shape, _) in param_shapes(cfg, (7, 11)).items()}
    assert shapes["src_embed.weight"] == (7, 8)
    assert shapes["tgt_embed.weight"] == (11, 8)
    assert shapes["generator.w"] == (8, 11) and shapes["generator.b"] == (11,)
    # one size is still both sides' (the tutorial's shared vocabulary)
    shared = {name: shape for name, (shape, _) in param_shapes(cfg, 9).items()}
    assert shared["src_embed.weight"] == shared["tgt_embed.weight"] == (9, 8)


def test_weight_count_counts_the_source_table_once_and_the_target_twice():
    cfg = preset("small", d_model=8, heads=2, d_ff=16, layers=1)
    # d_model × (source rows + target embedding rows + generator columns)
    assert weight_count(cfg, (7, 11)) - weight_count(cfg, (0, 0)) == 8 * (7 + 11 + 11)
    tied = preset("small", d_model=8, heads=2, d_ff=16, layers=1, tie_embeddings=True)
    assert weight_count(tied, (9, 9)) - weight_count(tied, (0, 0)) == 8 * 9


def test_tied_embeddings_need_one_vocabulary():
    tied = preset("small", d_model=8, heads=2, d_ff=16, layers=1, tie_embeddings=True)
    with pytest.raises(ConfigError, match="--shared-vocab"):
        param_shapes(tied, (7, 11))
    # refused by a run with one vocabulary per side even where the sizes happen to agree
    pairs = [("a b", "x y"), ("b a", "y x")]
    with pytest.raises(ConfigError, match="one vocabulary for both sides"):
        loop.start(tied, pairs, loop.Options(epochs=1, shared_vocab=False))
    assert loop.start(tied, pairs, loop.Options(epochs=1)).vocab.source.words == ("a", "b", "x",
                                                                                   "y")


def _batch_and_params(cfg):
    vocab = sides_vocab(PAIRS)
    encoded = [(vocab.source.encode(s), vocab.target.encode(t)) for s, t in PAIRS]
    params = init_params(cfg, vocab.sizes)
    n_tgt = vocab.sizes[1]
    params["generator.b"] += np.linspace(-0.3, 0.3, n_tgt)  # non-zero biases, less symmetry
    return vocab, make_batch(vocab, encoded), params


@pytest.mark.parametrize("overrides", [dict(d_model=8, heads=2, d_ff=16, layers=1),
                                       dict(d_model=12, heads=3, d_ff=20, layers=2,
                                            label_smoothing=0.1)], ids=["d8", "d12ls"])
def test_gradient_with_unequal_vocabularies_matches_torch(overrides):
    cfg = preset("small", **overrides)
    vocab, batch, params = _batch_and_params(cfg)
    assert vocab.sizes == (8, 7)  # a b c d e / x y z w, each with <start> <end> <pad>
    assert batch.src_pad.any() and batch.tgt_pad.any()
    ours = batch_loss(params, cfg, batch)
    loss, expected = torch_grads(params, cfg, batch, vocab.target.id("<pad>"))
    assert ours.loss == pytest.approx(loss, abs=1e-12)
    got = to_state_dict(ours.grads, cfg)
    assert set(got) == set(expected)
    assert got["src_embed.weight"].shape == (8, cfg.d_model)
    assert got["generator.weight"].shape == (7, cfg.d_model)
    for name, g in expected.items():
        np.testing.assert_allclose(got[name], g, rtol=0, atol=1e-9, err_msg=name)


def test_label_smoothing_spreads_epsilon_over_the_target_vocabulary_by_hand():
    from handformer.engine.tape import Tape
    from handformer.families.transformer.model import forward

    eps = 0.2
    cfg = preset("small", d_model=8, heads=2, d_ff=16, layers=1, label_smoothing=eps)
    vocab, batch, params = _batch_and_params(cfg)
    tape = Tape(params, record=False)
    logits = tape[forward(tape, cfg, batch.src, batch.tgt_in, batch.src_pad, batch.tgt_pad,
                          probs=False)]
    v_tgt = len(vocab.target)
    assert logits.shape[-1] == v_tgt == 7
    total, count = 0.0, 0
    for b, row in enumerate(batch.tgt_out):
        for t, y in enumerate(row):
            if batch.tgt_pad[b, t]:
                continue
            z = logits[b, t]
            log_p = z - np.log(np.exp(z - z.max()).sum()) - z.max()
            # the smoothed target: 1 - ε on y, and ε/V on each of the target's V tokens
            q = np.full(v_tgt, eps / v_tgt)
            q[y] += 1 - eps
            total += -(q * log_p).sum()
            count += 1
    assert batch_loss(params, cfg, batch, backward=False).loss == pytest.approx(total / count,
                                                                                abs=1e-12)


def test_cached_decoding_with_unequal_vocabularies_equals_full_recomputation():
    from handformer.families.transformer.decode import translate

    cfg = preset("small", d_model=8, heads=2, d_ff=16, layers=2)
    vocab, _, params = _batch_and_params(cfg)
    for beam in (1, 3):
        cached = translate(params, cfg, vocab, "e d c", beam=beam, max_length=6)
        full = translate(params, cfg, vocab, "e d c", beam=beam, max_length=6, cache=False)
        assert cached.ids == full.ids and abs(cached.score - full.score) < 1e-12
        assert set(cached.tokens) <= set(vocab.target.tokens)  # words of the target side
        assert len(cached.steps) >= 1
