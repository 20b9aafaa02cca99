"""Steps 15–16: every gradient in reverse order (∂L/∂name), then each parameter's SGD update."""

from __future__ import annotations

import numpy as np

from ..engine.formula import head
from ..engine.ops import get
from . import grad_cell, grad_reads, grad_terms, grad_weight, grad_why, moved, names
from .context import MAX_HEADS, Ctx
from .document import Section
from .grad_formula import gradient_formula, readers
from .numbers import dims, f3, mark, small_scaled
from .overview import apart
from .unicode_math import to_text

# Steps whose gradient is told together with the step after them (in reverse order), because
# alone they only repeat a neighbour: concat = the heads side by side, resid = ∂L/∂(LN input).
FOLDED = {"concat": "out", "resid": "out", "masked": "scores", "tok": "out", "scaled": "out"}
SKIPPED_OPS = {"identity", "dropout", "input", "positional"}


# How the gradient passes back through each op, told under that op's gradient (others: nothing).
GRAD_OP_KEYS = {"linear": "grad.op.linear", "head_proj": "grad.op.head_proj",
                "softmax": "grad.op.softmax", "scores": "grad.op.scores",
                "attend": "grad.op.attend", "layer_norm": "grad.op.layer_norm",
                "relu": "grad.op.relu", "identity": "grad.op.identity", "add": "grad.op.add",
                "embed": "grad.op.embed",
                # the parts of today's LLMs (engine/ops/modern.py)
                "rms_norm": "grad.op.rms_norm", "rope": "grad.op.rope",
                "repeat_kv": "grad.op.repeat_kv", "silu": "grad.op.silu", "mul": "grad.op.mul"}

def backward(ctx: Ctx) -> None:
    """Step 15, every gradient in reverse order (the data shards, if computed, come after it in
    the story, then step 16's updates)."""
    for name in ctx.tape.grad_order:
        step = ctx.tape.index.get(name)
        if step is None or name == "loss" or not _shown(ctx, name, step.op):
            continue
        gradient_section(ctx, name)


def _shown(ctx: Ctx, name: str, op: str) -> bool:
    parts = name.split(".")
    if parts[0] in ("encoder", "decoder") and parts[1].isdigit() and parts[1] != "0":
        # Later layers: the same chain rule again; shown at each layer's output only.
        return len(parts) == 3 and parts[2] == "out"
    if op in SKIPPED_OPS or parts[-1] in FOLDED:
        return False
    return True


def _folded(ctx: Ctx, name: str) -> list[str]:
    """The steps told with ``name`` (e.g. ln1.resid with ln1.out)."""
    base = name.rsplit(".", 1)[0]
    leaf = name.rsplit(".", 1)[-1]
    return [f"{base}.{k}" for k, v in FOLDED.items() if v == leaf and f"{base}.{k}" in ctx.tape.grads]


def gradient_section(ctx: Ctx, name: str) -> None:
    step = ctx.tape.index[name]
    equation, paragraphs, callouts = [], [], []
    for shown in [name, *_folded(ctx, name)]:
        equation += [small_scaled(m) for m in _grad_matrices(ctx, shown)]
    g = ctx.grad(name)
    at = np.unravel_index(int(np.argmax(np.abs(g))), g.shape) if g.size else ()
    _mark_largest(equation, at)
    sym = to_text(names.symbol(name, step.op))
    if ctx.first("grad.intro"):
        paragraphs.append(ctx.t("grad.intro", name=sym))
    paragraphs.append(ctx.t("grad.p1", max=grad_cell.num(float(g[at])) if g.size else "0",
                            where=_where(ctx, name, at)))
    if ctx.first("grad.sign"):
        paragraphs.append(ctx.t("grad.sign.pos"))
    if len(at) >= 2:
        paragraphs.append(grad_cell.worked(ctx, name, at, _where(ctx, name, at)))
    if step.op == "head_proj":  # Q, K or V: the weight and the input that made it
        w, x = step.inputs[1], step.inputs[0]
        paragraphs.append(ctx.t("grad.op.head_proj", w=to_text(names.symbol(w)), sym=sym,
                                x="M" if ".cross_attn." in name and name[-1] in "kv" else
                                to_text(names.symbol(x))))
    elif step.op in GRAD_OP_KEYS:
        x = get(step.op).symbol_map(step.symbols).get("x", "X") if step.inputs else "X"
        paragraphs.append(ctx.t(GRAD_OP_KEYS[step.op], x=to_text(x), y=sym))
    inputs = [i for n in [name, *_folded(ctx, name)] for i in ctx.tape.index[n].inputs]
    for param in [i for i in inputs if i in ctx.tape.grads and i not in ctx.tape.index]:
        equation += [small_scaled(m) for m in _param_grad(ctx, param)]
    _special(ctx, name, step, paragraphs, callouts, equation)
    drawn = grad_reads.reads(ctx, name, at)  # what the formula reads, drawn first
    equation = [*drawn, r"\Rightarrow", *equation] if drawn else equation
    grad_terms.attach(ctx, name, equation)  # any cell's arithmetic, for the page
    paragraphs.append(grad_weight.worked(ctx, name, equation,
                                         lambda shape, w: param_labels(ctx, shape, w)))
    uses = readers(ctx.tape, name)
    if len(uses) > 1:
        paragraphs.append(ctx.t("grad.uses.sum", sym=sym, k=len(uses)))
    paragraphs += grad_why.why(ctx, uses, [name, *_folded(ctx, name)])
    paragraphs = [p for p in paragraphs if p]
    ctx.add(Section(f"grad.{name}", "15", ctx.t("grad.title", sym=sym,
                                                 what=names.words(ctx, name)),
                    paragraphs, formula=_formula(ctx, name, uses),
                    equation=equation,
                    callouts=callouts, steps=[name, *_folded(ctx, name)], phase="backward"))


def _formula(ctx: Ctx, name: str, uses: list) -> str:
    """The panel's formula, and that of a step folded into it whose reader is another step
    (∂L/∂S′ through the softmax, beside ∂L/∂S through the mask): no gradient shown unmade."""
    parts = [gradient_formula(ctx.tape, name, uses)]
    for folded in _folded(ctx, name):
        outer = [r for r in readers(ctx.tape, folded) if r.use.name != name]
        if outer:
            parts.append(gradient_formula(ctx.tape, folded, outer))
    return r",\quad ".join(parts)


def _mark_largest(equation: list, at: tuple) -> None:
    """The entry the text names (the largest gradient) is the worked cell of its matrix: the
    first matrix, or for gradients by head the matrix of that head."""
    if len(at) < 2 or not equation:
        return
    target = equation[at[0]] if len(at) == 3 and at[0] < len(equation) else equation[0]
    mark(target, cell=(at[-2], at[-1]))


def _special(ctx: Ctx, name: str, step, paragraphs: list[str], callouts: list,
             equation: list) -> None:
    if name == "generator.logits":
        p, g = ctx.value("generator.probs"), ctx.grad(name)
        target = (ctx.meta.get("target") or {}).get("ids") or []
        if target and not isinstance(target[0], list):
            n, w = len(target), int(target[0])
            mark(equation[0], keep_cols=[int(t) for t in target])  # the text names "win"
            paragraphs.append(ctx.t("grad.logits", n=n, p=f3(p[0, w]), g=f3(g[0, w]),
                                    word=ctx.vocab[w]))
        callouts.append(ctx.callout("D9", "D9.backward", n=g.shape[0]))
    if name.endswith(".scores") and ctx.cfg.get("init") == "uniform" \
            and not ctx.meta.get("trained"):
        top = float(np.abs(ctx.grad(name)).max())
        if top < 1e-3 and ctx.first("D14.backward"):
            callouts.append(ctx.callout("D14", "D14.backward", max=f3(top)))
    if name.endswith("self_attn.scores") and name.startswith("decoder") \
            and f"{name.rsplit('.', 1)[0]}.masked" in ctx.tape.index:
        masked = ctx.value(f"{name.rsplit('.', 1)[0]}.masked")
        g = ctx.grad(name)
        hidden = np.isinf(masked)
        callouts.append(ctx.callout("D10", "D10", k=int(hidden.sum()),
                                    zero="0" if not np.any(g[hidden]) else "≠0"))


def _where(ctx: Ctx, name: str, at: tuple) -> str:
    if len(at) < 2:
        return ""
    shape = ctx.grad(name).shape
    rows, cols = _rows(ctx, name, shape[-2]), _cols(ctx, name, shape[-1])
    row = (rows or dims(shape[-2]))[at[-2]]  # a weight's row: its dimension, d5
    col = cols[at[-1]] if cols else str(at[-1])
    if len(at) == 3 and shape[0] > 1:  # a gradient by head: which head's matrix
        return ctx.t("grad.at.head", h=int(at[0]) + 1, row=row, col=col)
    return ctx.t("grad.at", row=row, col=col)


def _rows(ctx: Ctx, name: str, n: int) -> list[str] | None:
    first = "src" if ctx.side_of(name) == "src" or (".cross_attn." in name and
                                                    name[-2:] in (".k", ".v")) else "tgt"
    for side in (first, "tgt" if first == "src" else "src"):
        tokens = ctx.tokens(side)
        if len(tokens) == n:
            return tokens
    return None


def _cols(ctx: Ctx, name: str, m: int) -> list[str] | None:
    if m == len(ctx.vocab):
        return ctx.vocab
    if name.rsplit(".", 1)[-1] in ("scores", "masked", "pattern"):
        side = "src" if ".cross_attn." in name or name.startswith("encoder") else "tgt"
        return ctx.tokens(side)
    return dims(m)


def _grad_matrices(ctx: Ctx, name: str) -> list:
    g = ctx.grad(name)
    sym = r"\partial L/\partial\," + _short(name)
    if g is None or g.ndim < 2:
        return []
    if g.ndim == 2:
        return [ctx.mat(f"grad.{name}", sym, g, _rows(ctx, name, g.shape[0]),
                        _cols(ctx, name, g.shape[1]))]
    heads = min(g.shape[0], MAX_HEADS)
    return [ctx.mat(f"grad.{name}.head.{h}", head(sym, h + 1), g[h],
                    _rows(ctx, name, g.shape[1]), _cols(ctx, name, g.shape[2]))
            for h in range(heads)]


def _param_grad(ctx: Ctx, param: str) -> list:
    g = ctx.grad(param)
    sym = r"\partial L/\partial\," + _short(param)
    ids = _used_rows(ctx, param)
    if ids is not None:
        # Only the rows of the words in the sentence receive a gradient: show those rows.
        vocab = ctx.vocab_of(_side(param))
        return [ctx.mat(f"grad.{param}", sym + r"[\mathrm{ids}]", g[ids],
                        [f"{vocab[i]} ({i})" for i in ids], dims(g.shape[1]))]
    rows, cols = param_labels(ctx, g.shape, param)
    return [ctx.mat(f"grad.{param}", sym, g, rows, cols,
                    kind="vector" if g.ndim == 1 else "matrix")]


def param_labels(ctx: Ctx, shape: tuple, name: str = "") -> tuple[list[str] | None, list[str]]:
    """Rows and columns of a parameter: vocabulary words where its size is the vocabulary's
    (the source's for the source embedding)."""
    vocab = ctx.vocab_of(_side(name))

    def axis(n: int) -> list[str]:
        return vocab if n == len(vocab) else dims(n)

    return (axis(shape[0]) if len(shape) == 2 else None), axis(shape[-1])


def entry_labels(rows: list[str] | None, cols: list[str], at: tuple) -> list[str]:
    """The words (or dimensions) that name a parameter's entry ``at``: its row and column."""
    return [(rows if k == 0 and len(at) == 2 else cols)[i] for k, i in enumerate(at)]


def _used_rows(ctx: Ctx, param: str) -> list[int] | None:
    """The embedding rows a sentence used (the only ones with a gradient); None for others."""
    if not param.endswith("_embed.weight"):
        return None
    side = "src" if param.startswith("src") else "tgt"
    ids = ctx.value(f"{side}.ids")
    return None if ids is None else [int(i) for i in dict.fromkeys(np.ravel(ids))]


def _side(param: str) -> str:
    """Whose vocabulary a parameter's rows are: the source embedding's, or the target's."""
    return "src" if param.startswith("src") else "tgt"


def _short(name: str) -> str:
    """The lesson's symbol of a step or parameter: S, W^Q, LN(R) (never a dotted name)."""
    return names.symbol(name)


def updates(ctx: Ctx) -> None:
    """Step 16: θ ← θ − η g for every parameter, before, gradient, after."""
    lr = (ctx.meta.get("update") or {}).get("lr")
    for i, (name, (before, g, after)) in enumerate(ctx.tape.updates.items()):
        before, g, after = (np.asarray(a) for a in (before, g, after))
        rows, cols = param_labels(ctx, before.shape, name)
        used, vocab = _used_rows(ctx, name), ctx.vocab_of(_side(name))
        if used is not None:  # an embedding: the rows of the sentence's words
            before, g, after = before[used], g[used], after[used]
            rows = [f"{vocab[i]} ({i})" for i in used]
        at = np.unravel_index(int(np.argmax(np.abs(g))), g.shape)
        eta = f"{lr:g}" if lr is not None else "η"
        paragraphs = [ctx.t("update.first", lr=eta)] if i == 0 else []
        if i == 0 and "loss_after" in (ctx.meta.get("update") or {}) and "loss" in ctx.tape.index:
            paragraphs.append(ctx.t("update.loss", after=f3(ctx.meta["update"]["loss_after"]),
                                    before=f3(np.asarray(ctx.tape.index["loss"].value).ravel()[0])))
        where = entry_labels(rows, cols, at)
        if used is not None:
            paragraphs.append(ctx.t("update.embed", k=len(used), rest=len(vocab) - len(used),
                                    V=len(vocab)))
        old, new = apart(float(before[at]), float(after[at]))  # digits enough to differ
        paragraphs.append(ctx.t("update.p1", name=to_text(names.symbol(name)), at=", ".join(where),
                                before=old, lr=eta, g=grad_cell.num(float(g[at])), after=new))
        kind = "vector" if before.ndim == 1 else "matrix"
        cell = tuple(at) if before.ndim == 2 else None  # the entry worked out in the text
        mats = [mark(ctx.mat(f"update.{name}.{w}", s, a, rows, cols, kind=kind), cell=cell,
                     keep_cols=[] if cell else [at[0]])
                for w, s, a in (("before", r"\theta", before), ("grad", "g", g),
                                ("after", r"\theta'", after))]
        mats[1] = small_scaled(mats[1])  # θ and θ′ keep their digits; g may be tiny
        ctx.add(Section(f"update.{name}", "16", ctx.t("update.title",
                                                      what=names.words(ctx, name)),
                        paragraphs, formula=rf"\theta \leftarrow \theta - {eta}\, g",
                        equation=[mats[0], "-", eta, r"\cdot", mats[1], "=", mats[2]],
                        steps=[name], phase="update"))
    if ctx.sections and ctx.sections[-1].phase == "update":  # after the last update
        ctx.sections[-1].paragraphs += moved.prediction_moved(ctx)
