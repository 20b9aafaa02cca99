"""The fine-tuning step in the BERT walkthrough (a tape of `walk --pretrained --backward`): the
pair of sentences, the loss 1 − cos, the gradient through the normalization and the mean
pooling, and the update of every parameter. The layers and the embedding tables backwards are
told in layers_back.py. Like the forward pass, the steps are told through sentence A (row 0 of
the batch); numbers are read off the tape."""

from __future__ import annotations

import numpy as np

from ...narrate.context import Ctx
from ...narrate.numbers import dims, f3, mark
from .story import _add, _mat, _sizes, _tokens

GRAD = r"\partial L/\partial\,"


def sig(x) -> str:
    """A gradient in a worked example: three significant digits (they are often below 0.001)."""
    return f"{float(x):.3g}"


def pair(ctx: Ctx) -> None:
    """The two sentences of the step and the batch they make (after A's WordPiece section)."""
    a, b = ctx.meta["sentences"][:2]
    n = len(_tokens(ctx))
    _add(ctx, "bert.pair", "3", ctx.t("bert.pair.title"),
         [ctx.t("bert.pair.p1", a=a["text"], b=b["text"]),
          ctx.t("bert.pair.p2", tokens=" ".join(b["tokens"]), n=n),
          ctx.t("bert.pair.p3")], steps=["src.ids"], phase="text")


def sentence_rows(ctx: Ctx, name: str, grad: bool = False) -> np.ndarray:
    """Both sentences' rows of a pooled step (the batch axis kept): A's, then B's."""
    return np.asarray(ctx.tape.grads[name] if grad else ctx.tape.index[name].value)[:2]


def loss(ctx: Ctx) -> None:
    """Step 14: L = 1 − e_A · e_B, the dot product shown term by term."""
    e = sentence_rows(ctx, "pooling.normalized")
    value = float(ctx.tape.index["loss"].value)
    d = e.shape[-1]
    products = e[0] * e[1]
    top = int(np.argmax(np.abs(products)))
    paragraphs = [ctx.t("bert.loss.p1"),
                  ctx.t("bert.loss.p2", d=d, cos=f3(1.0 - value), L=f3(value)),
                  ctx.t("bert.loss.p3", col=f"d{top}", a=f3(e[0, top]), b=f3(e[1, top]),
                        ab=f3(products[top]))]
    equation = [mark(ctx.mat("pooling.normalized.pair", "e", e, ["A", "B"], dims(d)),
                     cols=(top,), keep_cols=(top,))]
    _add(ctx, "loss", "14", ctx.t("bert.loss.title"), paragraphs, formula=ctx.formula("loss"),
         equation=equation, steps=["loss"], phase="loss")


def embedding_grad(ctx: Ctx) -> None:
    """∂L/∂e: each embedding is pulled toward the other one."""
    e, g = sentence_rows(ctx, "pooling.normalized"), sentence_rows(ctx, "pooling.normalized", True)
    d = e.shape[-1]
    _add(ctx, "grad.pooling.normalized", "15", ctx.t("bert.grad.e.title"),
         [ctx.t("bert.grad.intro"), ctx.t("bert.grad.e", g=f3(g[0, 0]), e=f3(e[1, 0]))],
         formula=ctx.formula("loss", grad=True),
         equation=[mark(ctx.mat("grad.pooling.normalized", GRAD + "e", g, ["A", "B"], dims(d)),
                        cell=(0, 0))],
         steps=["pooling.normalized"], phase="backward")


def normalize_grad(ctx: Ctx) -> None:
    """∂L/∂u through e = u / r: only the part of the pull that turns u."""
    e, u = sentence_rows(ctx, "pooling.normalized"), sentence_rows(ctx, "pooling.mean")
    g_e, g_u = (sentence_rows(ctx, n, True) for n in ("pooling.normalized", "pooling.mean"))
    r = float(np.sqrt(u[0] @ u[0]))
    _add(ctx, "grad.pooling.mean", "15", ctx.t("bert.grad.u.title"),
         [ctx.t("bert.grad.u", r=f3(r)),
          ctx.t("bert.grad.u.along", before=f3(e[0] @ g_e[0]), after=f"{u[0] @ g_u[0]:.1e}")],
         formula=ctx.formula("pooling.normalized", grad=True),
         equation=[ctx.mat("grad.pooling.mean", GRAD + "u", g_u, ["A", "B"], dims(e.shape[-1]))],
         steps=["pooling.mean"], phase="backward")


def pooling_grad(ctx: Ctx) -> None:
    """∂L/∂H_N through the mean: 1/n of ∂L/∂u to every real token, 0 to [PAD]."""
    layers = _sizes(ctx)[2]
    last = f"layer.{layers - 1}.out"
    tokens = _tokens(ctx)
    n = sum(t != "[PAD]" for t in tokens)
    g_u, g_h = ctx.grad("pooling.mean"), ctx.grad(last)
    paragraphs = [ctx.t("bert.grad.pool", n=n, gu=sig(g_u[0]), g=sig(g_h[0, 0]))]
    if n < len(tokens):
        paragraphs.append(ctx.t("bert.grad.pool.pad", k=len(tokens) - n))
    _add(ctx, f"grad.{last}", "15", ctx.t("bert.grad.pool.title", layers=layers), paragraphs,
         formula=ctx.formula("pooling.mean", grad=True),
         equation=[mark(_mat(ctx, f"grad.{last}", GRAD + f"H_{{{layers}}}", value=g_h),
                        cell=(0, 0))],
         steps=[last], phase="backward")


# The parameters of one layer, in the order of the forward pass, with their symbols.
LAYER_PARAMS = (("self_attn.w_q", "W^Q"), ("self_attn.b_q", "b^Q"), ("self_attn.w_k", "W^K"),
                ("self_attn.b_k", "b^K"), ("self_attn.w_v", "W^V"), ("self_attn.b_v", "b^V"),
                ("self_attn.w_o", "W^O"), ("self_attn.b_o", "b^O"), ("ln1.gamma", "γ₁"),
                ("ln1.beta", "β₁"), ("ffn.w_1", "W₁"), ("ffn.b_1", "b₁"), ("ffn.w_2", "W₂"),
                ("ffn.b_2", "b₂"), ("ln2.gamma", "γ₂"), ("ln2.beta", "β₂"))
EMBEDDING_PARAMS = (("embeddings.word.weight", "E_word"), ("embeddings.position.weight", "E_pos"),
                    ("embeddings.token_type.weight", "E_type"), ("embeddings.ln.gamma", "γ"),
                    ("embeddings.ln.beta", "β"))


def _norm(g) -> float:
    return float(np.sqrt(np.sum(np.square(g))))


def update(ctx: Ctx) -> None:
    """Step 16: θ ← θ − η g for every parameter; the size of each step, layer by layer; one
    entry worked out; the loss before and after."""
    info = ctx.meta.get("update") or {}
    if not ctx.tape.updates:
        return
    lr, layers = info.get("lr"), _sizes(ctx)[2]
    eta = f"{lr:g}" if lr is not None else "η"
    updates = ctx.tape.updates
    table = np.array([[_norm(updates[f"layer.{i}.{p}"][1]) for i in range(layers)]
                      for p, _ in LAYER_PARAMS])
    emb = np.array([[_norm(updates[p][1])] for p, _ in EMBEDDING_PARAMS])
    kind, layer = np.unravel_index(int(np.argmax(table)), table.shape)
    paragraphs = [ctx.t("bert.update.first", lr=eta),
                  ctx.t("bert.update.count", k=len(updates),
                        total=f"{sum(u[0].size for u in updates.values()):,}"),
                  ctx.t("bert.update.table", sym=LAYER_PARAMS[kind][1], layer=layer + 1)]
    b_k = [k for k, (p, _) in enumerate(LAYER_PARAMS) if p == "self_attn.b_k"][0]
    if table[b_k].max() < 1e-9:
        paragraphs.append(ctx.t("bert.update.b_k", max=f"{table[b_k].max():.0e}"))
    before = float(ctx.tape.index["loss"].value)
    if "loss_after" in info:
        after = float(info["loss_after"])
        paragraphs.append(ctx.t("bert.update.loss" if after < before else "bert.update.loss.not",
                                before=f3(before), after=f3(after), lr=eta,
                                cos=f3(1.0 - before), cos_after=f3(1.0 - after)))
    equation = [ctx.mat("update.layers", "‖g‖", table,
                        [s for _, s in LAYER_PARAMS],
                        [ctx.t("bert.layer", i=i + 1) for i in range(layers)]),
                ctx.mat("update.embeddings", "‖g‖", emb,
                        [s for _, s in EMBEDDING_PARAMS], ["‖g‖"])]
    mark(equation[0], cell=(kind, layer))
    _add(ctx, "update", "16", ctx.t("bert.update.title"), paragraphs,
         formula=rf"\theta \leftarrow \theta - {eta}\, g", equation=equation,
         steps=list(updates), phase="update")
    worked_update(ctx, eta)


def worked_update(ctx: Ctx, eta: str) -> None:
    """One table's rows before, gradient, after: E_word at the rows the two sentences used."""
    before, g, after = ctx.tape.updates["embeddings.word.weight"]
    ids = list(dict.fromkeys(int(i) for s in ctx.meta["sentences"] for i in s["ids"]))
    names = {i: t for s in ctx.meta["sentences"] for i, t in zip(s["ids"], s["tokens"],
                                                                 strict=True)}
    rows = [f"{names[i]} ({i})" for i in ids]
    at = np.unravel_index(int(np.argmax(np.abs(g[ids]))), (len(ids), g.shape[1]))
    d = g.shape[1]
    paragraphs = [ctx.t("bert.update.word", k=len(ids), rest=g.shape[0] - len(ids)),
                  ctx.t("update.p1", name="E_word", at=f"{rows[at[0]]}, d{at[1]}",
                        before=f3(before[ids][at]), lr=eta, g=f3(g[ids][at]),
                        after=f3(after[ids][at]))]
    mats = [mark(ctx.mat(f"update.embeddings.word.weight.{w}", s, a[ids], rows, dims(d)),
                 cell=at)
            for w, s, a in (("before", r"\theta", before), ("grad", "g", g),
                            ("after", r"\theta'", after))]
    _add(ctx, "update.embeddings.word.weight", "16", ctx.t("bert.update.word.title"),
         paragraphs, formula=rf"\theta \leftarrow \theta - {eta}\, g",
         equation=[mats[0], "-", eta, r"\cdot", mats[1], "=", mats[2]],
         steps=["embeddings.word.weight"], phase="update")

