"""The tutorial's own configuration, which torch.nn.Transformer cannot build, against the
independent NumPy reference (tests/reference/model.py): the dataset and ids as the specification
spells them, every forward step, the loss, every gradient, the SGD update, to 1e-12."""

import ast

import numpy as np
import pytest

import handformer
from handformer.families.transformer.config import preset

from .check import assert_tape_is_reference, close, engine_walk, reference_of
from .tutorial import SRC, TGT, TUTORIAL, vocabulary, words

LR = 0.1


@pytest.fixture(scope="module")
def tape():
    return handformer.walk(backward=True, lr=LR)


def test_the_walk_is_the_tutorials_example(tape):
    vocab = vocabulary()
    assert len(vocab) - 2 == 23 and tape.meta["vocab"] == vocab
    ids = {w: i for i, w in enumerate(vocab)}
    assert tape.meta["src"]["ids"] == [ids[w] for w in words(SRC)]
    assert tape.meta["tgt"]["ids"] == [ids["<start>"]] + [ids[w] for w in words(TGT)]
    assert tape.meta["target"]["ids"] == [ids[w] for w in words(TGT)] + [ids["<end>"]]
    for value in tape.params.values():  # every weight and bias uniform in [0, 1), γ = 1, β = 0
        assert ((0 <= value) & (value < 1)).all() or set(np.unique(value)) <= {0.0, 1.0}


def test_the_walks_config_is_the_tutorials_sizes(tape):
    c = tape.meta["config"]
    assert (c["d_model"], c["heads"], c["decoder_heads"], c["d_k"], c["d_v"]) == (6, 1, 2, 4, 4)
    assert (c["ffn"], c["attn_bias"], c["scale_embeddings"], c["final_norm"]) == (
        "single", False, False, False)


def test_every_step_gradient_and_the_update_equal_the_reference(tape):
    ref = assert_tape_is_reference(tape, TUTORIAL, LR)
    assert ref.values["decoder.0.self_attn.pattern"].shape == (2, 6, 6)  # two decoder heads
    assert ref.values["encoder.0.self_attn.q"].shape == (1, 7, 4)  # d_k 4, not 6 / 1


def test_the_relu_of_the_tutorials_ffn_cuts_something(tape):
    """The check above would be blind to the ReLU if no pre-activation were negative."""
    ref = reference_of(tape, TUTORIAL)
    pre = [ref.values[f"{side}.0.ffn.pre"] for side in ("encoder", "decoder")]
    assert any((p < 0).any() for p in pre)


def sharpened(params):
    """W^Q of every attention × 300 and W_out × 1000: scores and logits in the thousands,
    where e^s overflows unless softmax subtracts each row's maximum first."""
    out = dict(params)
    for name in params:
        if name.endswith(".w_q"):
            out[name] = params[name] * 300.0
    out["generator.w"] = params["generator.w"] * 1000.0
    return out


def test_saturated_attention_and_logits_equal_the_reference():
    tape = engine_walk(preset("tutorial"), SRC, TGT, 1e-4, change=sharpened)
    ref = assert_tape_is_reference(tape, TUTORIAL, 1e-4)
    assert max(float(np.abs(ref.values[f"{p}.scores"]).max()) for p in (
        "encoder.0.self_attn", "decoder.0.self_attn", "decoder.0.cross_attn")) > 710
    assert float(ref.values["generator.logits"].max()) > 710  # e^710 is beyond float64


def test_close_notices_a_difference():
    close(np.array([1.0, 2.0]), np.array([1.0, 2.0 + 1e-13]), "equal to 1e-12")
    with pytest.raises(AssertionError):
        close(np.array([1.0, 2.0]), np.array([1.0, 2.0 + 1e-9]), "apart")


def test_the_reference_shares_no_code_with_handformer():
    from pathlib import Path

    tree = ast.parse((Path(__file__).parent / "model.py").read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported == {"__future__", "math", "dataclasses", "numpy"}
