"""The BERT walkthrough's backward pass from the last layer to the embedding tables: the last
layer step by step (add & norm, W₂, GELU, W₁, add & norm, W^O, Z = A V, the softmax and the
padding mask, S = Q Kᵀ/√d_k, the projections), the other layers at their outputs, then the
embeddings' layer norm and the scatter-add into the three tables. Told through sentence A
(row 0 of the batch); the tables' rows sum both sentences. Numbers are read off the tape."""

from __future__ import annotations

import numpy as np

from ...engine.formula import head
from ...narrate import grad_cell
from ...narrate.context import Ctx
from ...narrate.document import Matrix
from ...narrate.numbers import dims, f3, mark, small_scaled
from .step_story import GRAD, sig
from .story import _add, _mat, _sizes, _tokens


def _grad(ctx: Ctx, name: str, sym: str, cols=True) -> object:
    """∂L/∂(a step) for sentence A; a step by head shows head 1."""
    g = ctx.grad(name)
    if g.ndim == 3:
        g, sym = g[0], head(sym, 1)
    return _mat(ctx, f"grad.{name}", GRAD + sym, value=g, cols=cols)


def _param(ctx: Ctx, name: str, sym: str) -> object:
    """∂L/∂(a parameter): its whole gradient, summed over every token of both sentences; the
    feed-forward's hidden axis labelled h0, h1, … as in the forward pass."""
    g = np.asarray(ctx.tape.grads[name])
    d_ff = int(ctx.cfg["d_ff"])
    labels = [dims(n, "h" if n == d_ff else "d") for n in g.shape]
    return ctx.mat(f"grad.{name}", GRAD + sym, g, labels[0] if g.ndim == 2 else None,
                   labels[-1], kind="vector" if g.ndim == 1 else "matrix")


def _back(ctx: Ctx, p: str, leaf: str, title: str, paragraphs: list[str], equation: list,
          steps: list[str], formula_of: str) -> None:
    """One section of the last layer backwards."""
    d, heads, layers = _sizes(ctx)
    where = ctx.t("bert.where", i=int(p.split(".")[1]) + 1, layers=layers)
    paragraphs = [*paragraphs[:1], *worked(ctx, equation), *paragraphs[1:]]
    _add(ctx, f"grad.{p}.{leaf}", "15", where + ctx.t(title), paragraphs,
         formula=ctx.formula(formula_of, grad=True),
         equation=[small_scaled(m) for m in equation], steps=steps, phase="backward")


def worked(ctx: Ctx, equation: list) -> list[str]:
    """The worked cell of a panel's first gradient, at its largest entry (sentence A, head 1 of
    a gradient by head), as the encoder-decoder's panels have it; none where a reader of the
    step is not told that way (GELU's entry is worked out in its own words)."""
    first = equation[0] if equation else None
    if not isinstance(first, Matrix) or not first.name.startswith("grad."):
        return []
    name = first.name.removeprefix("grad.")
    g = ctx.grad(name)
    if name not in ctx.tape.index or g is None or first.highlight is not None:
        return []
    plane = g[0] if g.ndim == 3 else g
    at = np.unravel_index(int(np.argmax(np.abs(plane))), plane.shape)
    cols = first.cols or dims(plane.shape[1])
    where = ctx.t("grad.at", row=_tokens(ctx)[at[0]], col=cols[at[1]])
    text = grad_cell.worked(ctx, name, (0, *at) if g.ndim == 3 else at, where,
                            lambda step: _symbol(ctx, step))
    if text:
        mark(first, cell=at)
    return [text] if text else []


def last_layer(ctx: Ctx) -> None:
    """The last layer's every step backwards, from ∂L/∂H_N to ∂L/∂H_{N−1}."""
    layers = _sizes(ctx)[2]
    p = f"layer.{layers - 1}"
    _back(ctx, p, "ln2", "bert.back.ln2.title",
          [ctx.t("grad.op.layer_norm"), ctx.t("grad.op.add")],
          [_grad(ctx, f"{p}.ln2.resid", "R_2"), _param(ctx, f"{p}.ln2.gamma", r"\gamma_2"),
           _param(ctx, f"{p}.ln2.beta", r"\beta_2")], [f"{p}.ln2.out", f"{p}.ln2.resid"],
          f"{p}.ln2.out")
    _back(ctx, p, "ffn.out", "bert.back.w2.title", [ctx.t("grad.op.linear", x="X", y="Y")],
          [_grad(ctx, f"{p}.ffn.act", "G", cols=dims(ctx.grad(f"{p}.ffn.act").shape[-1], "h")),
           _param(ctx, f"{p}.ffn.w_2", "W_2"), _param(ctx, f"{p}.ffn.b_2", "b_2")],
          [f"{p}.ffn.out"], f"{p}.ffn.out")
    gelu(ctx, p)
    _back(ctx, p, "ffn.pre", "bert.back.w1.title",
          [ctx.t("grad.op.linear", x="X", y="Y"), ctx.t("bert.back.resid")],
          [_grad(ctx, f"{p}.ln1.out", "H'"), _param(ctx, f"{p}.ffn.w_1", "W_1"),
           _param(ctx, f"{p}.ffn.b_1", "b_1")], [f"{p}.ffn.pre", f"{p}.ln1.out"], f"{p}.ffn.pre")
    a = f"{p}.self_attn"
    _back(ctx, p, "ln1", "bert.back.ln1.title", [ctx.t("grad.op.layer_norm")],
          [_grad(ctx, f"{p}.ln1.resid", "R_1"), _param(ctx, f"{p}.ln1.gamma", r"\gamma_1"),
           _param(ctx, f"{p}.ln1.beta", r"\beta_1")], [f"{p}.ln1.resid"], f"{p}.ln1.out")
    _back(ctx, p, "self_attn.out", "bert.back.wo.title", [ctx.t("grad.op.linear", x="X", y="Y")],
          [_grad(ctx, f"{a}.concat", "Z"), _param(ctx, f"{a}.w_o", "W^O"),
           _param(ctx, f"{a}.b_o", "b^O")], [f"{a}.out", f"{a}.concat"], f"{a}.out")
    tokens = _tokens(ctx)
    _back(ctx, p, "self_attn.z", "bert.back.z.title", [ctx.t("grad.op.attend")],
          [_grad(ctx, f"{a}.pattern", "A", cols=tokens), _grad(ctx, f"{a}.v", "V")],
          [f"{a}.z"], f"{a}.z")
    softmax(ctx, p, a, tokens)
    _back(ctx, p, "self_attn.scores", "bert.back.scores.title", [ctx.t("grad.op.scores")],
          [_grad(ctx, f"{a}.q", "Q"), _grad(ctx, f"{a}.k", "K")], [f"{a}.scores"],
          f"{a}.scores")
    below = f"layer.{layers - 2}.out" if layers > 1 else "embeddings.ln.out"
    _back(ctx, p, "self_attn.qkv", "bert.back.qkv.title",
          [ctx.t("bert.back.qkv", k=layers - 1)],
          [mark(_grad(ctx, below, f"H_{{{layers - 1}}}"), cell=(0, 0)),
           _param(ctx, f"{a}.w_q", "W^Q"), _param(ctx, f"{a}.b_q", "b^Q")],
          [f"{a}.q", f"{a}.k", f"{a}.v"], f"{a}.q")


def _symbol(ctx: Ctx, step: str) -> str:
    """A step as this story names it (G for GELU's output, F before it), else the lesson's."""
    from ...narrate.names import symbol

    return ctx.tape.index[step].symbols.get("out") or symbol(step)


def gelu(ctx: Ctx, p: str) -> None:
    """Back through GELU, one entry worked out: ∂L/∂F = ∂L/∂G · (Φ(F) + F φ(F))."""
    pre, g_act, g_pre = ctx.value(f"{p}.ffn.pre"), ctx.grad(f"{p}.ffn.act"), ctx.grad(f"{p}.ffn.pre")
    # Where ReLU would pass nothing and GELU's slope is small but positive (−0.75 < F < −0.3),
    # the entry with the largest gradient.
    passed = np.where((pre > -0.75) & (pre < -0.3), np.abs(g_pre), -1.0)
    j = np.unravel_index(int(np.argmax(passed)), pre.shape)
    hidden = dims(pre.shape[-1], "h")
    paragraphs = [ctx.t("bert.back.gelu")]
    if passed[j] > 0:  # an entry of that kind with a gradient: worked out
        paragraphs.append(ctx.t("bert.back.gelu.at", x=f3(pre[j]), token=_tokens(ctx)[j[0]],
                                col=hidden[j[1]], ga=sig(g_act[j]),
                                slope=f3(g_pre[j] / g_act[j]), gf=sig(g_pre[j])))
    _back(ctx, p, "ffn.act", "bert.back.gelu.title", paragraphs,
          [mark(_grad(ctx, f"{p}.ffn.pre", "F", cols=hidden), cell=j, keep_cols=(j[1],))],
          [f"{p}.ffn.act"], f"{p}.ffn.act")


def softmax(ctx: Ctx, p: str, a: str, tokens: list[str]) -> None:
    """Back through the softmax; the [PAD] keys' scores get gradient 0 (the mask)."""
    n = len(tokens)
    pads = [n - len(s["tokens"]) for s in ctx.meta["sentences"][:2]]
    _back(ctx, p, "self_attn.pattern", "bert.back.softmax.title",
          [ctx.t("grad.op.softmax"), ctx.t("bert.back.mask", a=pads[0], b=pads[1])],
          [_grad(ctx, f"{a}.scores", "S", cols=tokens)], [f"{a}.pattern", f"{a}.masked"],
          f"{a}.pattern")


def other_layers(ctx: Ctx) -> None:
    """∂L/∂H_k for the layers below the last one: the same chain rule again, shown at each
    layer's output, down to H_0 = LN(X_sum)."""
    layers = _sizes(ctx)[2]
    for k in range(layers - 2, -1, -1):
        name = f"layer.{k - 1}.out" if k else "embeddings.ln.out"
        g = ctx.grad(name)
        at = np.unravel_index(int(np.argmax(np.abs(g))), g.shape)
        title = ("bert.back.layer.title", "bert.back.input.title")[k == 0]
        _add(ctx, f"grad.{name}", "15", ctx.t(title, k=k),
             [ctx.t("bert.back.layer", layer=k + 1, last=layers, k=k, max=f3(g[at]),
                    token=_tokens(ctx)[at[0]], col=f"d{at[1]}")],
             formula=rf"\frac{{\partial L}}{{\partial H_{{{k}}}}} = "
                     rf"\frac{{\partial L}}{{\partial H_{{{k + 1}}}}}\,"
                     rf"\frac{{\partial H_{{{k + 1}}}}}{{\partial H_{{{k}}}}}",
             equation=[mark(_grad(ctx, name, f"H_{{{k}}}"), cell=at)],
             steps=[f"layer.{k}.out"], phase="backward")


def embeddings(ctx: Ctx) -> None:
    """Back through the embeddings' layer norm and the sum, then into the three tables."""
    _add(ctx, "grad.embeddings.sum", "15", ctx.t("bert.back.emb.title"),
         [ctx.t("bert.back.emb"), ctx.t("grad.op.add")],
         formula=ctx.formula("embeddings.ln.out", grad=True),
         equation=[_grad(ctx, "embeddings.sum", "X_{sum}"),
                   _param(ctx, "embeddings.ln.gamma", r"\gamma"),
                   _param(ctx, "embeddings.ln.beta", r"\beta")],
         steps=["embeddings.ln.out", "embeddings.sum"], phase="backward")
    word_table(ctx)
    position_and_type(ctx)


def word_table(ctx: Ctx) -> None:
    """Scatter-add: row w of E_word sums ∂L/∂X_word over every position that read token w."""
    sentences = ctx.meta["sentences"][:2]
    g_x = np.asarray(ctx.tape.grads["embeddings.word"])
    g_e = np.asarray(ctx.tape.grads["embeddings.word.weight"])
    ids = list(dict.fromkeys(i for s in sentences for i in s["ids"]))
    names = {i: t for s in sentences for i, t in zip(s["ids"], s["tokens"], strict=True)}
    reads = {i: [(r, t) for r, s in enumerate(sentences) for t, j in enumerate(s["ids"]) if j == i]
             for i in ids}
    w = max(ids, key=lambda i: (len(reads[i]), names[i] not in ("[CLS]", "[SEP]")))
    col = int(np.argmax(np.abs(g_e[w])))
    terms = " + ".join(sig(g_x[r, t, col]) for r, t in reads[w])
    rows = [f"{names[i]} ({i})" for i in ids]
    k = ids.index(w)
    _add(ctx, "grad.embeddings.word.weight", "15", ctx.t("bert.back.word.title"),
         [ctx.t("bert.back.word", token=names[w], k=len(reads[w]), col=f"d{col}", terms=terms,
                total=sig(g_e[w, col]), rest=g_e.shape[0] - len(ids))],
         formula=ctx.formula("embeddings.word", grad=True),
         equation=[mark(ctx.mat("grad.embeddings.word.weight", GRAD + r"E_{word}[\mathrm{ids}]",
                                g_e[ids], rows, dims(g_e.shape[1])), cell=(k, col),
                        keep_rows=(k,))],
         steps=["embeddings.word"], phase="backward")


def position_and_type(ctx: Ctx) -> None:
    """Row p of E_pos sums position p of both sentences; row 0 of E_type sums every token."""
    g_x = np.asarray(ctx.tape.grads["embeddings.position"])
    g_pos = np.asarray(ctx.tape.grads["embeddings.position.weight"])
    g_type = np.asarray(ctx.tape.grads["embeddings.token_type.weight"])
    n, d = g_x.shape[-2], g_pos.shape[1]
    col = int(np.argmax(np.abs(g_pos[1])))
    real = sum(len(s["tokens"]) for s in ctx.meta["sentences"][:2])
    rows = [str(p) for p in range(n)]
    _add(ctx, "grad.embeddings.position.weight", "15", ctx.t("bert.back.pos.title"),
         [ctx.t("bert.back.pos", col=f"d{col}", a=sig(g_x[0, 1, col]), b=sig(g_x[1, 1, col]),
                c=sig(g_pos[1, col]), last=n - 1, rest=g_pos.shape[0] - n),
          ctx.t("bert.back.type", k=real)],
         formula=ctx.formula("embeddings.position", grad=True),
         equation=[mark(ctx.mat("grad.embeddings.position.weight", GRAD + r"E_{pos}[0..n-1]",
                                g_pos[:n], rows, dims(d)), cell=(1, col)),
                   ctx.mat("grad.embeddings.token_type.weight", GRAD + r"E_{type}", g_type,
                           ["0", "1"][:g_type.shape[0]] + dims(g_type.shape[0])[2:], dims(d))],
         steps=["embeddings.position", "embeddings.token_type"], phase="backward")
