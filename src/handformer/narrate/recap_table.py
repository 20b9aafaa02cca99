"""The recap's before/after table: each position's p(target) and predicted word before and
after the one update (a walk with a backward pass), or under the untrained and the trained
weights (a walk of a checkpoint); and the shapes along the way. Every number is read off the
tape or its meta (the second forward pass was run by the family)."""

from __future__ import annotations

import numpy as np

from .context import Ctx
from .document import Matrix
from .numbers import f3


def before_after(ctx: Ctx) -> tuple[list[str], list[Matrix]]:
    """The table's sentences and its matrix (rows: positions; columns: before, after, headed by
    the weights' symbols so that the table reads the same in every language)."""
    if "generator.probs" not in ctx.tape.index:
        return [], []
    target = [int(i) for i in np.ravel((ctx.meta.get("target") or {}).get("ids") or [])]
    probs = ctx.value("generator.probs")
    now_p = [float(probs[t, i]) for t, i in enumerate(target)]
    now_words = [int(i) for i in np.argmax(probs, axis=-1)]
    update, trained = ctx.meta.get("update") or {}, ctx.meta.get("trained") or {}
    if "p_target_after" in update:
        columns, named = ["θ", "θ − ηg"], [ctx.t("recap.col.before"), ctx.t("recap.col.after")]
        p, words = [now_p, update["p_target_after"]], [now_words, update["predicted_after"]]
        loss = []
    elif "untrained_predicted" in trained and "loss" in ctx.tape.index:
        columns = ["θ₀", "θ"]
        named = [ctx.t("recap.col.untrained"), ctx.t("recap.col.trained")]
        p, words = [trained["untrained_p_target"], now_p], [trained["untrained_predicted"], now_words]
        loss = [ctx.t("recap.loss.trained", before=f3(trained["untrained_loss"]),
                      after=f3(float(np.asarray(ctx.value("loss")).reshape(-1)[0])))]
    else:
        return [], []
    if len(target) != len(p[0]) or len(target) != len(p[1]):
        return [], []
    inputs = ctx.tokens("tgt")
    rows = [f"{a} → {ctx.vocab[b]}" for a, b in zip(inputs, target, strict=False)]
    table = Matrix("recap.p_target", "p", np.array(p).T, rows, columns, scale="prob")
    said = [ctx.t("recap.table", before=named[0], after=named[1], a=columns[0], b=columns[1]),
            ctx.t("recap.words", before=named[0], after=named[1],
                  words_before=" ".join(ctx.vocab[i] for i in words[0]),
                  words_after=" ".join(ctx.vocab[i] for i in words[1]))]
    return said + loss, [table]


def shapes(ctx: Ctx) -> list[str]:
    """The shapes along the encoder-decoder's main path, read off the tape."""
    names = ("src_embed.out", "tgt_embed.out", "generator.logits")
    if not all(name in ctx.tape.index for name in names):
        return []
    (n, d), (m, _), (_, v) = (np.shape(ctx.value(name)) for name in names)
    return [ctx.t("recap.shapes", n=n, m=m, d=d, V=v)]
