"""Which way the update moved the prediction: after the update panels, each position's
probability of its right word before → after the one SGD step, and the position it moved most.
The numbers after the step come from the family's second forward pass (tape.meta["update"]);
nothing is computed here."""

from __future__ import annotations

import numpy as np

from .context import Ctx
from .overview import apart


def prediction_moved(ctx: Ctx) -> list[str]:
    """The sentences ("" where the tape has no second forward pass of the same sentence)."""
    update = ctx.meta.get("update") or {}
    target = [int(i) for i in np.ravel((ctx.meta.get("target") or {}).get("ids") or [])]
    if "p_target_after" not in update or "generator.probs" not in ctx.tape.index:
        return []
    probs, after = ctx.value("generator.probs"), [float(p) for p in update["p_target_after"]]
    inputs = ctx.tokens("tgt")
    if not (len(target) == len(after) == len(probs) == len(inputs)):
        return []
    before = [float(probs[t, i]) for t, i in enumerate(target)]
    shown = [apart(a, b) for a, b in zip(before, after, strict=True)]
    items = [ctx.t("update.moved.item", inp=inputs[t], word=ctx.vocab[i], before=shown[t][0],
                   after=shown[t][1]) for t, i in enumerate(target)]
    most = int(np.argmax(np.abs(np.subtract(after, before))))
    way = "update.moved.up" if after[most] > before[most] else "update.moved.down"
    up = sum(b > a for a, b in zip(before, after, strict=True))
    return [ctx.t("update.moved", items=ctx.t("update.moved.sep").join(items), k=up,
                  n=len(target)),
            ctx.t(way, inp=inputs[most], word=ctx.vocab[target[most]], before=shown[most][0],
                  after=shown[most][1])]
