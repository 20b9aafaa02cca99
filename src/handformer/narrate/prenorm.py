"""A residual sublayer told step by step for every family whose layers are read off the tape
one norm and one sum at a time: the layer norm (before a sublayer, pre-norm, or after the sum,
post-norm) and the residual sum R = X + Sublayer(…). The encoder-decoder tells its post-norm
add & norm in its own words (families/transformer/layers.py, with the tutorial's D5 beside it);
its pre-norm layers and the decoder-only model's layers are told here."""

from __future__ import annotations

import numpy as np

from .context import Ctx
from .document import Section
from .numbers import dims, f3, mark

# The pre-norm layer norms are titled by the sublayer they feed.
TITLES = {"attn": "prenorm.title.attn", "cross": "prenorm.title.cross",
          "ffn": "prenorm.title.ffn"}
RMS_TITLES = {"attn": "rms.title.attn", "cross": "rms.title.cross", "ffn": "rms.title.ffn"}


def norm(ctx: Ctx, p: str, number: str, tokens: list[str], where: str,
         before: str | None = None) -> None:
    """LN of each row of ``{p}.out``'s input: before a sublayer (``before``: attn, cross or ffn)
    or after the residual sum (post-norm)."""
    d = int(ctx.cfg["d_model"])
    step = ctx.tape.index[f"{p}.out"]
    if step.op == "rms_norm":
        rms_norm(ctx, p, number, tokens, where, before)
        return
    x_name = step.inputs[0]
    x, y = ctx.value(x_name), ctx.value(f"{p}.out")
    mean, std = ctx.extra(f"{p}.out", "mean"), ctx.extra(f"{p}.out", "std")
    paragraphs = [ctx.t("norm.p1"), ctx.t("norm.eps", eps=f"{float(ctx.cfg['ln_eps']):g}")]
    paragraphs.append(ctx.t("norm.p2", tok=tokens[0], mu=f3(mean[0]), sd=f3(std[0]),
                            x=f3(x[0, 0]), y=f3(y[0, 0])))
    gamma, beta = ctx.value(f"{p}.gamma"), ctx.value(f"{p}.beta")
    start = np.all(gamma == 1) and np.all(beta == 0)
    paragraphs.append(ctx.t("norm.gamma_start" if start else "norm.gamma"))
    if before is not None:
        paragraphs.append(ctx.t("prenorm.p1"))
    x_sym = "X" if before is not None else "R"
    stats = np.stack([mean, std], axis=-1)
    equation = [mark(ctx.mat(x_name, x_sym, x, tokens, dims(d)), cell=(0, 0)), r"\Rightarrow",
                mark(ctx.mat(f"{p}.out.stats", r"\mu,\ \sqrt{\sigma^2+\varepsilon}", stats,
                             tokens, ["μ", "√(σ²+ε)"]), rows=(0,)), r"\Rightarrow",
                mark(ctx.mat(f"{p}.out", rf"\mathrm{{LN}}({x_sym})", y, tokens, dims(d)),
                     cell=(0, 0))]
    equation[2].extra = {"gamma": gamma, "beta": beta}
    title = ctx.t(TITLES[before], where=where) if before else ctx.t("norm.title", where=where)
    ctx.add(Section(f"{p}.out", number, title, paragraphs,
                    formula=ctx.formula(f"{p}.out", x=x_sym), equation=equation,
                    steps=[f"{p}.out"]))


def rms_norm(ctx: Ctx, p: str, number: str, tokens: list[str], where: str,
             before: str | None = None) -> None:
    """RMSNorm of each row: divided by its root mean square (extras["rms"]), times γ; no mean
    subtracted, no β."""
    d = int(ctx.cfg["d_model"])
    x_name = ctx.tape.index[f"{p}.out"].inputs[0]
    x, y, rms = ctx.value(x_name), ctx.value(f"{p}.out"), ctx.extra(f"{p}.out", "rms")
    gamma = ctx.value(f"{p}.gamma")
    paragraphs = [ctx.t("rms.p1"), ctx.t("norm.eps", eps=f"{float(ctx.cfg['ln_eps']):g}"),
                  ctx.t("rms.p2", tok=tokens[0], rms=f3(rms[0]), x=f3(x[0, 0]),
                        g=f3(gamma[0]) if gamma is not None else "γ₀", y=f3(y[0, 0])),
                  ctx.t("rms.vs_layer")]
    if gamma is not None and np.all(gamma == 1):
        paragraphs.append(ctx.t("rms.gamma_start"))
    if before is not None:
        paragraphs.append(ctx.t("rms.prenorm"))
    x_sym = "X" if before is not None else "R"
    equation = [mark(ctx.mat(x_name, x_sym, x, tokens, dims(d)), cell=(0, 0)), r"\Rightarrow",
                mark(ctx.mat(f"{p}.out.rms", r"\mathrm{RMS}", rms[:, None], tokens,
                             ["RMS"]), rows=(0,)), r"\rightarrow",
                mark(ctx.mat(f"{p}.out", rf"\mathrm{{RMSNorm}}({x_sym})", y, tokens, dims(d)),
                     cell=(0, 0))]
    title = ctx.t(RMS_TITLES[before], where=where) if before else \
        ctx.t("rms.title", where=where)
    ctx.add(Section(f"{p}.out", number, title, paragraphs,
                    formula=ctx.formula(f"{p}.out", x=x_sym), equation=equation,
                    steps=[f"{p}.out"]))


def residual(ctx: Ctx, p: str, number: str, tokens: list[str], where: str) -> None:
    """R = X + Sublayer(…): ``p`` is the sublayer (pre-norm) or the layer norm (post-norm)
    whose ``.resid`` step is the sum."""
    d = int(ctx.cfg["d_model"])
    step = ctx.tape.index[f"{p}.resid"]
    x, s, r = (ctx.value(n) for n in (*step.inputs, f"{p}.resid"))
    s_sym = r"\mathrm{FFN}" if ".ffn" in step.inputs[1] else r"\mathrm{MHA}"
    paragraphs = [ctx.t("resid.p1", tok=tokens[0], a=f3(x[0, 0]), b=f3(s[0, 0]), c=f3(r[0, 0]))]
    if ctx.cfg["norm"] == "pre":
        paragraphs.append(ctx.t("prenorm.resid"))
    equation = [mark(ctx.mat(step.inputs[0], "X", x, tokens, dims(d)), cell=(0, 0)), "+",
                mark(ctx.mat(step.inputs[1], s_sym, s, tokens, dims(d)), cell=(0, 0)), "=",
                mark(ctx.mat(f"{p}.resid", "R", r, tokens, dims(d)), cell=(0, 0))]
    ctx.add(Section(f"{p}.resid", number, ctx.t("resid.title", where=where),
                    paragraphs, formula=ctx.formula(f"{p}.resid", out="R", a="X", b=s_sym),
                    equation=equation, steps=[f"{p}.resid"]))
