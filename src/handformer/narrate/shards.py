"""Step 15, last: one step's gradient of a batch, whole and as N data shards put back together
(computed by the family that learns from pairs, families/transformer/shards.py, and read here
off ``tape.meta["shards"]`` alone): what torchrun does across processes, shown in one."""

from __future__ import annotations

import numpy as np

from . import names
from .backward import entry_labels, param_labels
from .context import Ctx
from .document import Section
from .numbers import f3, mark
from .unicode_math import to_text

FORMULA = r"\overline{g} = \sum_{k=1}^{N} \frac{n_k}{n}\, g_k"


def shards(ctx: Ctx) -> None:
    """The formula, each shard's gradient weighted by its share of the tokens, their sum, and
    the whole batch's gradient, with the largest difference between the last two."""
    told = ctx.meta.get("shards")
    if not told:
        return
    param, n, counts = told["param"], int(told["tokens"]), told["shard_tokens"]
    whole = np.asarray(told["whole"])
    at = np.unravel_index(int(told["max_at"]), whole.shape)
    equation = []
    for k, (g, count) in enumerate(zip(told["shard_grads"], counts, strict=True)):
        equation += ["+"] if k else []
        weight = rf"\tfrac{{{int(count)}}}{{{n}}}"
        equation += [weight, "·", _vector(ctx, f"shards.{param}.{k}", f"g_{{{k + 1}}}", g, at)]
    average = _vector(ctx, f"shards.{param}.average", r"\overline{g}", told["average"], at)
    equation += ["=", average, r"\approx", _vector(ctx, f"shards.{param}.whole", "g", whole, at)]
    ctx.add(Section("grad.shards", "15", ctx.t("shards.title"), _paragraphs(ctx, told, at),
                    formula=FORMULA, equation=equation, steps=[], phase="backward"))


def _paragraphs(ctx: Ctx, told: dict, at: tuple) -> list[str]:
    """The batch and its shards, the weighting, plain mean or not, the result, and torchrun."""
    n, counts = told["tokens"], told["shard_tokens"]
    where = entry_labels(*param_labels(ctx, np.shape(told["whole"])), at)
    return [
        ctx.t("shards.p1", B=len(told["pairs"]), n=n, N=len(counts), k=told["shard_pairs"],
              counts=ctx.t("list.sep").join(str(c) for c in counts)),
        ctx.t("shards.weights", n=n),
        ctx.t("shards.equal") if len(set(counts)) == 1 else
        ctx.t("shards.unequal", plain=f3(told["plain_difference"])),
        ctx.t("shards.result", name=to_text(names.symbol(told["param"])),
              max=f"{told['max_difference']:.1e}", at=", ".join(where)),
        ctx.t("shards.torch"),
    ]


def _vector(ctx: Ctx, name: str, symbol: str, value, at: tuple):
    """One gradient of the parameter, labelled as its update is, the compared entry kept."""
    value = np.asarray(value)
    rows, cols = param_labels(ctx, value.shape)
    m = ctx.mat(name, symbol, value, rows, cols, kind="vector" if value.ndim == 1 else "matrix")
    return mark(m, cell=at if value.ndim == 2 else None, keep_cols=[at[-1]])
