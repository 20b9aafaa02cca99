"""The decoder-only Transformer (GPT-style), composed from the shared ops and sublayers, every
step onto a tape.

    X = E[ids] + PE;  for each layer: X ← X + MHA(LN₁(X)) (causal), X ← X + FFN(LN₂(X));
    Y = LN_f(X);  logits = Y Eᵀ;  L = cross-entropy(logits, ids shifted by one)

Pre-norm by default (GPT-2); ``norm="post"`` is the paper's LN(X + Sublayer(X)). Shapes: a
sequence of n tokens is (n, d_model); heads sit on axis -3. Step names follow the encoder-
decoder's decoder (``decoder.0.self_attn.pattern``, ``generator.logits``): it is that decoder
without the cross-attention, so the shared narrators and names read it as such.
"""

from __future__ import annotations

import numpy as np

from ...engine.formula import head, sub
from ...engine.initial import init_weights
from ...engine.layers import (
    attention,
    causal_mask,
    feed_forward,
    maybe_dropout,
    norm_params,
    norm_step,
    sublayer,
)
from ...engine.tape import Tape
from .config import GptConfig, check_size

# --- parameters -----------------------------------------------------------------------------


def param_shapes(cfg: GptConfig, vocab_size: int) -> dict[str, tuple[tuple[int, ...], str]]:
    """Every parameter's name, shape and kind, in the order they are initialized."""
    check_size(cfg, vocab_size)
    d, kind = cfg.d_model, cfg.norm_kind
    shapes = {"embed.weight": ((vocab_size, d), "embed")}
    for i in range(cfg.layers):
        p = f"decoder.{i}"
        shapes |= norm_params(d, f"{p}.ln1", kind)
        shapes |= _attention(cfg, f"{p}.self_attn")
        shapes |= norm_params(d, f"{p}.ln2", kind)
        shapes |= _ffn(cfg, f"{p}.ffn")
    if cfg.final_norm:
        shapes |= norm_params(d, "decoder.norm", kind)
    if not cfg.tie_embeddings:
        shapes["generator.w"] = ((d, vocab_size), "weight")
    return shapes


def _attention(cfg: GptConfig, p: str) -> dict:
    """W_Q for every query head; W_K, W_V for the key/value heads (fewer with GQA); W_O."""
    d, q, kv, v = cfg.d_model, cfg.heads * cfg.d_k, cfg.kv_heads * cfg.d_k, cfg.kv_heads * cfg.d_v
    shapes = {f"{p}.w_q": ((d, q), "weight"), f"{p}.w_k": ((d, kv), "weight"),
              f"{p}.w_v": ((d, v), "weight"), f"{p}.w_o": ((cfg.heads * cfg.d_v, d), "weight")}
    if cfg.attn_bias:
        shapes |= {f"{p}.b_q": ((q,), "bias"), f"{p}.b_k": ((kv,), "bias"),
                   f"{p}.b_v": ((v,), "bias"), f"{p}.b_o": ((d,), "bias")}
    return shapes


def _ffn(cfg: GptConfig, p: str) -> dict:
    d, w = cfg.d_model, cfg.d_ff
    if cfg.ffn == "swiglu":
        return {f"{p}.w_gate": ((d, w), "weight"), f"{p}.w_up": ((d, w), "weight"),
                f"{p}.w_down": ((w, d), "weight")}
    return {f"{p}.w_1": ((d, w), "weight"), f"{p}.b_1": ((w,), "bias"),
            f"{p}.w_2": ((w, d), "weight"), f"{p}.b_2": ((d,), "bias")}


def init_params(cfg: GptConfig, vocab_size: int, dtype="float64") -> dict[str, np.ndarray]:
    """Xavier-uniform matrices, zero biases, γ = 1, β = 0; the same config and seed give the
    same numbers."""
    return init_weights(param_shapes(cfg, vocab_size), cfg.seed, dtype)


# --- the forward pass -----------------------------------------------------------------------


def forward(tape: Tape, cfg: GptConfig, ids) -> str:
    """Embedding, the layers, the final norm and the output layer for ids of shape (n,) or
    (B, n); returns the logits' name."""
    ids = np.asarray(ids)
    x = embed(tape, cfg, tape.constant("ids", ids))
    allowed = causal_mask(ids.shape[-1])
    for i in range(cfg.layers):
        x = layer(tape, cfg, f"decoder.{i}", x, allowed)
        if not tape.fused:  # a name for showing; the fused tape shows nothing
            x = tape.run(f"decoder.{i}.out", "identity", [x],
                         symbols={"out": head("X", i + 1), "x": "X"})
    if cfg.final_norm:
        x = norm_step(tape, cfg, "decoder.norm", x, symbols={"out": "Y"})
    return generator(tape, cfg, x)


def embed(tape: Tape, cfg: GptConfig, ids: str) -> str:
    """X = E[ids] + PE: token embedding plus sinusoidal positional encoding (one step on
    training's fused tape); with rotary positions X = E[ids] alone (the positions turn q and k
    inside attention)."""
    if cfg.pos == "rope":
        x = tape.run("embed.out", "embed", [ids, "embed.weight"], symbols={"out": "X"})
        return maybe_dropout(tape, cfg, "embed.dropout", x)
    if tape.fused:
        return maybe_dropout(tape, cfg, "embed.dropout",
                             tape.run("embed.out", "embed_positions", [ids, "embed.weight"]))
    x = tape.run("embed.tok", "embed", [ids, "embed.weight"], symbols={"out": sub("X", "tok")})
    n, dtype = tape.value(ids).shape[-1], tape.value(x).dtype
    pos = tape.run("embed.pos", "positional", [], {"n": n, "d": cfg.d_model, "dtype": dtype})
    out = tape.run("embed.out", "add", [x, pos], symbols={"out": "X", "a": sub("X", "tok"), "b": "PE"})
    return maybe_dropout(tape, cfg, "embed.dropout", out)


def layer(tape: Tape, cfg: GptConfig, p: str, x: str, allowed) -> str:
    """Masked self-attention, then the feed-forward network, each a residual sublayer: pre-norm
    X + Sublayer(LN(X)) (the residual stream never normalized), or post-norm LN(X + Sublayer(X))
    (the paper's order)."""
    x = sublayer(tape, cfg, p, "ln1", "self_attn", x,
                 lambda h: attention(tape, cfg, f"{p}.self_attn", h, h, cfg.heads, allowed))
    return sublayer(tape, cfg, p, "ln2", "ffn", x,
                    lambda h: feed_forward(tape, cfg, f"{p}.ffn", h))


def generator(tape: Tape, cfg: GptConfig, y: str, probs: bool = True) -> str:
    """logits = Y W_out, with W_out = Eᵀ when the embeddings are tied; then p = softmax."""
    w = "generator.w"
    if cfg.tie_embeddings:
        w = tape.run("generator.w", "transpose", ["embed.weight"],
                     symbols={"out": sub("W", "out"), "x": "E"})
    logits = tape.run("generator.logits", "linear", [y, w],
                      symbols={"out": r"\mathrm{logits}", "x": "Y", "w": sub("W", "out"),
                               "b": None})
    if probs:
        tape.run("generator.probs", "softmax", [logits], symbols={"out": "p", "s": r"\mathrm{logits}"})
    return logits
