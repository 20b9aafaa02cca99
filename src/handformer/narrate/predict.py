"""Steps 13–14: logits, probabilities, the predicted word at each position, and the loss."""

from __future__ import annotations

import math

import numpy as np

from .context import Ctx
from .document import Section
from .intro import specials
from .numbers import dims, f3, mark


def prediction(ctx: Ctx) -> None:
    logits(ctx)
    probabilities(ctx)
    predicted_words(ctx)


def logits(ctx: Ctx) -> None:
    step = ctx.tape.index["generator.logits"]
    y_name = step.inputs[0]
    d, tokens = int(ctx.cfg.get("d_model", 0)), ctx.tokens("tgt")
    z = ctx.value("generator.logits")
    extra = specials(ctx.vocab)
    paragraphs = [ctx.t("logits.p1", d=d, V=len(ctx.vocab), n=len(tokens))]
    callouts = [ctx.callout("D3", "D3", n=len(tokens), d=d, flat=len(tokens) * d)]
    callouts.append(ctx.callout("D16", "D16", V=len(ctx.vocab), N=len(ctx.vocab) - len(extra),
                                specials=" + ".join(extra)))
    equation = [ctx.mat(y_name, "Y", ctx.value(y_name), tokens, dims(d)), r"\cdot",
                ctx.param("generator.w", "W_{out}", dims(d), ctx.vocab)]
    if "generator.b" in step.inputs:
        equation += ["+", ctx.mat("generator.b", "b_{out}", ctx.value("generator.b"),
                                  cols=ctx.vocab, kind="vector")]
    named = [*np.argmax(z, axis=-1), *_targets(ctx)]  # every position's pick and target
    equation += ["=", mark(ctx.mat("generator.logits", r"\mathrm{logits}", z, tokens, ctx.vocab),
                           keep_cols=named)]
    formula, steps = ctx.formula("generator.logits"), ["generator.logits"]
    if "generator.w" in ctx.tape.index:  # tied: W_out = Eᵀ, a step of its own
        paragraphs.append(ctx.t("logits.tied", d=d, V=len(ctx.vocab),
                                saved=2 * d * len(ctx.vocab)))
        formula, steps = ctx.formula("generator.w") + r",\quad " + formula, ["generator.w", *steps]
    ctx.add(Section("generator.logits", "13", ctx.t("logits.title"), paragraphs,
                    formula=formula, equation=equation, callouts=callouts, steps=steps))


def probabilities(ctx: Ctx) -> None:
    p, tokens = ctx.value("generator.probs"), ctx.tokens("tgt")
    best = int(np.argmax(p[0]))
    paragraphs = [ctx.t("probs.p1", V=len(ctx.vocab)),
                  ctx.t("probs.p2", tok=tokens[0], word=ctx.vocab[best], p=f3(p[0, best]),
                        uniform=f3(1 / len(ctx.vocab)))]
    ctx.add(Section("generator.probs", "13", ctx.t("probs.title"), paragraphs,
                    formula=ctx.formula("generator.probs"),
                    equation=[mark(ctx.mat("generator.probs", "p", p, tokens, ctx.vocab),
                                   cell=(0, best), rows=(0,),
                                   keep_cols=[*np.argmax(p, axis=-1), *_targets(ctx)])],
                    steps=["generator.probs"]))


def _targets(ctx: Ctx) -> list[int]:
    ids = (ctx.meta.get("target") or {}).get("ids") or []
    if ids and isinstance(ids[0], list):
        ids = ids[0]
    return [int(i) for i in ids]


def predicted_words(ctx: Ctx) -> None:
    """The word each position predicts (argmax p) against the word it should predict."""
    p, inp = ctx.value("generator.probs"), ctx.tokens("tgt")
    targets = _targets(ctx)
    if len(targets) != len(inp):
        return
    picked = [int(i) for i in np.argmax(p, axis=-1)]
    right = sum(a == b for a, b in zip(picked, targets, strict=True))
    table = np.array([[p[t, targets[t]], p[t, picked[t]]] for t in range(len(inp))])
    rows = [f"{inp[t]} → {ctx.vocab[targets[t]]} / {ctx.vocab[picked[t]]}"
            for t in range(len(inp))]
    first = ctx.t("pred.first", tok=inp[0], word=ctx.vocab[picked[0]], p=f3(table[0, 1]),
                  want=ctx.vocab[targets[0]], pw=f3(table[0, 0]))
    paragraphs = [ctx.t("pred.p1"), first,
                  ctx.t("pred.score", k=right, n=len(inp),
                        words=" ".join(ctx.vocab[i] for i in picked))]
    trained = ctx.meta.get("trained")
    if trained:
        before = trained["untrained_p_target"][0]
        unit = "pred.checkpoint.steps" if trained.get("unit") == "steps" else "pred.checkpoint"
        paragraphs.append(ctx.t(unit, path=trained["checkpoint"],
                                epochs=trained["epochs"], tok=inp[0],
                                want=ctx.vocab[targets[0]], before=f3(before),
                                after=f3(table[0, 0])))
    if not trained:  # right or wrong, random weights are right by chance only
        paragraphs.append(ctx.t("pred.untrained", V=len(ctx.vocab)))
    else:
        paragraphs.append(ctx.t("pred.trained" if right == len(inp) else "pred.score_trained"))
    ctx.add(Section("prediction", "13", ctx.t("pred.title"), paragraphs,
                    formula=r"\hat y_t = \mathrm{arg\,max}_w\, p_{t,w}",
                    equation=[ctx.mat("prediction", "p", table, rows,
                                      [ctx.t("pred.col.target"), ctx.t("pred.col.picked")])],
                    steps=["generator.probs"]))


def loss(ctx: Ctx) -> None:
    """Step 14: L, the mean of −log p(target) over the positions (read off the tape)."""
    if "loss" not in ctx.tape.index:
        return
    p, inp, targets = ctx.value("generator.probs"), ctx.tokens("tgt"), _targets(ctx)
    value = float(np.asarray(ctx.tape.index["loss"].value).reshape(-1)[0])
    V = len(ctx.vocab)
    paragraphs = [ctx.t("loss.p1", L=f"{value:.4f}", n=len(inp))]
    equation = []
    if len(targets) == len(inp):
        pt = np.array([p[t, targets[t]] for t in range(len(inp))])
        # −log p(target) per position: the terms the loss formula averages, shown so the reader
        # can check the mean against L.
        table = np.stack([pt, -np.log(np.maximum(pt, 1e-300))], axis=-1)
        rows = [f"{inp[t]} → {ctx.vocab[targets[t]]}" for t in range(len(inp))]
        equation = [ctx.mat("loss.terms", r"-\log p", table, rows, [ctx.t("loss.col.p"), ctx.t("loss.col.nll")])]
        worst = int(np.argmin(pt))
        mark(equation[0], rows=(worst,))
        paragraphs.append(ctx.t("loss.p2", tok=inp[worst], want=ctx.vocab[targets[worst]],
                                p=f3(pt[worst]), nl=f3(table[worst, 1])))
    paragraphs.append(ctx.t("loss.uniform", V=V, lnV=f3(math.log(V))))
    smoothing = float(ctx.tape.index["loss"].attrs.get("smoothing") or 0.0)
    paragraphs.append(ctx.t("loss.smoothing", eps=smoothing) if smoothing else ctx.t("loss.q"))
    ctx.add(Section("loss", "14", ctx.t("loss.title"), paragraphs,
                    formula=ctx.formula("loss"), equation=equation, steps=["loss"],
                    phase="loss"))
