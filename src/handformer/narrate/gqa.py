"""Grouped-query attention in the attention's walkthrough: which query heads share which
key/value head, each shared K and V drawn once for its group, and what sharing saves (W_K's and
W_V's numbers, the key/value cache per token and layer) beside full multi-head attention.
The counts are the shapes on the tape multiplied out."""

from __future__ import annotations

import numpy as np

from .context import MAX_HEADS, Ctx
from .document import Section
from .numbers import dims


def members(b, g: int) -> str:
    """The query heads (counted from 1) that read K/V head g."""
    return ", ".join(str(g * b.groups + j + 1) for j in range(b.groups))


def counts(d: int, heads: int, kv_heads: int, dk: int, dv: int) -> np.ndarray:
    """Rows W_K, W_V, the cache per token per layer; columns: these kv_heads, then one K/V
    head per query head (multi-head attention)."""
    def column(kv: int) -> list[int]:
        return [d * kv * dk, d * kv * dv, kv * (dk + dv)]
    return np.array([column(kv_heads), column(heads)], dtype=np.int64).T


def sharing(ctx: Ctx, b) -> None:
    d = int(ctx.cfg.get("d_model", 0))
    table = counts(d, b.heads, b.kv_heads, b.dk, b.dv)
    groups = [ctx.t("gqa.group", g=g + 1, heads=members(b, g)) for g in range(b.kv_heads)]
    paragraphs = [ctx.t("gqa.p1", h=b.heads, kv=b.kv_heads, g=b.groups),
                  ctx.t("gqa.groups", groups=ctx.t("tied.and").join(groups)),
                  ctx.t("gqa.p2", d=d, kv=b.kv_heads, h=b.heads, dk=b.dk, dv=b.dv,
                        wk=table[0, 0], wk_mha=table[0, 1], cache=table[2, 0],
                        cache_mha=table[2, 1], ratio=f"{b.groups:g}")]
    if b.kv_heads == 1:
        paragraphs.append(ctx.t("gqa.mqa"))
    equation: list = []
    for g in range(min(b.kv_heads, MAX_HEADS)):
        k, v = ctx.value(f"{b.p}.k")[..., g, :, :], ctx.value(f"{b.p}.v")[..., g, :, :]
        equation += [ctx.mat(f"{b.p}.kv.{g}.k", b.sym("K", g), k, b.kv_tokens, dims(b.dk, "k"),
                             note=ctx.t("gqa.note", heads=members(b, g))), r"\quad",
                     ctx.mat(f"{b.p}.kv.{g}.v", b.sym("V", g), v, b.kv_tokens, dims(b.dv, "v"),
                             note=ctx.t("gqa.note", heads=members(b, g))), r"\quad"]
    rows = ["W_K", "W_V", ctx.t("gqa.row.cache")]
    cols = [ctx.t("gqa.col.this", kv=b.kv_heads), ctx.t("gqa.col.mha", h=b.heads)]
    counted = ctx.mat(f"{b.p}.gqa.counts", "N", table, rows, cols)
    counted.scale_group = f"{b.p}.gqa.counts"  # counts, not activations: a colour scale apart
    equation.append(counted)
    ctx.add(Section(f"{b.p}.gqa", b.number, ctx.t("gqa.title", where=b.where(ctx)), paragraphs,
                    formula=ctx.formula(f"{b.p}.k_shared"), equation=equation))


def served(ctx: Ctx, b, h: int) -> str:
    """The sentence under a shared K or V: which query heads read it."""
    g = b.projected("k", h)
    return ctx.t("gqa.served", g=g + 1, heads=members(b, g))
