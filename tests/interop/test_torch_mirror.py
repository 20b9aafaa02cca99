"""The tutorial preset against torch: ``handformer verify`` falls back to the same model written
with torch's functions (families/transformer/torch_mirror.py), and that mirror is itself held against
torch.nn.Transformer wherever both can build the config."""

import numpy as np
import pytest
from click.testing import CliRunner

from handformer.cli import main
from handformer.families.transformer.config import preset
from handformer.families.transformer.run import setup
from handformer.families.transformer.torch_mirror import TorchMirror
from handformer.families.transformer.torch_ref import TorchReference
from handformer.families.transformer.verify import padded_batch, verify

torch = pytest.importorskip("torch")

SWITCHES = [{}, {"norm": "pre"}, {"tie_embeddings": True}, {"final_norm": False},
            {"norm": "pre", "tie_embeddings": True, "label_smoothing": 0.1}]


@pytest.mark.parametrize("switches", SWITCHES)
def test_the_mirror_equals_nn_transformer_where_both_build_the_model(switches):
    """Stages, loss and every gradient on a padded batch, to 1e-12: the mirror is not a copy
    of the engine that could share its mistakes with it; torch's own layers agree with it."""
    cfg = preset("small", **switches)
    params = setup(cfg).params
    src, src_pad, tgt, tgt_pad = padded_batch([4, 5, 6, 7, 8], [9, 10, 11], pad_id=0)
    mirror, nn = TorchMirror(params, cfg), TorchReference(params, cfg)
    stages = nn.stages(src, tgt, src_pad, tgt_pad)
    assert set(mirror.stages(src, tgt, src_pad, tgt_pad)) == set(stages)
    for name, value in mirror.stages(src, tgt, src_pad, tgt_pad).items():
        np.testing.assert_allclose(value, stages[name], rtol=0, atol=1e-12, err_msg=name)
    args = (src, tgt, tgt, (~tgt_pad).astype(float), cfg.label_smoothing, src_pad, tgt_pad)
    loss, grads = mirror.loss_grads(*args)
    nn_loss, nn_grads = nn.loss_grads(*args)
    assert abs(loss - nn_loss) < 1e-12
    assert set(grads) == set(nn_grads) == set(params)
    for name, g in nn_grads.items():
        assert np.abs(g).max() > 0, name  # every parameter is reached
        np.testing.assert_allclose(grads[name], g, rtol=0, atol=1e-12, err_msg=name)


def test_the_tutorial_preset_passes_against_the_mirror_with_every_gradient():
    result = CliRunner().invoke(main, ["verify"])
    assert result.exit_code == 0, result.output
    assert "torch functions" in result.output
    assert "d_k 4 × heads 1 = 4 ≠ d_model 6" in result.output  # why nn.Transformer is not used
    tutorial = setup(preset("tutorial")).params
    for name in tutorial:
        assert f"∂L/∂{name}" in result.output, name
    assert f"PASS: 5 stages, the loss and {len(tutorial)} gradients" in result.output


@pytest.mark.parametrize("switches", [["--norm", "pre"],
                                      ["--norm", "pre", "--tie-embeddings", "--final-norm"],
                                      ["--d-k", "3", "--d-v", "5", "--label-smoothing", "0.1"]])
def test_the_tutorial_preset_with_switches_passes(switches):
    result = CliRunner().invoke(main, ["verify", *switches])
    assert result.exit_code == 0, result.output
    assert "PASS" in result.output and "FAIL" not in result.output


def test_verify_fails_when_the_two_sides_differ_by_a_layer_norms_epsilon(monkeypatch):
    """The check can fail: a mirror whose layer norms use ε = 1e-4 instead of the config's
    1e-5 differs from the engine in every stage after the first norm and in the gradients."""
    from handformer.families.transformer import verify as verify_module

    class OtherEpsilon(TorchMirror):
        def norm(self, x, name):
            p = self.params
            return torch.nn.functional.layer_norm(x, (x.shape[-1],), p[f"{name}.gamma"],
                                                  p[f"{name}.beta"], 1e-4)

    s = setup(preset("tutorial"))
    assert verify(s, "when you play the game of thrones", "you win or you die").passed
    monkeypatch.setattr(verify_module, "TorchMirror", OtherEpsilon)
    report = verify(s, "when you play the game of thrones", "you win or you die")
    assert not report.passed
    failing = {row.name for row in report.rows if row.worst > report.tol}
    assert {"encoder.0.out", "decoder.0.out", "generator.logits", "loss L"} <= failing
    assert "src_embed.out" not in failing  # before any layer norm the two still agree
