"""The sublayers every family builds from, each writing its steps onto a tape: multi-head
attention (and its causal mask), the residual sum with layer norm, the feed-forward network,
dropout (a family's initial weights: engine/initial.py).

``cfg`` is any family's config with the fields these read: ``d_model``, ``ln_eps``,
``attn_bias``, ``ffn``, ``dropout``, and for ``sublayer`` ``norm`` ("post" or "pre").
"""

from __future__ import annotations

import functools
import math

import numpy as np

from .formula import head, sub, sup
from .ops import OPS
from .ops.loss import position_losses
from .tape import Tape


def maybe_dropout(tape: Tape, cfg, name: str, x: str) -> str:
    """Dropout where the paper puts it, only while training (tape.dropout_rng set)."""
    if tape.dropout_rng is None or cfg.dropout == 0.0:
        return x
    value = tape[x]
    keep = tape.dropout_rng.random(value.shape) >= cfg.dropout
    return tape.run(name, "dropout", [x], {"keep": keep, "p": cfg.dropout})


def attention(tape: Tape, cfg, p: str, x: str, kv: str, heads: int, allowed,
              kv_symbol: str = "X") -> str:
    """Multi-head attention: per head softmax(Q Kᵀ/√d_k) V, heads concatenated, times W_O.
    With a config's ``pos`` "rope", Q and K are turned by their positions first; with fewer
    ``kv_heads`` than heads, each key/value head serves a group of query heads."""
    if tape.fused and not rotated_or_grouped(cfg):
        return fused_attention(tape, cfg, p, x, kv, heads, allowed)
    q, k, v = query_key_value(tape, cfg, p, x, kv, kv_symbol, heads)
    return attend_heads(tape, cfg, p, q, k, v, heads, allowed)


def attend_heads(tape: Tape, cfg, p: str, q: str, k: str, v: str, heads: int, allowed) -> str:
    """softmax(Q Kᵀ/√d_k) V per head (masked where ``allowed`` is False; None: every key is
    seen), the heads concatenated, times W_O: what a query does with the keys and values it is
    given (all of a sentence's, or a key/value cache's)."""
    s = tape.run(f"{p}.scores", "scores", [q, k], {"scale": 1.0 / math.sqrt(cfg.d_k)})
    shown = [("q", q), ("k", k), ("v", v), ("scores", s)]
    if allowed is not None:
        s = tape.run(f"{p}.masked", "mask", [s], training(tape, {"allowed": allowed}, in_place=True))
        shown.append(("masked", s))
    a = tape.run(f"{p}.pattern", "softmax", [s])
    z = tape.run(f"{p}.z", "attend", [maybe_dropout(tape, cfg, f"{p}.pattern_dropout", a), v])
    if tape.record:
        head_views(tape, p, heads, [*shown, ("pattern", a), ("z", z)])
    concat = tape.run(f"{p}.concat", "merge_heads", [z])
    bias = [f"{p}.b_o"] if cfg.attn_bias else []
    out = tape.run(f"{p}.out", "linear", [concat, f"{p}.w_o", *bias],
                   symbols={"out": r"\mathrm{MHA}", "x": "Z", "w": sup("W", "O"),
                            "b": sup("b", "O") if cfg.attn_bias else None})
    return maybe_dropout(tape, cfg, f"{p}.dropout", out)


def rotated_or_grouped(cfg) -> bool:
    """Whether attention turns q and k by position (RoPE) or shares key/value heads (GQA):
    then training runs its separate steps too (the fused ``mha`` step has neither)."""
    return getattr(cfg, "pos", "sinusoidal") == "rope" or kv_heads(cfg) != cfg_heads(cfg)


def kv_heads(cfg) -> int:
    return getattr(cfg, "kv_heads", None) or cfg_heads(cfg)


def cfg_heads(cfg) -> int:
    return getattr(cfg, "decoder_heads", None) or cfg.heads


def query_key_value(tape: Tape, cfg, p: str, x: str, kv: str, kv_symbol: str, heads: int,
                    start: int = 0) -> tuple[str, str, str]:
    """Q, K and V, split into heads, as the scores read them: projected (``{p}.q``, ``.k``,
    ``.v``); with RoPE, Q and K turned by their positions start, start + 1, … (``{p}.q_rot``,
    ``.k_rot``); with grouped-query attention, each K/V head repeated for its group
    (``{p}.k_shared``, ``.v_shared``)."""
    q, k, v = own_query_key_value(tape, cfg, p, x, kv, kv_symbol, heads, start)
    k, v = share_keys_values(tape, cfg, p, k, v, heads)
    return q, k, v


def own_query_key_value(tape: Tape, cfg, p: str, x: str, kv: str, kv_symbol: str, heads: int,
                        start: int = 0) -> tuple[str, str, str]:
    """Q for every query head, K and V for the key/value heads only (what a key/value cache
    keeps), Q and K turned by their positions start, start + 1, … with RoPE."""
    groups = groups_of(cfg, heads)
    q = project(tape, cfg, p, "q", x, "X", heads)
    k = project(tape, cfg, p, "k", kv, kv_symbol, heads // groups)
    v = project(tape, cfg, p, "v", kv, kv_symbol, heads // groups)
    if getattr(cfg, "pos", "sinusoidal") == "rope":
        q, k = (rotate(tape, cfg, p, which, name, start) for which, name in (("q", q), ("k", k)))
    return q, k, v


def share_keys_values(tape: Tape, cfg, p: str, k: str, v: str, heads: int) -> tuple[str, str]:
    """Grouped-query attention: each K/V head repeated for its group of query heads
    (``{p}.k_shared``, ``.v_shared``); K and V as they are otherwise."""
    groups = groups_of(cfg, heads)
    if groups == 1:
        return k, v
    k, v = (tape.run(f"{p}.{which}_shared", "repeat_kv", [name], {"groups": groups},
                     symbols={"out": symbol_of(tape, name), "x": symbol_of(tape, name)})
            for which, name in (("k", k), ("v", v)))
    return k, v


def groups_of(cfg, heads: int) -> int:
    """Query heads per key/value head (1: every head has its own keys and values)."""
    return heads // kv_heads(cfg) if kv_heads(cfg) != cfg_heads(cfg) else 1


def rotate(tape: Tape, cfg, p: str, which: str, x: str, start: int = 0) -> str:
    """RoPE on one of Q, K (ops/modern.py): each pair of a head's columns turned by m·θ_i."""
    big = which.upper()
    return tape.run(f"{p}.{which}_rot", "rope", [x],
                    {"base": cfg.rope_base, "pairs": cfg.rope_pairs, "start": start},
                    symbols={"out": rf"\tilde{{{big}}}", "x": big})


def fused_attention(tape: Tape, cfg, p: str, x: str, kv: str, heads: int, allowed) -> str:
    """The same attention as one step (ops/fused.py), for training's fused tape. Dropout on the
    pattern draws its mask here, where the separate steps draw it: the same random numbers."""
    inputs = [x, kv, *(f"{p}.w_{w}" for w in "qkvo")]
    if cfg.attn_bias:
        inputs += [f"{p}.b_{w}" for w in "qkvo"]
    attrs = {"heads": heads, "scale": 1.0 / math.sqrt(cfg.d_k), "allowed": allowed}
    if tape.dropout_rng is not None and cfg.dropout:
        rows, keys = tape[x].shape[:-1], tape[kv].shape[-2]
        pattern = (*rows[:-1], heads, rows[-1], keys)
        attrs |= {"keep": tape.dropout_rng.random(pattern) >= cfg.dropout, "p": cfg.dropout}
    out = tape.run(f"{p}.out", "mha", inputs, attrs)
    return maybe_dropout(tape, cfg, f"{p}.dropout", out)


def project(tape: Tape, cfg, p: str, which: str, x: str, x_sym: str, heads: int) -> str:
    big = which.upper()
    bias = [f"{p}.b_{which}"] if cfg.attn_bias else []
    return tape.run(f"{p}.{which}", "head_proj", [x, f"{p}.w_{which}", *bias], {"heads": heads},
                    symbols={"out": big, "x": x_sym, "w": sup("W", big),
                             "b": sup("b", big) if cfg.attn_bias else None})


def head_views(tape: Tape, p: str, heads: int, roles: list[tuple[str, str]]) -> None:
    """One view per head of each (role, step): ``{p}.head.{h}.{role}``."""
    wholes = [symbol_of(tape, name) for _, name in roles]
    for h in range(heads):
        for (role, name), whole in zip(roles, wholes, strict=True):
            tape.run(f"{p}.head.{h}.{role}", "select_head", [name], {"index": h}, view=True,
                     symbols={"out": head(whole, h + 1), "x": whole})


def symbol_of(tape: Tape, name: str) -> str:
    """The symbol a step's formula gives its output (Q, S, \\mathrm{MHA}, ...). The training
    tape shows no formula: there every step is the generic Y, not looked up."""
    if not tape.record:
        return "Y"
    step = tape.index[name]
    return (dict(OPS[step.op].symbols) | step.symbols).get("out", "Y")


def sublayer(tape: Tape, cfg, p: str, ln: str, part: str, x: str, make) -> str:
    """One residual sublayer in the config's order. Post-norm (the paper): LN(x + make(x)),
    the sum ``{p}.{ln}.resid``, the norm ``{p}.{ln}.out``. Pre-norm (GPT-2, the Annotated
    Transformer): x + make(LN(x)), the norm ``{p}.{ln}.out``, the sum ``{p}.{part}.resid``:
    the residual stream itself is never normalized."""
    if cfg.norm != "pre":
        return add_norm(tape, cfg, p, ln, x, make(x))
    out = make(norm_step(tape, cfg, f"{p}.{ln}", x))
    return tape.run(f"{p}.{part}.resid", "add", [x, out],
                    symbols={"out": "R", "a": "X", "b": symbol_of(tape, out)})


def norm_step(tape: Tape, cfg, p: str, x: str, symbols: dict | None = None) -> str:
    """LN(x) as a step of its own, ``{p}.out`` (pre-norm: what a sublayer reads); RMSNorm
    (γ only) when the config's ``norm_kind`` is "rms"."""
    rms = norm_kind(cfg) == "rms"
    if symbols is None:
        symbols = {"out": r"\mathrm{RMSNorm}(X)" if rms else r"\mathrm{LN}(X)", "x": "X"}
    if rms:
        extras = {"rms": rms_of(tape[x], cfg.ln_eps)} if tape.record else None
        return tape.run(f"{p}.out", "rms_norm", [x, f"{p}.gamma"], {"eps": cfg.ln_eps},
                        symbols=symbols, extras=extras)
    extras = row_stats(tape[x], cfg.ln_eps) if tape.record else None
    return tape.run(f"{p}.out", "layer_norm", [x, f"{p}.gamma", f"{p}.beta"],
                    norm_attrs(tape, cfg.ln_eps), symbols=symbols, extras=extras)


def norm_kind(cfg) -> str:
    """"layer" (LayerNorm, γ and β) or "rms" (RMSNorm, γ only)."""
    return getattr(cfg, "norm_kind", "layer")


def norm_params(d: int, p: str, kind: str = "layer") -> dict:
    """A norm's parameters' shapes: γ (and β for LayerNorm)."""
    shapes = {f"{p}.gamma": ((d,), "gamma")}
    return shapes if kind == "rms" else shapes | {f"{p}.beta": ((d,), "beta")}


def rms_of(x: np.ndarray, eps: float) -> np.ndarray:
    """Each row's √(mean(x²) + ε), kept for showing."""
    return np.sqrt(np.mean(x * x, axis=-1) + eps)


def add_norm(tape: Tape, cfg, p: str, ln: str, x: str, sublayer: str) -> str:
    """Post-norm residual: LN(x + Sublayer(x)) (the tutorial's steps 8 and 10); one step on
    training's fused tape (LayerNorm's; RMSNorm keeps its two)."""
    if tape.fused and norm_kind(cfg) == "layer":
        return tape.run(f"{p}.{ln}.out", "add_norm",
                        [x, sublayer, f"{p}.{ln}.gamma", f"{p}.{ln}.beta"], norm_attrs(tape, cfg.ln_eps))
    resid = tape.run(f"{p}.{ln}.resid", "add", [x, sublayer],
                     symbols={"out": "R", "a": "X", "b": symbol_of(tape, sublayer)})
    return norm_step(tape, cfg, f"{p}.{ln}", resid, symbols={})


def norm_attrs(tape: Tape, eps: float) -> dict:
    """A layer_norm step's attributes; the training tape takes its row means by BLAS."""
    return training(tape, {"eps": eps}, blas_means=True)


def training(tape: Tape, attrs: dict, **fast) -> dict:
    """A step's attributes, with the training tape's faster variants (``fast``: in place, BLAS
    means) when the tape does not record: the walk's tape keeps every value and every digit."""
    return attrs if tape.record else attrs | fast


def row_stats(x: np.ndarray, eps: float) -> dict[str, np.ndarray]:
    """Each row's mean and √(variance + ε): the two numbers layer norm divides by, kept for
    showing (the narration tells them for the first token)."""
    mu = x.mean(axis=-1)
    return {"mean": mu, "std": np.sqrt(x.var(axis=-1) + eps)}


def loss_step(tape: Tape, logits: str, targets, smoothing: float = 0.0) -> str:
    """The walk's loss L over every position, with each position's own loss ℓ_t kept for
    showing (``extras.per_position``) when the tape records."""
    targets = np.asarray(targets)
    extras = ({"per_position": position_losses(tape[logits], targets, smoothing)[0]}
              if tape.record else None)
    return tape.run("loss", "cross_entropy", [logits],
                    {"targets": targets, "weights": np.ones(targets.shape),
                     "smoothing": smoothing},
                    symbols={"out": "L", "x": r"\mathrm{logits}"}, extras=extras)


def feed_forward(tape: Tape, cfg, p: str, x: str) -> str:
    """Tutorial: ReLU(X W + b). Paper: ReLU(X W_1 + b_1) W_2 + b_2 (D4 in docs/errata.md).
    SwiGLU (``ffn`` "swiglu", Llama): (SiLU(X W_gate) ⊙ X W_up) W_down, no biases."""
    if cfg.ffn == "swiglu":
        return swiglu(tape, cfg, p, x)
    single = cfg.ffn == "single"
    if tape.fused:
        act = tape.run(f"{p}.out" if single else f"{p}.act", "linear_relu",
                       [x, f"{p}.w_1", f"{p}.b_1"])
        return _second_half(tape, cfg, p, act, single)
    hidden = "H" if single else sub("H", 1)
    pre = tape.run(f"{p}.pre", "linear", [x, f"{p}.w_1", f"{p}.b_1"],
                   symbols={"out": hidden, "w": sub("W", 1), "b": sub("b", 1)})
    act = tape.run(f"{p}.out" if single else f"{p}.act", "relu", [pre],
                   training(tape, {}, in_place=True), symbols={"out": r"\mathrm{FFN}" if single else "H", "x": hidden})
    return _second_half(tape, cfg, p, act, single)


def swiglu(tape: Tape, cfg, p: str, x: str) -> str:
    """G = X W_gate, U = X W_up, H = SiLU(G) ⊙ U, FFN = H W_down: the gate decides, number by
    number, how much of U passes."""
    gate = tape.run(f"{p}.gate", "linear", [x, f"{p}.w_gate"],
                    symbols={"out": "G", "w": sub("W", "gate"), "b": None})
    up = tape.run(f"{p}.up", "linear", [x, f"{p}.w_up"],
                  symbols={"out": "U", "w": sub("W", "up"), "b": None})
    act = tape.run(f"{p}.silu", "silu", [gate], symbols={"out": r"\mathrm{SiLU}(G)", "x": "G"})
    h = tape.run(f"{p}.act", "mul", [act, up],
                 symbols={"out": "H", "a": r"\mathrm{SiLU}(G)", "b": "U"})
    out = tape.run(f"{p}.out", "linear", [h, f"{p}.w_down"],
                   symbols={"out": r"\mathrm{FFN}", "x": "H", "w": sub("W", "down"), "b": None})
    return maybe_dropout(tape, cfg, f"{p}.dropout", out)


def _second_half(tape: Tape, cfg, p: str, act: str, single: bool) -> str:
    """The FFN after its ReLU: the second affine map (the paper's) and dropout."""
    if single:
        return maybe_dropout(tape, cfg, f"{p}.dropout", act)
    out = tape.run(f"{p}.out", "linear", [act, f"{p}.w_2", f"{p}.b_2"],
                   symbols={"out": r"\mathrm{FFN}", "x": "H", "w": sub("W", 2), "b": sub("b", 2)})
    return maybe_dropout(tape, cfg, f"{p}.dropout", out)


@functools.lru_cache(maxsize=64)
def causal_mask(n: int) -> np.ndarray:
    """Lower-triangular n×n: query i sees keys j ≤ i. Shared between calls, so read-only."""
    mask = np.tril(np.ones((n, n), dtype=bool))
    mask.flags.writeable = False
    return mask
