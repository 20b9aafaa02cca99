"""The encoder-decoder Transformer, composed from ops, writing every step onto a tape.

Shapes: a sequence of n tokens is (n, d_model), a batch (B, n, d_model); heads sit on axis -3,
so one head's scores are (n, m) and all of them (…, h, n, m).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ...engine.formula import head, prime, sub
from ...engine.initial import init_weights
from ...engine.layers import (
    attention,
    causal_mask,
    feed_forward,
    maybe_dropout,
    norm_attrs,
    row_stats,
    sublayer,
)
from ...engine.tape import Tape
from ...errors import ConfigError
from .config import Config, check_size, vocab_sizes

# --- parameters -----------------------------------------------------------------------------

TIED_NEEDS_ONE_VOCAB = (
    "--tie-embeddings shares one table between the source embedding, the target embedding and "
    "the generator, so it needs one vocabulary for both sides; this run has one per side. Add "
    "--shared-vocab (one vocabulary of both sides' words), or leave out --tie-embeddings")


def param_shapes(cfg: Config, vocab_size: int | tuple[int, int],
                 ) -> dict[str, tuple[tuple[int, ...], str]]:
    """Every parameter's name, shape and kind, in the order they are initialized.
    ``vocab_size``: one size shared by both sides, or (source size, target size): the source
    embedding has the source's rows, the target embedding and the generator the target's."""
    n_src, n_tgt = vocab_sizes(vocab_size)
    if cfg.tie_embeddings and n_src != n_tgt:
        raise ConfigError(TIED_NEEDS_ONE_VOCAB)
    check_size(cfg, vocab_size)  # a vocabulary from a file can make the model too large
    d = cfg.d_model
    shapes = {"embed.weight": ((n_tgt, d), "embed")} if cfg.tie_embeddings else {
        "src_embed.weight": ((n_src, d), "embed"),
        "tgt_embed.weight": ((n_tgt, d), "embed")}
    for i in range(cfg.encoder_layers):
        shapes |= _attention_shapes(cfg, f"encoder.{i}.self_attn", cfg.heads)
        shapes |= _norm_shapes(d, f"encoder.{i}.ln1") | _ffn_shapes(cfg, f"encoder.{i}.ffn")
        shapes |= _norm_shapes(d, f"encoder.{i}.ln2")
    if cfg.final_norm:
        shapes |= _norm_shapes(d, "encoder.norm")
    for i in range(cfg.decoder_layers):
        shapes |= _attention_shapes(cfg, f"decoder.{i}.self_attn", cfg.decoder_heads)
        shapes |= _norm_shapes(d, f"decoder.{i}.ln1")
        shapes |= _attention_shapes(cfg, f"decoder.{i}.cross_attn", cfg.decoder_heads)
        shapes |= _norm_shapes(d, f"decoder.{i}.ln2") | _ffn_shapes(cfg, f"decoder.{i}.ffn")
        shapes |= _norm_shapes(d, f"decoder.{i}.ln3")
    if cfg.final_norm:
        shapes |= _norm_shapes(d, "decoder.norm")
    if not cfg.tie_embeddings:
        shapes["generator.w"] = ((d, n_tgt), "weight")
    return shapes | {"generator.b": ((n_tgt,), "bias")}


def table_of(cfg: Config, p: str) -> str:
    """The parameter an embedding (``src_embed``, ``tgt_embed``) looks its rows up in: its own
    table, or the one table E when the embeddings are tied."""
    return "embed.weight" if cfg.tie_embeddings else f"{p}.weight"


def _attention_shapes(cfg: Config, p: str, heads: int) -> dict:
    d, qk, v = cfg.d_model, heads * cfg.d_k, heads * cfg.d_v
    shapes = {f"{p}.w_q": ((d, qk), "weight"), f"{p}.w_k": ((d, qk), "weight"),
              f"{p}.w_v": ((d, v), "weight"), f"{p}.w_o": ((v, d), "weight")}
    if cfg.attn_bias:
        shapes |= {f"{p}.b_q": ((qk,), "bias"), f"{p}.b_k": ((qk,), "bias"),
                   f"{p}.b_v": ((v,), "bias"), f"{p}.b_o": ((d,), "bias")}
    return shapes


def _norm_shapes(d: int, p: str) -> dict:
    return {f"{p}.gamma": ((d,), "gamma"), f"{p}.beta": ((d,), "beta")}


def _ffn_shapes(cfg: Config, p: str) -> dict:
    if cfg.ffn == "single":
        return {f"{p}.w_1": ((cfg.d_model, cfg.d_model), "weight"),
                f"{p}.b_1": ((cfg.d_model,), "bias")}
    return {f"{p}.w_1": ((cfg.d_model, cfg.d_ff), "weight"), f"{p}.b_1": ((cfg.d_ff,), "bias"),
            f"{p}.w_2": ((cfg.d_ff, cfg.d_model), "weight"), f"{p}.b_2": ((cfg.d_model,), "bias")}


def init_params(cfg: Config, vocab_size: int | tuple[int, int], dtype="float64") -> dict[str, np.ndarray]:
    """Tutorial: every weight and bias uniform in [0, 1). Otherwise Xavier-uniform matrices,
    zero biases. Layer norms start at γ = 1, β = 0. The same config and seed give the same
    numbers."""
    return init_weights(param_shapes(cfg, vocab_size), cfg.seed, dtype,
                        uniform=cfg.init == "uniform")


# --- the forward pass -----------------------------------------------------------------------


@dataclass
class Masks:
    """Which keys each query may see (True = seen), broadcastable to (…, h, n, m); None = all."""

    src: np.ndarray | None
    tgt: np.ndarray | None


def make_masks(src_pad: np.ndarray | None, tgt_pad: np.ndarray | None, n_tgt: int) -> Masks:
    """Padding masks hide pad keys; the decoder's causal mask hides the future, always
    (the tutorial calls the mask optional: D8 in docs/errata.md)."""
    src = None if src_pad is None or not src_pad.any() else ~src_pad[..., None, None, :]
    causal = causal_mask(n_tgt)
    tgt = causal if tgt_pad is None or not tgt_pad.any() else causal & ~tgt_pad[..., None, None, :]
    return Masks(src, tgt)


def forward(tape: Tape, cfg: Config, src_ids, tgt_ids, src_pad=None, tgt_pad=None,
            probs: bool = True) -> str:
    """Encoder, decoder and generator for ids of shape (n,) or (B, n); returns the logits' name.
    ``probs`` False leaves out softmax(logits): training's loss reads the logits alone."""
    src_ids, tgt_ids = np.asarray(src_ids), np.asarray(tgt_ids)
    masks = make_masks(src_pad, tgt_pad, tgt_ids.shape[-1])
    memory = encode(tape, cfg, tape.constant("src.ids", src_ids), masks.src)
    y = decode(tape, cfg, tape.constant("tgt.ids", tgt_ids), memory, masks)
    return generator(tape, y, probs, tied=cfg.tie_embeddings)


def generator(tape: Tape, y: str, probs: bool = True, tied: bool = False) -> str:
    """logits = Y W_out + b_out, then p = softmax(logits) unless ``probs`` is False (the
    tutorial's steps 12-13); returns the logits' name. The walk, decoding and BLEU all use it.
    ``tied``: W_out is the embedding table transposed, Eᵀ, a step of its own."""
    w = "generator.w"
    if tied:
        w = tape.run("generator.w", "transpose", ["embed.weight"],
                     symbols={"out": sub("W", "out"), "x": "E"})
    logits = tape.run("generator.logits", "linear", [y, w, "generator.b"],
                      symbols={"out": r"\mathrm{logits}", "x": "Y", "w": sub("W", "out"),
                               "b": sub("b", "out")})
    if probs:
        tape.run("generator.probs", "softmax", [logits],
                 symbols={"out": "p", "s": r"\mathrm{logits}"})
    return logits


def encode(tape: Tape, cfg: Config, ids: str, src_mask) -> str:
    x = embed(tape, cfg, "src_embed", ids, "X")
    for i in range(cfg.encoder_layers):
        p = f"encoder.{i}"
        x = sublayer(tape, cfg, p, "ln1", "self_attn", x, lambda h, p=p: attention(
            tape, cfg, f"{p}.self_attn", h, h, cfg.heads, src_mask))
        x = sublayer(tape, cfg, p, "ln2", "ffn", x,
                     lambda h, p=p: feed_forward(tape, cfg, f"{p}.ffn", h))
        if not tape.fused:  # a name for showing; the fused tape shows nothing
            x = tape.run(f"{p}.out", "identity", [x], symbols={"out": head("X", i + 1), "x": "X"})
    return final_norm(tape, cfg, "encoder", x, "M")


def decode(tape: Tape, cfg: Config, ids: str, memory: str, masks: Masks) -> str:
    y = embed(tape, cfg, "tgt_embed", ids, "Y")
    for i in range(cfg.decoder_layers):
        p = f"decoder.{i}"
        y = sublayer(tape, cfg, p, "ln1", "self_attn", y, lambda h, p=p: attention(
            tape, cfg, f"{p}.self_attn", h, h, cfg.decoder_heads, masks.tgt))
        y = sublayer(tape, cfg, p, "ln2", "cross_attn", y, lambda h, p=p: attention(
            tape, cfg, f"{p}.cross_attn", h, memory, cfg.decoder_heads, masks.src,
            kv_symbol="M"))
        y = sublayer(tape, cfg, p, "ln3", "ffn", y,
                     lambda h, p=p: feed_forward(tape, cfg, f"{p}.ffn", h))
        if not tape.fused:  # a name for showing; the fused tape shows nothing
            y = tape.run(f"{p}.out", "identity", [y], symbols={"out": head("Y", i + 1), "x": "Y"})
    return final_norm(tape, cfg, "decoder", y, "Y")


def final_norm(tape: Tape, cfg: Config, side: str, x: str, sym: str) -> str:
    """torch.nn.Transformer's extra LayerNorm after a whole stack (a config switch)."""
    if not cfg.final_norm:
        return x
    extras = row_stats(tape[x], cfg.ln_eps) if tape.record else None  # μ, σ for showing
    return tape.run(f"{side}.norm.out", "layer_norm",
                    [x, f"{side}.norm.gamma", f"{side}.norm.beta"], norm_attrs(tape, cfg.ln_eps),
                    symbols={"out": sym}, extras=extras)


def embed(tape: Tape, cfg: Config, p: str, ids: str, sym: str) -> str:
    """Token embedding (× √d_model in the paper) plus sinusoidal positional encoding; one step
    on training's fused tape."""
    if tape.fused:
        factor = math.sqrt(cfg.d_model) if cfg.scale_embeddings else None
        out = tape.run(f"{p}.out", "embed_positions", [ids, table_of(cfg, p)], {"factor": factor})
        return maybe_dropout(tape, cfg, f"{p}.dropout", out)
    x = tape.run(f"{p}.tok", "embed", [ids, table_of(cfg, p)], symbols={"out": sub(sym, "tok")})
    if cfg.scale_embeddings:
        x = tape.run(f"{p}.scaled", "scale", [x], {"factor": math.sqrt(cfg.d_model)},
                     symbols={"out": prime(sub(sym, "tok")), "x": sub(sym, "tok"),
                              "c": rf"\sqrt{{{cfg.d_model}}}"})
    n, dtype = tape.value(ids).shape[-1], tape.value(x).dtype
    pos = tape.run(f"{p}.pos", "positional", [], {"n": n, "d": cfg.d_model, "dtype": dtype})
    out = tape.run(f"{p}.out", "add", [x, pos],
                   symbols={"out": sym, "a": tape.index[x].symbols["out"], "b": "PE"})
    return maybe_dropout(tape, cfg, f"{p}.dropout", out)
