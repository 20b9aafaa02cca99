"""After a backward pass of a model with tied embeddings: the one table E's gradient as the sum
of what each of its uses sends back (each lookup's rows of ∂L/∂X_tok added into the rows of
their tokens, and (∂L/∂W_out)ᵀ from the output layer), one entry worked out with the numbers
read off the tape. The decoder-only model uses E twice, the encoder-decoder three times."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .context import Ctx
from .document import Section
from .numbers import dims, f3, mark

FORMULA = (r"\frac{\partial L}{\partial E_{w}} = \sum_{\mathrm{lookups}}\ "
           r"\sum_{t:\,\mathrm{ids}_t = w} \frac{\partial L}{\partial X_{tok,t}} + "
           r"\left(\frac{\partial L}{\partial W_{out}}\right)^\top_{w}")


@dataclass(frozen=True)
class Lookup:
    """One use of E as an embedding: the tape's lookup step, its ids step, its tokens, the
    symbol of its output, and the i18n key naming what it reads."""

    step: str
    ids: str
    tokens: list[str]
    symbol: str
    what: str


def tied_gradient(ctx: Ctx, lookups: list[Lookup]) -> None:
    """∂L/∂E as the sum of its uses' shares, for the entry of a word one lookup reads once."""
    if "generator.w" not in ctx.tape.index or ctx.grad("embed.weight") is None:
        return
    g_e, g_w = ctx.grad("embed.weight"), ctx.grad("generator.w")
    ids = [[int(i) for i in np.ravel(ctx.value(u.ids))] for u in lookups]
    last = ids[-1]
    t = next((k for k, i in enumerate(last) if k and last.count(i) == 1), 0)
    w = last[t]
    j = int(np.argmax(np.abs(ctx.grad(lookups[-1].step)[t])))  # where the lookup's share shows
    shares = [float(np.sum(ctx.grad(u.step)[[k for k, i in enumerate(row) if i == w], j]))
              for u, row in zip(lookups, ids, strict=True)]
    terms = ctx.t("tied.plus").join(
        [*(ctx.t("tied.term.lookup", v=_signed(s), what=ctx.t(u.what))
           for s, u in zip(shares, lookups, strict=True)),
         ctx.t("tied.term.out", v=_signed(g_w[j, w]))])
    uses = [ctx.t("tied.use.lookup", n=len(u.tokens), what=ctx.t(u.what),
                  step=ctx.panel_of(u.step)) for u in lookups]
    uses.append(ctx.t("tied.use.out", step=ctx.panel_of("generator.logits")))
    unused = len(ctx.vocab) - len(set().union(*map(set, ids)))
    paragraphs = [ctx.t("tied.p1", k=len(uses), uses=ctx.t("tied.and").join(uses)),
                  ctx.t("tied.p2", word=lookups[-1].tokens[t], row=w, col=f"d{j}", terms=terms,
                        c=f3(g_e[w, j])),
                  ctx.t("tied.p3", rest=unused), ctx.t("why.grad.tied")]
    d = int(ctx.cfg["d_model"])
    u = lookups[-1]
    equation = [mark(ctx.mat(f"grad.{u.step}", rf"\partial L/\partial\, {u.symbol}",
                             ctx.grad(u.step), u.tokens, dims(d)), cell=(t, j)), r"\quad",
                mark(ctx.mat("grad.generator.w.T", r"(\partial L/\partial\, W_{out})^\top",
                             g_w.T, ctx.vocab, dims(d)), cell=(w, j), keep_rows=(w,)),
                r"\Rightarrow",
                mark(ctx.mat("grad.embed.weight.tied", r"\partial L/\partial\, E", g_e, ctx.vocab,
                             dims(d)), cell=(w, j), keep_rows=(w,))]
    ctx.add(Section("grad.embed.weight.tied", "15", ctx.t("tied.title", k=len(uses)), paragraphs,
                    formula=FORMULA, equation=equation,
                    steps=[*(u.step for u in lookups), "generator.w"], phase="backward"))


def _signed(v: float) -> str:
    """A term of a sum: a negative one in parentheses, so "+ (−0.001)" reads as one."""
    return f3(v) if v >= 0 else f"({f3(v)})"
