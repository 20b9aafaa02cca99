"""The decoder-only model's stack in its walkthrough: each layer (layer norm, attention,
residual sum, feed-forward), the final norm, the logits through Eᵀ, and after a backward pass
the tied table's gradient as the sum of its two uses. Numbers are read off the tape."""

from __future__ import annotations

import numpy as np

from ...narrate import prenorm, tied
from ...narrate.attention import attention
from ...narrate.context import Ctx
from ...narrate.document import Section
from ...narrate.numbers import dims, mark
from .swiglu import swiglu


def d_model(ctx: Ctx) -> int:
    """The model's width, read off the tape's config."""
    return int(ctx.cfg["d_model"])


def input_tokens(ctx: Ctx) -> list[str]:
    """The input tokens (<start> and the words): the decoder's input, meta["tgt"]."""
    return ctx.tokens("tgt")


def layer(ctx: Ctx, i: int) -> None:
    p = f"decoder.{i}"
    if ctx.cfg["norm"] == "pre":
        norm(ctx, f"{p}.ln1", "7", i, before="attn")
        attention(ctx, f"{p}.self_attn", "self", "7", i, stream="X")
        residual(ctx, f"{p}.self_attn", "8", i)
        norm(ctx, f"{p}.ln2", "9", i, before="ffn")
        feed_forward(ctx, p, "9", i)
        residual(ctx, f"{p}.ffn", "10", i)
    else:
        attention(ctx, f"{p}.self_attn", "self", "7", i, stream="X")
        residual(ctx, f"{p}.ln1", "8", i)
        norm(ctx, f"{p}.ln1", "8", i)
        feed_forward(ctx, p, "9", i)
        residual(ctx, f"{p}.ln2", "10", i)
        norm(ctx, f"{p}.ln2", "10", i)


def _where(ctx: Ctx, i: int) -> str:
    return ctx.t("where.decoder", layer=i + 1)


def norm(ctx: Ctx, p: str, number: str, i: int, before: str | None = None) -> None:
    prenorm.norm(ctx, p, number, input_tokens(ctx), _where(ctx, i), before)


def residual(ctx: Ctx, p: str, number: str, i: int) -> None:
    prenorm.residual(ctx, p, number, input_tokens(ctx), _where(ctx, i))


def feed_forward(ctx: Ctx, p: str, number: str, i: int) -> None:
    """H = X W₁ + b₁, max(0, H), then H W₂ + b₂: each position alone."""
    tokens, d, where = input_tokens(ctx), d_model(ctx), _where(ctx, i)
    f = f"{p}.ffn"
    if ctx.has(f"{f}.gate"):  # SwiGLU (Llama): a gate, an up projection, W_down
        swiglu(ctx, f, number, tokens, where)
        return
    pre = ctx.tape.index[f"{f}.pre"]
    x, h, a, out = (ctx.value(n) for n in (pre.inputs[0], f"{f}.pre", f"{f}.act", f"{f}.out"))
    w = h.shape[-1]
    hidden = dims(w, "h")
    ctx.add(Section(f"{f}.pre", number, ctx.t("ffn.title.pre", where=where),
                    [ctx.t("ffn.pre", d=d, w=w)], formula=ctx.formula(f"{f}.pre"),
                    equation=[ctx.mat(pre.inputs[0], "X", x, tokens, dims(d)), r"\cdot",
                              ctx.param(f"{f}.w_1", "W_1", dims(d), hidden), "+",
                              ctx.mat(f"{f}.b_1", "b_1", ctx.value(f"{f}.b_1"), cols=hidden,
                                      kind="vector"),
                              "=", ctx.mat(f"{f}.pre", "H", h, tokens, hidden)],
                    steps=[f"{f}.pre"]))
    ctx.add(Section(f"{f}.act", number, ctx.t("ffn.title.relu", where=where),
                    [ctx.t("ffn.relu", k=int(np.sum(h < 0)), total=h.size), ctx.t("gpt.ffn.relu")],
                    formula=ctx.formula(f"{f}.act"),
                    equation=[ctx.mat(f"{f}.act", r"\max(0, H)", a, tokens, hidden)],
                    steps=[f"{f}.act"]))
    ctx.add(Section(f"{f}.out", number, ctx.t("ffn.title.out", where=where),
                    [ctx.t("ffn.out", d=d, w=w)], formula=ctx.formula(f"{f}.out"),
                    equation=[ctx.mat(f"{f}.act", "H", a, tokens, hidden), r"\cdot",
                              ctx.param(f"{f}.w_2", "W_2", hidden, dims(d)), "+",
                              ctx.mat(f"{f}.b_2", "b_2", ctx.value(f"{f}.b_2"), cols=dims(d),
                                      kind="vector"),
                              "=", ctx.mat(f"{f}.out", r"\mathrm{FFN}", out, tokens, dims(d))],
                    steps=[f"{f}.out"]))


def final_norm(ctx: Ctx) -> None:
    if not ctx.has("decoder.norm.out"):
        return
    tokens, d = input_tokens(ctx), d_model(ctx)
    last = ctx.tape.index["decoder.norm.out"].inputs[0]
    rms = ctx.tape.index["decoder.norm.out"].op == "rms_norm"
    title, said = ("gpt.final.title.rms", "gpt.final.p1.rms") if rms else (
        "gpt.final.title", "gpt.final.p1")
    ctx.add(Section("decoder.norm.out", "10", ctx.t(title),
                    [ctx.t(said)], formula=ctx.formula("decoder.norm.out", x="X"),
                    equation=[ctx.mat(last, "X", ctx.value(last), tokens, dims(d)),
                              r"\rightarrow",
                              ctx.mat("decoder.norm.out", "Y", ctx.value("decoder.norm.out"),
                                      tokens, dims(d))],
                    steps=["decoder.norm.out"]))


# --- the prediction: step 13 ------------------------------------------------------------------


def logits(ctx: Ctx) -> None:
    """logits = Y W_out, W_out = Eᵀ when tied (a step of its own on the tape)."""
    step = ctx.tape.index["generator.logits"]
    y_name, d, tokens = step.inputs[0], d_model(ctx), input_tokens(ctx)
    z, V = ctx.value("generator.logits"), len(ctx.vocab)
    paragraphs = [ctx.t("logits.p1", d=d, V=V, n=len(tokens))]
    w_out = ctx.mat("generator.w", r"W_{out}", ctx.value("generator.w"), dims(d), ctx.vocab)
    equation = [ctx.mat(y_name, "Y", ctx.value(y_name), tokens, dims(d)), r"\cdot", w_out]
    steps = ["generator.logits"]
    if "generator.w" in ctx.tape.index:  # tied: W_out is Eᵀ, computed on the tape
        paragraphs.append(ctx.t("logits.tied", d=d, V=V, saved=d * V))
        steps.insert(0, "generator.w")
    else:
        paragraphs.append(ctx.t("gpt.logits.untied", d=d, V=V))
    targets = (ctx.meta.get("target") or {}).get("ids") or []
    equation += ["=", mark(ctx.mat("generator.logits", r"\mathrm{logits}", z, tokens, ctx.vocab),
                           keep_cols=[*np.argmax(z, axis=-1), *targets])]
    formula = ctx.formula("generator.logits")
    if "generator.w" in ctx.tape.index:
        formula = ctx.formula("generator.w") + r",\quad " + formula
    ctx.add(Section("generator.logits", "13", ctx.t("logits.title"), paragraphs,
                    formula=formula, equation=equation, steps=steps))


# --- after the backward pass: the tied table -----------------------------------------------------


def tied_gradient(ctx: Ctx) -> None:
    """∂L/∂E: the input's lookup (step 4) and the output layer's Eᵀ (step 13)."""
    lookup, symbol = ("embed.tok", "X_{tok}") if ctx.has("embed.tok") else ("embed.out", "X")
    tied.tied_gradient(ctx, [tied.Lookup(lookup, "ids", input_tokens(ctx), symbol,
                                         "tied.what.text")])


# --- the recap ----------------------------------------------------------------------------------
