"""The pretrained weights beside random ones (`--beside-trained`), told from the numbers: head 1's
pattern in the first and last layer under both, and the sentence embedding under both, read off
``tape.meta["beside_random"]`` (beside.py). Which words describe a pattern is chosen from the
pattern itself (spread evenly, piled on [CLS]/[SEP], the previous token, …), per weights."""

from __future__ import annotations

import numpy as np

from ...narrate.context import Ctx
from ...narrate.document import Matrix, Section
from ...narrate.numbers import dims
from .beside import view_of
from .model import BertConfig
from .story import head_kind

SHOWN_DIMS = 8  # the sentence embedding's first numbers drawn under both weights
UNRELATED = 0.3  # |cos| of the two embeddings under which they are told unrelated
EVEN = 1.5  # a row is spread evenly when its largest weight is under EVEN / n on average


def pattern_kind(pattern: np.ndarray, tokens: list[str]) -> str:
    """Spread evenly (each row's largest weight near 1/n), else the head's kind (story.head_kind)."""
    n = len(tokens)
    return "spread" if pattern.max(axis=-1).mean() < EVEN / n else head_kind(pattern, tokens)


def beside_random(ctx: Ctx) -> None:
    other = ctx.meta.get("beside_random")
    if not other or "pooling.normalized" not in ctx.tape.index:
        return
    cfg = BertConfig.from_dict(ctx.cfg)
    ours, tokens = view_of(ctx.tape, cfg), list(ctx.meta["src"]["tokens"])
    paragraphs = [ctx.t("bert.beside.how", model=ctx.meta.get("model", ""), std=other["std"],
                        seed=other["seed"])]
    equation: list = []
    spread = False
    for step, trained in ours["patterns"].items():
        if step not in other["patterns"]:  # a tape saved with other layers compared
            continue
        layer = int(step.split(".")[1]) + 1
        a, b = np.asarray(trained), np.asarray(other["patterns"][step])
        kinds = [pattern_kind(a, tokens), pattern_kind(b, tokens)]
        spread = spread or kinds[1] == "spread"
        paragraphs.append(ctx.t("bert.beside.layer", layer=layer, trained=_kind(ctx, kinds[0]),
                                random=_kind(ctx, kinds[1]), mt=_f(a.max(axis=-1).mean()),
                                mr=_f(b.max(axis=-1).mean()), n=len(tokens),
                                u=_f(1 / len(tokens))))
        equation += [_pattern(f"{step}.pretrained", layer, "", a, tokens), "↔",
                     _pattern(f"{step}.random", layer, "_0", b, tokens)]
    if spread:
        paragraphs.append(ctx.t("bert.beside.why_even", std=other["std"]))
    paragraphs += _embedding_text(ctx, ours, other)
    e = np.array([ours["embedding"][:SHOWN_DIMS], other["embedding"][:SHOWN_DIMS]])
    equation.append(Matrix("bert.beside.embedding", "e", e, ["θ", "θ₀"], dims(e.shape[-1])))
    ctx.add(Section("bert.beside", "", ctx.t("bert.beside.title"), paragraphs,
                    equation=equation))


def _embedding_text(ctx: Ctx, ours: dict, other: dict) -> list[str]:
    """How far each set of layers moved e from the embedding layer's mean, and e against e₀."""
    key = "bert.beside.moved.less" if other["moved"] > ours["moved"] else "bert.beside.moved.more"
    cos = float(np.dot(ours["embedding"], other["embedding"]))
    return [ctx.t(key, pt=_f(ours["moved"]), pr=_f(other["moved"])),
            ctx.t("bert.beside.apart" if abs(cos) < UNRELATED else "bert.beside.related",
                  c=_f(cos), d=len(ours["embedding"]), k=SHOWN_DIMS)]


def _pattern(name: str, layer: int, weights: str, value: np.ndarray, tokens: list[str]) -> Matrix:
    return Matrix(name, f"A^{{({layer})}}_{{\\theta{weights}}}", value, tokens, tokens,
                  kind="pattern", scale="prob")


# Each pattern_kind → the words that tell it.
KIND_WORDS = {"spread": "bert.beside.kind.spread", "special": "bert.beside.kind.special",
              "prev": "bert.beside.kind.prev", "next": "bert.beside.kind.next",
              "self": "bert.beside.kind.self", "mixed": "bert.beside.kind.mixed"}


def _kind(ctx: Ctx, kind: str) -> str:
    return ctx.t(KIND_WORDS[kind])


def _f(x: float) -> str:
    return f"{float(x):.3f}".replace("-", "−")
