"""The whole model against torch.nn.Transformer over random configurations (hypothesis).

Forward: every stage to 1e-10. Backward: ∂L/∂θ of the cross-entropy loss (pad positions
weighted out, optional label smoothing) for every parameter against torch autograd, to 1e-9.
"""

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from handformer.engine.tape import Tape
from handformer.families.transformer.config import Config
from handformer.families.transformer.model import forward, init_params
from handformer.families.transformer.torch_ref import TorchReference, torch_unsupported

VOCAB = 11


@st.composite
def configs(draw):
    heads = draw(st.sampled_from([1, 2, 4]))
    d_k = draw(st.integers(1, 4).filter(lambda k, h=heads: (h * k) % 2 == 0))
    return Config(
        d_model=heads * d_k, heads=heads, d_ff=draw(st.integers(1, 12)),
        encoder_layers=draw(st.integers(1, 3)), decoder_layers=draw(st.integers(1, 3)),
        final_norm=draw(st.booleans()), scale_embeddings=draw(st.booleans()),
        ln_eps=draw(st.sampled_from([1e-5, 1e-6])), seed=draw(st.integers(0, 2**16)),
        norm=draw(st.sampled_from(["post", "pre"])), tie_embeddings=draw(st.booleans()))


@st.composite
def batches(draw):
    """ids (B, n) or (n,) for B = 0, pad flags at the end of each row (never a whole row)."""
    b = draw(st.integers(0, 3))
    rows = max(b, 1)
    n, m = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    src_len = draw(st.lists(st.integers(1, n), min_size=rows, max_size=rows))
    tgt_len = draw(st.lists(st.integers(1, m), min_size=rows, max_size=rows))
    seed = draw(st.integers(0, 2**16))
    rng = np.random.default_rng(seed)
    src, tgt = rng.integers(0, VOCAB, (rows, n)), rng.integers(0, VOCAB, (rows, m))
    src_pad = np.arange(n)[None, :] >= np.array(src_len)[:, None]
    tgt_pad = np.arange(m)[None, :] >= np.array(tgt_len)[:, None]
    targets = rng.integers(0, VOCAB, (rows, m))
    if b == 0:
        return src[0], tgt[0], None, None, targets[0]
    return src, tgt, src_pad, tgt_pad, targets


def perturbed_params(cfg, seed):
    """Initial weights plus noise, so biases, γ and β are not 0 and 1."""
    rng = np.random.default_rng(seed)
    params = init_params(cfg, VOCAB)
    return {k: v + 0.3 * rng.standard_normal(v.shape) for k, v in params.items()}


@pytest.mark.slow
@given(cfg=configs(), batch=batches(), smoothing=st.sampled_from([0.0, 0.1]))
@example(cfg=Config(d_model=4, heads=2, d_ff=5, encoder_layers=2, decoder_layers=2, norm="pre",
                    tie_embeddings=True, seed=3),
         batch=(np.array([1, 2, 3]), np.array([4, 5]), None, None, np.array([5, 6])),
         smoothing=0.0)
@settings(max_examples=25)  # ~1 s each; the budget is small on purpose
def test_random_configs_match_torch_forward_and_gradients(cfg, batch, smoothing):
    assert torch_unsupported(cfg) == []
    src, tgt, src_pad, tgt_pad, targets = batch
    params = perturbed_params(cfg, cfg.seed)
    tape = Tape(params)
    logits = forward(tape, cfg, src, tgt, src_pad, tgt_pad)
    weights = np.ones(targets.shape) if tgt_pad is None else (~tgt_pad).astype(np.float64)
    tape.run("loss", "cross_entropy", [logits],
             {"targets": targets, "weights": weights, "smoothing": smoothing})
    reference = TorchReference(params, cfg)
    stages = reference.stages(src, tgt, src_pad, tgt_pad)
    assert len(stages) == 3 + cfg.encoder_layers + cfg.decoder_layers + 2 * cfg.final_norm
    for name, expected in stages.items():
        np.testing.assert_allclose(tape[name], expected, rtol=0, atol=1e-10, err_msg=name)

    loss, expected_grads = reference.loss_grads(src, tgt, targets, weights, smoothing,
                                                src_pad, tgt_pad)
    assert abs(float(tape["loss"]) - loss) < 1e-12
    grads = tape.backward("loss")
    assert set(expected_grads) == set(params)
    for name, expected in expected_grads.items():
        np.testing.assert_allclose(grads[name], expected, rtol=0, atol=1e-9, err_msg=name)


def test_reference_gradients_are_not_trivially_zero():
    """Guard for the test above: torch's gradients reach every parameter kind."""
    cfg = Config(d_model=8, heads=2, d_ff=6, encoder_layers=1, decoder_layers=1)
    params = perturbed_params(cfg, 3)
    src, tgt, targets = np.array([1, 2, 3]), np.array([4, 5]), np.array([5, 6])
    _, grads = TorchReference(params, cfg).loss_grads(src, tgt, targets, np.ones(2))
    for name, g in grads.items():
        assert np.abs(g).max() > 0, name


# --- configs torch cannot express: central differences ---------------------------------------


def loss_of(params, cfg, src, tgt, targets, weights, smoothing, src_pad=None, tgt_pad=None):
    tape = Tape(params, record=False)
    logits = forward(tape, cfg, src, tgt, src_pad, tgt_pad)
    tape.run("loss", "cross_entropy", [logits],
             {"targets": targets, "weights": weights, "smoothing": smoothing})
    return tape


def check_finite_differences(params, *args, h=1e-5, per_param=4, seed=0):
    """(L(θ + h e) − L(θ − h e)) / 2h against the tape's gradient, a sample of every parameter.

    Agreement is relative, 1e-6 of the gradient entry, with a floor of 1e-9 (absolute) where the
    entry itself is near zero: central differences are exact to O(h²) plus round-off ~1e-11.
    """
    tape = loss_of(params, *args)
    grads = tape.backward("loss")
    rng = np.random.default_rng(seed)
    checked = 0
    for name, value in params.items():
        # A random sample plus the largest entry, where the relative bound bites.
        flat = rng.choice(value.size, size=min(per_param, value.size), replace=False)
        flat = np.unique(np.append(flat, np.abs(grads[name]).argmax()))
        for index in zip(*np.unravel_index(flat, value.shape), strict=True):
            bumped = {k: v.copy() for k, v in params.items()}
            bumped[name][index] += h
            up = float(loss_of(bumped, *args)["loss"])
            bumped[name][index] -= 2 * h
            down = float(loss_of(bumped, *args)["loss"])
            numeric, analytic = (up - down) / (2 * h), grads[name][index]
            assert abs(numeric - analytic) <= 1e-6 * max(abs(analytic), 1e-3), (
                f"{name}{index}: central difference {numeric!r}, backward {analytic!r}")
            checked += 1
    assert checked >= len(params)


def test_tutorial_preset_gradients_by_finite_differences():
    from handformer.families.transformer.config import preset
    from handformer.families.transformer.run import run_forward, setup
    from handformer.text import TUTORIAL_SRC, TUTORIAL_TGT

    s = setup(preset("tutorial"))
    assert torch_unsupported(s.config)  # hence finite differences, not torch
    meta = run_forward(s, TUTORIAL_SRC, TUTORIAL_TGT).meta
    targets = np.array(meta["target"]["ids"])
    check_finite_differences(s.params, s.config, np.array(meta["src"]["ids"]),
                             np.array(meta["tgt"]["ids"]), targets, np.ones(len(targets)), 0.0)


def test_unequal_widths_without_bias_padded_batch_by_finite_differences():
    cfg = Config(d_model=6, heads=2, decoder_heads=3, d_k=3, d_v=5, d_ff=7, attn_bias=False,
                 encoder_layers=2, decoder_layers=1, final_norm=False)
    assert torch_unsupported(cfg)
    params = perturbed_params(cfg, 5)
    rng = np.random.default_rng(5)
    src, tgt = rng.integers(0, VOCAB, (2, 4)), rng.integers(0, VOCAB, (2, 3))
    src_pad = np.array([[False] * 4, [False, False, True, True]])
    tgt_pad = np.array([[False] * 3, [False, True, True]])
    check_finite_differences(params, cfg, src, tgt, rng.integers(0, VOCAB, (2, 3)),
                             (~tgt_pad).astype(float), 0.1, src_pad, tgt_pad)


@pytest.mark.parametrize("norm, tied", [("pre", False), ("pre", True), ("post", True)])
def test_the_tutorial_preset_with_the_papers_switches_by_finite_differences(norm, tied):
    """--norm pre and --tie-embeddings on the tutorial's sizes (d_k 4 with d_model 6, 1 and 2
    heads), which torch.nn.Transformer cannot build."""
    from handformer.families.transformer.config import preset

    cfg = preset("tutorial", norm=norm, tie_embeddings=tied)
    assert torch_unsupported(cfg)
    params = perturbed_params(cfg, 11)
    assert ("embed.weight" in params) == tied and ("generator.w" in params) != tied
    rng = np.random.default_rng(11)
    src, tgt = rng.integers(0, VOCAB, 5), rng.integers(0, VOCAB, 4)
    check_finite_differences(params, cfg, src, tgt, rng.integers(0, VOCAB, 4), np.ones(4), 0.0)


def test_a_tied_table_gets_the_sum_of_its_three_uses():
    """∂L/∂E with tying = ∂L/∂E_src + ∂L/∂E_tgt + (∂L/∂W_out)ᵀ of the untied model holding E
    in all three places (the same numbers, computed apart)."""
    tied = Config(d_model=4, heads=2, d_ff=5, tie_embeddings=True, seed=2)
    params = perturbed_params(tied, 2)
    table = params["embed.weight"]
    untied = {k: v for k, v in params.items() if k != "embed.weight"} | {
        "src_embed.weight": table.copy(), "tgt_embed.weight": table.copy(),
        "generator.w": table.T.copy()}
    src, tgt, targets = np.array([1, 2, 3]), np.array([4, 1]), np.array([1, 6])
    g_tied = loss_of(params, tied, src, tgt, targets, np.ones(2), 0.0).backward("loss")
    g = loss_of(untied, Config(d_model=4, heads=2, d_ff=5, seed=2), src, tgt, targets,
                np.ones(2), 0.0).backward("loss")
    np.testing.assert_allclose(
        g_tied["embed.weight"],
        g["src_embed.weight"] + g["tgt_embed.weight"] + g["generator.w"].T, rtol=0, atol=1e-14)
