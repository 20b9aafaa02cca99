"""Every parameter's gradient equals torch autograd's on the same model (float64, to 1e-9).

Configs of several shapes, with source and target padding (padding masks), the causal mask and
label smoothing. torch's loss is built independently: nn.Transformer + F.cross_entropy with
ignore_index at the pads.
"""

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from handformer.families.transformer.config import preset
from handformer.families.transformer.loss import batch_loss
from handformer.families.transformer.model import init_params
from handformer.families.transformer.torch_ref import TorchReference
from handformer.families.transformer.weights import to_state_dict
from handformer.train.data import make_batch, pairs_vocab

PAIRS = [("a b c d e", "x y"), ("b a", "y x z w"), ("c c d", "z"), ("e d c b a e", "w w x")]

CONFIGS = [
    dict(d_model=8, heads=2, d_ff=16, layers=1),
    dict(d_model=12, heads=3, d_ff=20, encoder_layers=2, decoder_layers=1),
    dict(d_model=16, heads=4, d_ff=32, layers=2, final_norm=False, label_smoothing=0.1),
    dict(d_model=6, heads=1, d_ff=10, encoder_layers=1, decoder_layers=3, label_smoothing=0.2,
         scale_embeddings=False),
]


def torch_grads(params, cfg, batch, pad_id):
    """∂L/∂θ by torch autograd, under torch's parameter names."""
    ref = TorchReference(params, cfg)
    src, tgt_in, tgt_out = (torch.as_tensor(a) for a in (batch.src, batch.tgt_in, batch.tgt_out))
    sp, tp = torch.as_tensor(batch.src_pad), torch.as_tensor(batch.tgt_pad)
    causal = ref.transformer.generate_square_subsequent_mask(tgt_in.shape[1], dtype=torch.float64)
    x = ref.embed(ref.src_embed, src)
    y = ref.embed(ref.tgt_embed, tgt_in)
    out = ref.transformer(x, y, tgt_mask=causal, src_key_padding_mask=sp,
                          tgt_key_padding_mask=tp, memory_key_padding_mask=sp)
    logits = ref.generator(out)
    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tgt_out.reshape(-1),
                           ignore_index=pad_id, label_smoothing=cfg.label_smoothing)
    loss.backward()
    named = dict(ref.transformer.named_parameters())
    for module in ("src_embed", "tgt_embed", "generator"):
        named |= {f"{module}.{k}": v for k, v in getattr(ref, module).named_parameters()}
    return loss.item(), {k: v.grad.numpy() for k, v in named.items()}


@pytest.mark.parametrize("overrides", CONFIGS, ids=lambda c: f"d{c['d_model']}h{c['heads']}")
def test_every_parameter_gradient_matches_torch(overrides):
    cfg = preset("small", **overrides)
    vocab = pairs_vocab(PAIRS)
    encoded = [(vocab.encode(s), vocab.encode(t)) for s, t in PAIRS]
    batch = make_batch(vocab, encoded)
    assert batch.src_pad.any() and batch.tgt_pad.any()  # padding on both sides is exercised
    params = init_params(cfg, len(vocab))
    params["generator.b"] += np.linspace(-0.3, 0.3, len(vocab))  # non-zero biases, less symmetry
    ours = batch_loss(params, cfg, batch)
    loss, expected = torch_grads(params, cfg, batch, vocab.id("<pad>"))
    assert ours.loss == pytest.approx(loss, abs=1e-12)
    got = to_state_dict(ours.grads, cfg)
    assert set(got) == set(expected)
    for name, g in expected.items():
        np.testing.assert_allclose(got[name], g, rtol=0, atol=1e-9, err_msg=name)
        if "norm" not in name and "bias" not in name:
            assert np.abs(g).max() > 1e-6, f"{name}: gradient vanishes, the check would be empty"
