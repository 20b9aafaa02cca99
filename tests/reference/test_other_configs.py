"""Two more configurations torch.nn.Transformer cannot build, against the NumPy reference to
1e-12: d_k and d_v other than d_model / heads (with biases, the paper's FFN, two layers, the
embedding scale and the final norms), and more encoder heads than decoder heads (with label
smoothing). The fresh weights are moved by noise first, so no bias is 0 and no γ is 1."""

import numpy as np
import pytest

from handformer.families.transformer.config import preset

from .check import assert_tape_is_reference, engine_walk, sizes_of
from .model import Sizes

CONFIGS = {
    "d_k 3, d_v 5 with d_model 8 and 2 heads": preset(
        "small", d_model=8, heads=2, d_k=3, d_v=5, d_ff=12, layers=2, seed=4),
    "4 encoder heads, 2 decoder heads": preset(
        "tutorial", d_model=8, heads=4, decoder_heads=2, d_k=2, d_v=2, attn_bias=True,
        encoder_layers=2, label_smoothing=0.1, seed=5),
}
SRC, TGT = "the true enemy won't wait", "he brings the storm"


def noisy(params):
    rng = np.random.default_rng(11)
    return {k: v + rng.normal(0.0, 0.3, v.shape) for k, v in params.items()}


@pytest.mark.parametrize("name", CONFIGS)
def test_every_step_gradient_and_the_update_equal_the_reference(name):
    cfg = CONFIGS[name]
    tape = engine_walk(cfg, SRC, TGT, 0.05, change=noisy)
    ref = assert_tape_is_reference(tape, sizes_of(cfg), 0.05)
    n, m = len(TGT.split()) + 1, len(SRC.split())
    assert ref.values["decoder.0.cross_attn.pattern"].shape == (cfg.decoder_heads, n, m)
    assert ref.values["encoder.1.self_attn.q"].shape == (cfg.heads, m, cfg.d_k)


def test_the_configs_are_what_torch_cannot_express():
    first, second = CONFIGS.values()
    assert first.d_k * first.heads != first.d_model and first.d_v != first.d_k
    assert second.heads != second.decoder_heads and second.label_smoothing > 0
    assert sizes_of(first) == Sizes(d_model=8, enc_heads=2, dec_heads=2, d_k=3, d_v=5,
                                    enc_layers=2, dec_layers=2, ffn="paper", attn_bias=True,
                                    scale_embeddings=True, final_norm=True)
