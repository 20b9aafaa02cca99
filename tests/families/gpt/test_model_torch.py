"""The decoder-only model against torch: a GPT of the same architecture built from torch's
own parts (nn.TransformerEncoderLayer with a causal mask, norm_first for pre-norm, nn.LayerNorm,
the logits through the embedding table itself when tied), float64, the same weights. Every
stage and every gradient agree to 1e-10."""


import numpy as np
import pytest
import torch
import torch.nn.functional as F

from handformer.engine.tape import Tape
from handformer.families.gpt.config import GptConfig
from handformer.families.gpt.model import forward, init_params
from handformer.families.gpt.torch_ref import TorchGpt, torch_grad_as_ours

TOL = 1e-10
IDS = [23, 5, 6, 7, 8, 9, 10, 11, 6, 12, 13, 6, 14]  # <start> when you play … you die
TARGETS = IDS[1:] + [24]
V = 25

CONFIGS = {
    "tutorial": dict(d_model=6, heads=2, d_ff=24, layers=1),
    "post-untied": dict(d_model=6, heads=2, d_ff=24, layers=1, norm="post",
                        tie_embeddings=False),
    "two-layers-bias": dict(d_model=8, heads=4, d_ff=16, layers=2, attn_bias=True),
    "post-final-norm": dict(d_model=8, heads=2, d_ff=12, layers=2, norm="post",
                            final_norm=True, ln_eps=1e-3),
    "pre-no-final-norm": dict(d_model=4, heads=1, d_ff=8, layers=3, final_norm=False,
                              tie_embeddings=False, seed=3),
}


def both(overrides: dict):
    cfg = GptConfig(**overrides)
    params = init_params(cfg, V)
    rng = np.random.default_rng(1)  # non-trivial γ, β and biases: less symmetry to hide behind
    for name in params:
        if not name.endswith((".w_q", ".w_k", ".w_v", ".w_o", ".w_1", ".w_2", "weight", "gen"
                              "erator.w")):
            params[name] = params[name] + rng.normal(0, 0.3, params[name].shape)
    tape = Tape(params)
    logits = forward(tape, cfg, IDS)
    tape.run("loss", "cross_entropy", [logits],
             {"targets": np.asarray(TARGETS), "weights": np.ones(len(IDS))})
    tape.backward("loss")
    ref = TorchGpt(cfg, params)
    stages = ref(IDS)
    loss = F.cross_entropy(stages["generator.logits"], torch.tensor(TARGETS))
    loss.backward()
    return cfg, tape, ref, stages, loss


@pytest.mark.parametrize("name", CONFIGS)
def test_every_stage_matches_torch(name):
    cfg, tape, ref, stages, loss = both(CONFIGS[name])
    for stage, value in stages.items():
        np.testing.assert_allclose(tape[stage], value.detach().numpy(), rtol=0, atol=TOL,
                                   err_msg=stage)
    assert abs(float(tape["loss"]) - loss.item()) < TOL


@pytest.mark.parametrize("name", CONFIGS)
def test_every_gradient_matches_torch(name):
    cfg, tape, ref, stages, loss = both(CONFIGS[name])
    grads = {n: p.grad for n, p in ref.named().items()}
    expected = {}
    for n in grads:
        expected |= torch_grad_as_ours(n, grads, cfg)
    assert set(expected) == set(tape.params)  # every parameter is compared
    for n, g in expected.items():
        np.testing.assert_allclose(tape.grads[n], g, rtol=0, atol=TOL, err_msg=n)
    for stage, value in stages.items():
        np.testing.assert_allclose(tape.grads[stage], value.grad.numpy(), rtol=0, atol=TOL,
                                   err_msg=f"∂L/∂{stage}")


def test_the_tied_table_gets_the_sum_of_its_two_uses():
    """∂L/∂E = the lookup's rows of ∂L/∂X_tok + (∂L/∂W_out)ᵀ, each use's share read off the
    tape, the sum by torch (whose one tensor E is used twice)."""
    cfg, tape, ref, stages, loss = both(CONFIGS["tutorial"])
    lookup = np.zeros((V, cfg.d_model))
    np.add.at(lookup, IDS, tape.grads["embed.tok"])
    np.testing.assert_allclose(lookup + tape.grads["generator.w"].T, ref.embed.grad.numpy(),
                               rtol=0, atol=TOL)
    assert np.abs(tape.grads["generator.w"]).max() > 1e-3 and np.abs(lookup).max() > 1e-3
