"""The engine against torch.nn.Transformer on one small config (full coverage: test_model_torch)."""

import numpy as np

from handformer.engine.tape import Tape
from handformer.families.transformer.config import preset
from handformer.families.transformer.model import forward, init_params
from handformer.families.transformer.torch_ref import TorchReference


def test_small_preset_matches_torch_at_every_stage():
    cfg = preset("small")
    params = init_params(cfg, 25)
    tape = Tape(params)
    src, tgt = np.array([5, 6, 7, 8, 9, 10, 11]), np.array([23, 6, 12, 13, 6, 14])
    forward(tape, cfg, src, tgt)
    reference = TorchReference(params, cfg).stages(src, tgt)
    assert set(reference) >= {"src_embed.out", "encoder.1.out", "decoder.1.out", "generator.logits"}
    for name, expected in reference.items():
        np.testing.assert_allclose(tape[name], expected, rtol=0, atol=1e-10, err_msg=name)
