"""The backward through today's parts worked for one cell (issue 46): SwiGLU's product and SiLU,
a key/value head shared by a group of query heads. Each worked share is redone here from the
tape's values by the derivative written out by hand (d/dx x·σ(x) = σ(x)(1 + x(1 − σ(x))))."""

from __future__ import annotations

import math
import re

import numpy as np

import handformer
from handformer.narrate import build

NUMBER = re.compile(r"-?\d+\.\d+(?:×10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)?")
SUPERSCRIPT = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")


def number(text: str) -> float:
    mantissa, _, power = text.partition("×10")
    return float(mantissa) * 10.0 ** int(power.translate(SUPERSCRIPT) or 0)


def cell_of(section) -> tuple:
    for m in section.equation:
        if getattr(m, "highlight", None) is not None and m.highlight.cell is not None:
            head = re.search(r"\.head\.(\d+)$", m.name)
            return ((int(head.group(1)),) if head else ()) + tuple(m.highlight.cell)
    raise AssertionError(section.id)


def test_swiglu_silu_and_shared_heads_work_their_cell_by_hand():
    tape = handformer.walk(family="gpt", preset="llama", backward=True)
    sections = {s.id: s for s in build(tape, "en")}
    x = {s.name: np.asarray(s.value) for s in tape.steps}
    g = {k: np.asarray(v) for k, v in tape.grads.items()}
    p = "decoder.0.ffn"
    sigma = 1 / (1 + np.exp(-x[f"{p}.gate"]))
    kv = "decoder.0.self_attn"
    groups = g[f"{kv}.k_shared"].shape[0] // x[f"{kv}.k_rot"].shape[0]
    by_hand = {  # the share of the one reader, at (i, j) or (head, i, j)
        f"{p}.silu": lambda at: g[f"{p}.act"][at] * x[f"{p}.up"][at],
        f"{p}.up": lambda at: g[f"{p}.act"][at] * x[f"{p}.silu"][at],
        f"{p}.gate": lambda at: g[f"{p}.silu"][at] * sigma[at] * (
            1 + x[f"{p}.gate"][at] * (1 - sigma[at])),
        f"{kv}.k_rot": lambda at: sum(g[f"{kv}.k_shared"][at[0] * groups + r, at[1], at[2]]
                                      for r in range(groups)),
    }
    for name, share in by_hand.items():
        s = sections[f"grad.{name}"]
        text = next(t for t in s.paragraphs if t.startswith("Worked out for one cell"))
        at = cell_of(s)
        value = float(share(at))
        assert math.isclose(value, g[name][at], rel_tol=1e-9, abs_tol=1e-15), name
        said = number(NUMBER.findall(text.split(". In all: ")[1])[0])
        assert math.isclose(said, value, rel_tol=6e-3, abs_tol=5.1e-4), (name, text)
        assert "unchanged" not in text


def test_rmsnorm_works_its_share_by_the_derivative_written_out():
    """∂y_m/∂x_j = γ_m (δ_mj − x_m x_j / (d·RMS²)) / RMS for y = γ ⊙ x / RMS(x): the input's
    share from the norm, beside the residual sum's copy, adds up to the tape's gradient."""
    tape = handformer.walk(family="gpt", preset="llama", backward=True)
    s = next(s for s in build(tape, "en") if s.id == "grad.embed.out")
    i, j = cell_of(s)
    norm = next(t for t in tape.steps if t.op == "rms_norm" and "embed.out" in t.inputs)
    x, gamma = np.asarray(tape.value("embed.out"))[i], np.asarray(tape.value(norm.inputs[1]))
    g = np.asarray(tape.grads[norm.name])[i]
    d, rms = len(x), math.sqrt(float(np.mean(x * x)) + 1e-5)
    share = sum(g[m] * gamma[m] * ((m == j) - x[m] * x[j] / (d * rms * rms)) / rms
                for m in range(d))
    text = next(t for t in s.paragraphs if t.startswith("Worked out for one cell"))
    said = number(NUMBER.findall(text.split("; plus ")[0])[-1])
    assert "RMSNorm(R)" in text and math.isclose(said, share, rel_tol=6e-3, abs_tol=5.1e-4)


def test_rope_turns_the_gradient_back_by_the_pairs_angle():
    """∂L/∂q_a = g_a cos mθ + g_b sin mθ, ∂L/∂q_b = g_b cos mθ − g_a sin mθ, pairs (i, i + d/2),
    θ_i = 10000^(−2i/d): the worked cell of ∂L/∂Q and of ∂L/∂K, by hand."""
    tape = handformer.walk(family="gpt", preset="llama", backward=True)
    sections = {s.id: s for s in build(tape, "en")}
    for leaf in ("q", "k"):
        name = f"decoder.0.self_attn.{leaf}"
        s = sections[f"grad.{name}"]
        h, m, c = cell_of(s)
        g = np.asarray(tape.grads[f"{name}_rot"])
        d = g.shape[-1]
        i, first = c % (d // 2), c < d // 2
        angle = m * 10000.0 ** (-2 * i / d)
        partner = c + d // 2 if first else c - d // 2
        value = g[h, m, c] * math.cos(angle) + (1 if first else -1) * g[h, m, partner] * \
            math.sin(angle)
        assert math.isclose(value, tape.grads[name][h, m, c], rel_tol=1e-9, abs_tol=1e-15)
        text = next(t for t in s.paragraphs if t.startswith("Worked out for one cell"))
        said = number(NUMBER.findall(text.split(". In all: ")[1])[0])
        assert "RoPE" in text and math.isclose(said, value, rel_tol=6e-3, abs_tol=5.1e-4), text
