"""The parts of today's LLMs in the decoder-only family, switched on in every combination:
every stage, the loss and every gradient against the same model in torch's functions
(torch_modern.compare, what `verify --family gpt` runs), float64, to 1e-10; the gradients also
against central finite differences computed here; RoPE against a rotation written by hand."""

import itertools
import math

import numpy as np
import pytest

from handformer.engine import finite
from handformer.engine.ops import OPS
from handformer.engine.tape import Tape
from handformer.families.gpt.config import GptConfig
from handformer.families.gpt.model import forward, init_params
from handformer.families.gpt.run import make_text, prepare
from handformer.text import TUTORIAL_SRC, TUTORIAL_TGT
from support.clirun import run_here

torch_modern = pytest.importorskip("handformer.families.gpt.torch_modern")

TOL = 1e-10
POSITIONS = {"sinusoidal": {}, "rope-half": dict(pos="rope"),
             "rope-adjacent": dict(pos="rope", rope_pairs="adjacent", rope_base=50.0)}
KV_HEADS = {"full": 4, "grouped": 2, "one": 1}
SWITCHES = (tuple(POSITIONS), ("layer", "rms"), ("paper", "swiglu"), tuple(KV_HEADS),
            ("pre", "post"))


# Every combination of the switches (72, about 2 s in all on a quiet machine), the Llama
# recipe with each pairing and each number of key/value heads among them.
COMBINATIONS = list(itertools.product(*SWITCHES))
LLAMA = [(pos, "rms", "swiglu", kv, "pre") for pos in ("rope-half", "rope-adjacent")
         for kv in KV_HEADS]


def config(pos, norm_kind, ffn, kv, norm, **more) -> GptConfig:
    return GptConfig(d_model=8, heads=4, kv_heads=KV_HEADS[kv], d_ff=12, layers=2,
                     norm_kind=norm_kind, ffn=ffn, norm=norm, **POSITIONS[pos] | more)


def text(cfg):
    model = prepare({"config": cfg})
    words = make_text(model.vocab, TUTORIAL_SRC, TUTORIAL_TGT, cfg.max_len)
    return model, words.input_ids, words.target_ids


def test_the_combinations_are_every_combination_the_llama_recipe_among_them():
    assert len(COMBINATIONS) == len(set(COMBINATIONS)) == 3 * 2 * 2 * 3 * 2
    assert set(LLAMA) <= set(COMBINATIONS)


@pytest.mark.parametrize("combination", COMBINATIONS, ids="-".join)
def test_every_combination_agrees_with_torch(combination):
    cfg = config(*combination, seed=COMBINATIONS.index(combination))
    model, ids, targets = text(cfg)
    rows = torch_modern.compare(cfg, model.params, ids, targets)
    names = {name for name, _, _ in rows}
    assert {"generator.logits", "loss", "decoder.1.out"} <= names
    assert {f"∂L/∂{n}" for n in model.params} <= names
    worst = max(rows, key=lambda row: row[2])
    assert worst[2] <= TOL, worst


def test_verify_passes_for_the_llama_preset(tmp_path):
    out = run_here("verify", "--family", "gpt", "--preset", "llama", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    text_out = " ".join(out.stdout.decode().split())
    assert "PASS" in text_out and "enable_gqa" in text_out and "∂L/∂decoder.0.ffn.w_gate" in text_out


# --- gradients against central differences ---------------------------------------------------


def loss_of(cfg, params, ids, targets) -> float:
    tape = Tape(params, record=False)
    with finite.quiet():
        logits = forward(tape, cfg, ids)
        tape.run("loss", "cross_entropy", [logits],
                 {"targets": np.asarray(targets), "weights": np.ones(len(ids))})
    return float(tape["loss"])


def gradients(cfg, params, ids, targets) -> dict:
    tape = Tape(params, record=False)
    with finite.quiet():
        logits = forward(tape, cfg, ids)
        tape.run("loss", "cross_entropy", [logits],
                 {"targets": np.asarray(targets), "weights": np.ones(len(ids))})
        return tape.backward("loss")


KINDS = ["decoder.0.self_attn.w_q", "decoder.0.self_attn.w_k", "decoder.0.self_attn.w_v",
         "decoder.0.self_attn.w_o", "decoder.0.ln1.gamma", "decoder.0.ln2.gamma",
         "decoder.norm.gamma", "decoder.0.ffn.w_gate", "decoder.0.ffn.w_up",
         "decoder.0.ffn.w_down", "embed.weight", "generator.w"]


@pytest.mark.parametrize("pairs", ["half", "adjacent"])
def test_gradients_equal_central_differences(pairs):
    """GQA (two key/value heads for four query heads), RMSNorm, SwiGLU, RoPE, untied: for a few
    entries of every kind of parameter, (L(θ + h) − L(θ − h)) / 2h against the backward pass."""
    cfg = GptConfig(d_model=8, heads=4, kv_heads=2, d_ff=12, layers=1, pos="rope",
                    rope_pairs=pairs, norm_kind="rms", ffn="swiglu", tie_embeddings=False, seed=2)
    _, ids, targets = text(cfg)
    params = init_params(cfg, max(ids + targets) + 1)
    params = {k: v + np.random.default_rng(5).normal(0, 0.1, v.shape) for k, v in params.items()}
    grads, rng, h = gradients(cfg, params, ids, targets), np.random.default_rng(9), 1e-6
    for name in KINDS:
        for _ in range(3):
            index = tuple(int(rng.integers(n)) for n in params[name].shape)
            up, down = ({k: v.copy() for k, v in params.items()} for _ in range(2))
            up[name][index] += h
            down[name][index] -= h
            numeric = (loss_of(cfg, up, ids, targets) - loss_of(cfg, down, ids, targets)) / (2 * h)
            assert abs(numeric - grads[name][index]) < 1e-8, (name, index)


# --- RoPE by hand -----------------------------------------------------------------------------


def rotated_by_hand(x: list[float], m: int, base: float, pairs: str) -> list[float]:
    """One row at position m, each pair turned by m·θ_i, θ_i = base^(−2i/d), with math.cos/sin."""
    d, out = len(x), list(x)
    for i in range(d // 2):
        a, b = (2 * i, 2 * i + 1) if pairs == "adjacent" else (i, i + d // 2)
        angle = m * base ** (-2 * i / d)
        out[a] = x[a] * math.cos(angle) - x[b] * math.sin(angle)
        out[b] = x[b] * math.cos(angle) + x[a] * math.sin(angle)
    return out


@pytest.mark.parametrize("pairs", ["half", "adjacent"])
def test_rope_turns_a_row_as_written_by_hand(pairs):
    x = np.random.default_rng(3).normal(size=(2, 5, 6))  # two heads, five positions, d_k 6
    out, _ = OPS["rope"].forward(x, base=10000.0, pairs=pairs)
    for head, m in ((0, 0), (0, 3), (1, 4)):
        expected = rotated_by_hand(list(x[head, m]), m, 10000.0, pairs)
        np.testing.assert_allclose(out[head, m], expected, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(out[:, 0], x[:, 0])  # position 0 is not turned


@pytest.mark.parametrize("pairs", ["half", "adjacent"])
def test_rope_keeps_float32_float32(pairs):
    """A float32 model turned by RoPE stays float32 (float64 tables would promote every later
    product, and each float32 weight would be copied to float64 at every matrix product), and
    the turn is the hand rotation's to float32's precision; its backward pass likewise."""
    x = np.random.default_rng(3).normal(size=(2, 5, 6)).astype(np.float32)
    out, _ = OPS["rope"].forward(x, base=10000.0, pairs=pairs)
    assert out.dtype == np.float32
    expected = rotated_by_hand([float(v) for v in x[1, 4]], 4, 10000.0, pairs)
    np.testing.assert_allclose(out[1, 4], expected, rtol=0, atol=1e-6)
    grad = OPS["rope"].backward(x, out, (x,), None, {"base": 10000.0, "pairs": pairs})[0]
    assert grad.dtype == np.float32


def test_a_float32_llama_walk_computes_every_step_in_float32():
    cfg = config("rope-adjacent", "rms", "swiglu", "grouped", "pre")
    _, ids, _ = text(cfg)
    params = {k: v.astype(np.float32) for k, v in init_params(cfg, max(ids) + 1).items()}
    tape = Tape(params)
    forward(tape, cfg, ids)
    kinds = {np.asarray(tape[name]).dtype for name in tape.index if name != "ids"}
    assert kinds == {np.dtype(np.float32)}, kinds


def test_adjacent_pairs_are_half_pairs_of_reordered_columns():
    """The conversion weights.md documents: with the columns reordered (0, 2, 4, 1, 3, 5), the
    half-pair rotation of the reordered row is the adjacent-pair rotation, reordered; so q·k,
    and the scores, stay the same."""
    order = [0, 2, 4, 1, 3, 5]
    q, k = np.random.default_rng(4).normal(size=(2, 1, 5, 6))
    turn = {p: (lambda x, p=p: OPS["rope"].forward(x, base=100.0, pairs=p)[0]) for p in ("half", "adjacent")}
    np.testing.assert_allclose(turn["half"](q[..., order]), turn["adjacent"](q)[..., order],
                               rtol=0, atol=1e-15)
    scores = {p: turn[p](q[..., order] if p == "half" else q) @ np.swapaxes(
        turn[p](k[..., order] if p == "half" else k), -1, -2) for p in turn}
    np.testing.assert_allclose(scores["half"], scores["adjacent"], rtol=0, atol=1e-14)


# --- the llama preset, trained by hand ---------------------------------------------------------


def test_the_llama_preset_learns_the_tutorials_line(tmp_path):
    """Without a checkpoint, generate trains the preset here (400 Adam steps, the training
    tape's separate RoPE, GQA, RMSNorm and SwiGLU steps) and continues the tutorial's line; the
    same for every seed tried (0-11) when this was written."""
    out = run_here("generate", "--preset", "llama", "when you play the game of thrones",
                   cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.decode().split() == "you win or you die".split()
    assert b"trained 400 Adam steps" in out.stderr


def test_generate_refuses_a_preset_beside_a_checkpoint(tmp_path):
    (tmp_path / "m.ckpt").write_bytes(b"")
    out = run_here("generate", "--preset", "llama", "--checkpoint", "m.ckpt", "when",
                   cwd=tmp_path)
    assert out.returncode == 2 and b"--preset trains a new one" in out.stderr
