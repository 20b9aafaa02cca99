"""SwiGLU, the feed-forward network of Llama, in the decoder-only walkthrough (ffn "swiglu"):
G = X W_gate and U = X W_up, SiLU(G), H = SiLU(G) ⊙ U, then H W_down; its hidden width by
Llama's rule (config.swiglu_width). Numbers are read off the tape."""

from __future__ import annotations

import numpy as np

from ...engine.formula import sub
from ...narrate.context import Ctx
from ...narrate.document import Section
from ...narrate.numbers import dims, f3, mark
from .config import SWIGLU_MULTIPLE, swiglu_width


def swiglu(ctx: Ctx, f: str, number: str, tokens: list[str], where: str) -> None:
    """The four panels of ``{f}`` (decoder.0.ffn): gate and up, SiLU, the product, W_down."""
    d = int(ctx.cfg["d_model"])
    x_name = ctx.tape.index[f"{f}.gate"].inputs[0]
    x, g, u, s, h, out = (ctx.value(n) for n in (x_name, f"{f}.gate", f"{f}.up", f"{f}.silu",
                                                  f"{f}.act", f"{f}.out"))
    w = g.shape[-1]
    hidden = dims(w, "h")
    rule = swiglu_width(d)
    paragraphs = [ctx.t("swiglu.p1", d=d, w=w),
                  ctx.t("swiglu.rule", d=d, raw=-(-8 * d // 3), k=SWIGLU_MULTIPLE, rule=rule),
                  ctx.t("swiglu.rule.kept" if w == rule else "swiglu.rule.set", w=w)]
    for leaf, symbol, weight, title, first in (
            ("gate", "G", "w_gate", "swiglu.title.gate", paragraphs),
            ("up", "U", "w_up", "swiglu.title.up", [ctx.t("swiglu.up")])):
        ctx.add(Section(f"{f}.{leaf}", number, ctx.t(title, where=where), first,
                        formula=ctx.formula(f"{f}.{leaf}"),
                        equation=[ctx.mat(x_name, "X", x, tokens, dims(d)), r"\cdot",
                                  ctx.param(f"{f}.{weight}", sub("W", leaf), dims(d), hidden),
                                  "=", ctx.mat(f"{f}.{leaf}", symbol, ctx.value(f"{f}.{leaf}"),
                                               tokens, hidden)],
                        steps=[f"{f}.{leaf}"]))
    j = int(np.argmin(g[0]))  # the most negative gate of the first row: SiLU nearly shuts it
    ctx.add(Section(f"{f}.silu", number, ctx.t("swiglu.title.silu", where=where),
                    [ctx.t("swiglu.silu", tok=tokens[0], j=j, g=f3(g[0, j]),
                           sig=f3(s[0, j] / g[0, j]) if g[0, j] else "0.500", s=f3(s[0, j]),
                           k=int(np.sum(g < 0)), total=g.size)],
                    formula=ctx.formula(f"{f}.silu"),
                    equation=[mark(ctx.mat(f"{f}.gate", "G", g, tokens, hidden), cell=(0, j)),
                              r"\Rightarrow",
                              mark(ctx.mat(f"{f}.silu", r"\mathrm{SiLU}(G)", s, tokens, hidden),
                                   cell=(0, j))],
                    steps=[f"{f}.silu"]))
    ctx.add(Section(f"{f}.act", number, ctx.t("swiglu.title.act", where=where),
                    [ctx.t("swiglu.act", tok=tokens[0], s=f3(s[0, 0]), u=f3(u[0, 0]),
                           h=f3(h[0, 0]))],
                    formula=ctx.formula(f"{f}.act"),
                    equation=[mark(ctx.mat(f"{f}.silu", r"\mathrm{SiLU}(G)", s, tokens, hidden),
                                   cell=(0, 0)), r"\odot",
                              mark(ctx.mat(f"{f}.up", "U", u, tokens, hidden), cell=(0, 0)), "=",
                              mark(ctx.mat(f"{f}.act", "H", h, tokens, hidden), cell=(0, 0))],
                    steps=[f"{f}.act"]))
    ctx.add(Section(f"{f}.out", number, ctx.t("ffn.title.out", where=where),
                    [ctx.t("swiglu.down", d=d, w=w, params=3 * d * w, relu=2 * d * 4 * d)],
                    formula=ctx.formula(f"{f}.out"),
                    equation=[ctx.mat(f"{f}.act", "H", h, tokens, hidden), r"\cdot",
                              ctx.param(f"{f}.w_down", sub("W", "down"), hidden, dims(d)), "=",
                              ctx.mat(f"{f}.out", r"\mathrm{FFN}", out, tokens, dims(d))],
                    steps=[f"{f}.out"]))
