"""Random weights beside trained ones: the same sentence's first attention pattern and its
p(target) at each position under both, read off ``tape.meta["beside"]`` (computed by the family:
the checkpoint's model before training, or a copy of the random weights trained on the spot).

``meta["beside"]["step"]`` names the pattern's step and ``["over"]`` the input whose tokens
label its rows and columns (absent: the encoder's first head over the source, as tapes saved
before other families had the comparison); a family's story passes the keys of the sentences
that are its own (what the copy trained on, what "seen" means)."""

from __future__ import annotations

import numpy as np

from .context import Ctx
from .document import Matrix, Section
from .numbers import f3

PATTERN = "encoder.0.self_attn.head.0.pattern"


def beside(ctx: Ctx, trained_key: str = "beside.trained", seen_key: str = "beside.seen",
           pattern_key: str = "beside.pattern", untrained_key: str = "beside.untrained") -> None:
    other = ctx.meta.get("beside")
    step = (other or {}).get("step", PATTERN)
    if not other or step not in ctx.tape.index or "generator.probs" not in ctx.tape.index:
        return
    walked = _walked(ctx, step)
    walk_is_trained = other["label"] == "untrained"  # a checkpoint's walk: the other is before
    random, trained = (other, walked) if walk_is_trained else (walked, other)
    src, tgt = ctx.tokens(other.get("over", "src")), ctx.tokens("tgt")
    targets = [ctx.vocab[int(i)] for i in np.ravel(ctx.meta["target"]["ids"])]
    labels = ["θ₀", "θ"]  # the random and the trained weights, as the text names them
    p = np.array([random["p_target"], trained["p_target"]])
    equation = [
        _pattern("beside.random.pattern", "A", random["pattern"], src),
        "↔",
        _pattern("beside.trained.pattern", "A'", trained["pattern"], src),
        Matrix("beside.probs", ctx.t("beside.p"), p, labels,
               [f"{a} → {b}" for a, b in zip(tgt, targets, strict=True)], scale="prob"),
    ]
    how = _how(ctx, other, trained_key, untrained_key)
    paragraphs = [how, ctx.t(pattern_key),
                  ctx.t("beside.predicted", random=_words(ctx, random), trained=_words(ctx, trained),
                        pr=f3(np.mean(random["p_target"])), pt=f3(np.mean(trained["p_target"])),
                        k_r=_right(random, ctx), k_t=_right(trained, ctx), n=len(targets))]
    if other["label"] == "trained" and other.get("seen"):
        paragraphs.append(ctx.t(seen_key))
    ctx.add(Section("beside", "", ctx.t("beside.title"), paragraphs, equation=equation))


def _walked(ctx: Ctx, step: str) -> dict:
    p = ctx.value("generator.probs")
    ids = [int(i) for i in np.ravel(ctx.meta["target"]["ids"])]
    return {"pattern": ctx.value(step), "p_target": [float(p[t, i]) for t, i in enumerate(ids)],
            "picked": [int(i) for i in np.argmax(p, axis=-1)]}


def _how(ctx: Ctx, other: dict, trained_key: str, untrained_key: str) -> str:
    if other["label"] == "untrained":
        return ctx.t(untrained_key, epochs=other["epochs"])
    first, last = other["loss"]
    return ctx.t(trained_key, pairs=other["pairs"], epochs=other["epochs"], lr=other["lr"],
                 first=f3(first), last=f3(last))


def _pattern(name: str, symbol: str, value, tokens: list[str]) -> Matrix:
    return Matrix(name, symbol, np.asarray(value, dtype=float), tokens, tokens, kind="pattern",
                  scale="prob")


def _words(ctx: Ctx, view: dict) -> str:
    return " ".join(ctx.vocab[i] for i in view["picked"])


def _right(view: dict, ctx: Ctx) -> int:
    ids = [int(i) for i in np.ravel(ctx.meta["target"]["ids"])]
    return sum(a == b for a, b in zip(view["picked"], ids, strict=True))
