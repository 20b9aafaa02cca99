"""Incremental decoding: the decoder for the newest position only, with a key/value cache.

Under the causal mask, position t's output depends on the earlier positions only through the
keys and values of the self-attention, k_j = y_j W^K + b^K and v_j = y_j W^V + b^V (j ≤ t) of
each decoder layer, and those do not change when a later token is appended. So each layer
keeps them (shape (B, h, t, d_k)) and a step computes, for the one new token, its query, key
and value, appends the key and value, and attends over all t + 1 of them. The cross-attention's
keys and values are projections of the encoder's memory, which never changes: they are
computed once per sentence. Every other step (embedding, layer norms, feed-forward, generator)
works row by row, so the new row is exactly what the full pass computes for it; only the order
of floating-point sums inside matrix products may differ (round-off, ~1e-16 relative).

A step's tape holds the same names as a full pass's (``decoder.0.self_attn.k`` is then every
cached key plus the new one), so ``translate --explain`` reads it unchanged.
"""

from __future__ import annotations

import math

import numpy as np

from ...engine.layers import feed_forward, head_views, project, sublayer
from ...engine.ops import OPS
from ...engine.tape import Tape
from .config import Config
from .model import final_norm, generator, table_of


class KVCache:
    """Per decoder layer: the self-attention's keys and values so far, and the cross-attention's
    keys and values of the memory (computed once)."""

    def __init__(self, params, cfg: Config, memory: np.ndarray, src_mask=None):
        self.params, self.cfg, self.src_mask = params, cfg, src_mask
        self.self_kv: list[tuple[np.ndarray, np.ndarray] | None] = [None] * cfg.decoder_layers
        tape = Tape(params, record=False)
        tape.constant("memory", memory)
        self.cross_kv = []
        for i in range(cfg.decoder_layers):
            p = f"decoder.{i}.cross_attn"
            self.cross_kv.append(tuple(tape[project(tape, cfg, p, w, "memory", "M",
                                                      cfg.decoder_heads)] for w in ("k", "v")))
        self.length = 0  # positions cached

    def reorder(self, rows) -> None:
        """Beam search: hypothesis b of the next step extends row ``rows[b]`` of this one."""
        rows = np.asarray(rows, dtype=np.int64)
        self.self_kv = [None if kv is None else (kv[0][rows], kv[1][rows])
                        for kv in self.self_kv]

    def step(self, new_ids, record: bool = False) -> tuple[Tape, np.ndarray]:
        """The decoder and generator for one new token per row (ids of shape (B,)); returns
        the tape and p(next token) of shape (B, V)."""
        cfg, t = self.cfg, self.length
        tape = Tape(self.params, record=record)
        ids = tape.constant("tgt.ids", np.asarray(new_ids, dtype=np.int64)[:, None])
        y = _embed_at(tape, cfg, ids, t)
        for i in range(cfg.decoder_layers):
            p = f"decoder.{i}"
            y = sublayer(tape, cfg, p, "ln1", "self_attn", y,
                         lambda h, p=p, i=i: self._self_attention(tape, f"{p}.self_attn", h, i))
            k, v = (tape.constant(f"{p}.cross_attn.{w}", kv)
                    for w, kv in zip("kv", self.cross_kv[i], strict=True))
            y = sublayer(tape, cfg, p, "ln2", "cross_attn", y, lambda h, p=p, k=k, v=v: _attend(
                tape, cfg, f"{p}.cross_attn", h, k, v, self.src_mask))
            y = sublayer(tape, cfg, p, "ln3", "ffn", y,
                         lambda h, p=p: feed_forward(tape, cfg, f"{p}.ffn", h))
        y = final_norm(tape, cfg, "decoder", y, "Y")
        generator(tape, y, tied=cfg.tie_embeddings)
        self.length += 1
        return tape, tape["generator.probs"][:, -1, :]

    def _self_attention(self, tape: Tape, p: str, y: str, layer: int) -> str:
        """Project the new position's key and value, append them to the cache, attend."""
        heads = self.cfg.decoder_heads
        new_k, new_v = _new_kv(tape, self.cfg, p, y, heads)
        old = self.self_kv[layer]
        keys, values = (new_k, new_v) if old is None else (
            np.concatenate([old[0], new_k], axis=-2), np.concatenate([old[1], new_v], axis=-2))
        self.self_kv[layer] = (keys, values)
        k, v = tape.constant(f"{p}.k", keys), tape.constant(f"{p}.v", values)
        return _attend(tape, self.cfg, p, y, k, v, None)


def _new_kv(tape: Tape, cfg: Config, p: str, y: str, heads: int):
    """k_t = y_t W^K + b^K and v_t = y_t W^V + b^V of the newest position (B, h, 1, d_k)."""
    out = []
    for which in ("k", "v"):
        bias = [f"{p}.b_{which}"] if cfg.attn_bias else []
        name = tape.run(f"{p}.{which}_new", "head_proj", [y, f"{p}.w_{which}", *bias],
                        {"heads": heads})
        out.append(tape[name])
    return tuple(out)


def _attend(tape: Tape, cfg: Config, p: str, x: str, k: str, v: str, allowed) -> str:
    """softmax(q Kᵀ/√d_k) V for the new position's query over the given keys and values;
    no causal mask is needed: every cached key is of an earlier (or this) position."""
    heads = tape[k].shape[-3]
    q = project(tape, cfg, p, "q", x, "Y", heads)
    s = tape.run(f"{p}.scores", "scores", [q, k], {"scale": 1.0 / math.sqrt(cfg.d_k)})
    shown = [("q", q), ("scores", s)]  # k and v are the cache's (constants on this tape)
    if allowed is not None:
        s = tape.run(f"{p}.masked", "mask", [s], {"allowed": allowed})
        shown.append(("masked", s))
    a = tape.run(f"{p}.pattern", "softmax", [s])
    z = tape.run(f"{p}.z", "attend", [a, v])
    if tape.record:  # per-head slices, for --explain
        head_views(tape, p, heads, [*shown, ("pattern", a), ("z", z)])
    concat = tape.run(f"{p}.concat", "merge_heads", [z])
    bias = [f"{p}.b_o"] if cfg.attn_bias else []
    return tape.run(f"{p}.out", "linear", [concat, f"{p}.w_o", *bias])


def _embed_at(tape: Tape, cfg: Config, ids: str, position: int) -> str:
    """Token embedding (× √d_model) plus the positional encoding of row ``position`` only."""
    x = tape.run("tgt_embed.tok", "embed", [ids, table_of(cfg, "tgt_embed")])
    if cfg.scale_embeddings:
        x = tape.run("tgt_embed.scaled", "scale", [x], {"factor": math.sqrt(cfg.d_model)})
    table, _ = OPS["positional"].forward(n=position + 1, d=cfg.d_model, dtype=tape[x].dtype)
    pos = tape.constant("tgt_embed.pos", table[position:position + 1])
    return tape.run("tgt_embed.out", "add", [x, pos])
