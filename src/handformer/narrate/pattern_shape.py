"""What an attention pattern looks like, read off its numbers, so the words that explain it are
true of this pattern and no other: its rows piled onto one word (on ``<start>``, or another),
along the diagonal (each word on itself), on the word just before, spread out, or mixed. A
masked (causal) pattern's first row has one word to attend to and says nothing: it is left out."""

from __future__ import annotations

import numpy as np

MOST = 0.6  # a shape holds when this share of the rows has it
SPREAD = 0.5  # rows whose largest weight averages below this are spread out


def shape(a: np.ndarray, kv_tokens: list[str]) -> tuple[str, dict]:
    """(kind, numbers) for one head's pattern ``a`` (rows: queries, columns: keys)."""
    causal = a.shape[0] == a.shape[1] and a.shape[0] > 1 and not np.any(np.triu(a, 1))
    rows = np.arange(1 if causal else 0, a.shape[0])
    best = np.argmax(a[rows], axis=-1)
    n, top = len(rows), float(a[rows].max(axis=-1).mean())
    seen = rows + 1 if causal else np.full(n, a.shape[1])  # the words each row can attend to
    numbers = {"n": n, "top": f"{top:.2f}", "even": f"{float(np.mean(1 / seen)):.2f}"}
    word, k = np.unique(best, return_counts=True)
    common, count = int(word[np.argmax(k)]), int(k.max())
    if count >= MOST * n and top >= SPREAD:
        kind = "start" if common == 0 and kv_tokens[0] == "<start>" else "pile"
        return kind, numbers | {"k": count, "word": kv_tokens[common]}
    if a.shape[0] == a.shape[1]:
        own = int(np.sum(best == rows))
        before = int(np.sum(best == rows - 1))
        if own >= MOST * n:
            return "diagonal", numbers | {"k": own}
        if before >= MOST * n:
            return "previous", numbers | {"k": before}
    if top < SPREAD:
        return "spread", numbers
    return "mixed", numbers


SHAPE_KEYS = {"start": "pattern.shape.start", "pile": "pattern.shape.pile",
              "diagonal": "pattern.shape.diagonal", "previous": "pattern.shape.previous",
              "spread": "pattern.shape.spread", "mixed": "pattern.shape.mixed"}


def told(ctx, a: np.ndarray, kv_tokens: list[str], trained: bool) -> str:
    """The paragraph on what the weights can mean, with this pattern's own shape in it; the
    all-positive uniform start's pile-up explained where it is the cause."""
    kind, numbers = shape(a, kv_tokens)
    if not trained and kind in ("pile", "start") and ctx.cfg.get("init") == "uniform":
        return ctx.t("pattern.random")
    said = ctx.t(SHAPE_KEYS[kind], **numbers)
    return ctx.t("pattern.trained.shape" if trained else "pattern.random.shape", shape=said)
