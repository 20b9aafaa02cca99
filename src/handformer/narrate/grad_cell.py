"""One worked cell of a gradient panel, AI-by-Hand style: ∂L/∂X at one entry as the sum of what
each step that read X sends back there, every share written out with the numbers it is made of
(a row of the upstream gradient times a row of a weight, a copy, a ReLU gate, a softmax's
correction), read off the tape. Narration never computes the model: the shares are the same
sums the ops' backward passes do, written out for one entry so a reader can redo them."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import names
from .grad_formula import carried, readers
from .unicode_math import to_text

MAX_TERMS = 4  # products written out in a sum; a longer one shows its first and last


@dataclass
class Share:
    """What one reader of X sends back to the worked entry: ``value``, and how (``kind``): a
    sum of ``terms`` (pairs multiplied), times ``factor``; or one number copied or gated."""

    use: str  # the step that read X
    kind: str  # "dot", "copy", "gate", "softmax", "loss", "norm"
    value: float
    terms: list[tuple[float, float]] = field(default_factory=list)
    factor: float = 1.0
    numbers: dict[str, float] = field(default_factory=dict)  # a gate's or a softmax's parts


def shares(ctx, name: str, at: tuple) -> list[Share] | None:
    """Each reader's share of ∂L/∂name at entry ``at`` (None: a reader not told this way)."""
    out = []
    for r in readers(ctx.tape, name):
        share = _share(ctx, r.use, r.k, carried(ctx.tape, r.via, tuple(int(k) for k in at)))
        if share is None:
            return None
        out.append(share)
    return out


def _share(ctx, use, k: int, at: tuple) -> Share | None:
    g = ctx.grad(use.name)
    if g is None or any(ctx.value(x) is None for x in use.inputs):
        return None  # a tape read back without its parameters: nothing to work out with
    if use.op in ("identity", "add"):
        return Share(use.name, "copy", float(g[at]), numbers={"sum": float(use.op == "add")})
    if use.op == "relu":
        x = float(ctx.value(use.inputs[0])[at])
        return Share(use.name, "gate", float(g[at]) * (x > 0), numbers={"g": float(g[at]), "x": x})
    if use.op == "mask":
        seen = bool(np.isfinite(ctx.value(use.name)[at]))
        return Share(use.name, "gate", float(g[at]) if seen else 0.0,
                     numbers={"g": float(g[at]), "seen": float(seen)})
    if use.op == "merge_heads":
        h, i, j = at
        width = ctx.value(use.inputs[0]).shape[-1]
        return Share(use.name, "copy", float(g[i, h * width + j]))
    if use.op == "softmax":
        a = ctx.value(use.name)
        h, i, j = at
        inner = list(zip(a[h, i].tolist(), g[h, i].tolist(), strict=True))
        value = a[h, i, j] * (g[h, i, j] - sum(p * q for p, q in inner))
        return Share(use.name, "softmax", float(value), inner,
                     numbers={"a": float(a[h, i, j]), "g": float(g[h, i, j])})
    if use.op in MODERN:
        return MODERN[use.op](ctx, use, k, at, g)
    if use.op == "cross_entropy":
        return _loss_share(ctx, use, at)
    if use.op == "layer_norm":
        return _norm_share(ctx, use, at, g)
    return _dot_share(ctx, use, k, at, g)


def _dot_share(ctx, use, k: int, at: tuple, g: np.ndarray) -> Share | None:
    """A product's share: the upstream gradient's row times the other factor's row."""
    other = [ctx.value(x) for x in use.inputs]
    if use.op == "linear" and k == 0:
        i, j = at
        terms = zip(g[i], other[1][j], strict=True)
    elif use.op == "linear" and k == 1:  # a weight read as a step's value (a tied W_out)
        i, j = at
        terms = zip(other[0][:, i], g[:, j], strict=True)
    elif use.op == "head_proj" and k == 0:
        i, j = at
        heads, width = g.shape[0], g.shape[-1]
        terms = ((g[h, i, c], other[1][j, h * width + c]) for h in range(heads)
                 for c in range(width))
    elif use.op == "scores":
        h, r, c = at
        scale = float(use.attrs.get("scale", 1.0 / np.sqrt(other[0].shape[-1])))
        q, key = other
        terms = zip(g[h, r], key[h, :, c], strict=True) if k == 0 else zip(g[h, :, r], q[h, :, c], strict=True)
        pairs = [(float(a), float(b)) for a, b in terms]
        return Share(use.name, "dot", sum(a * b for a, b in pairs) * scale, pairs, scale)
    elif use.op == "attend":
        h, r, c = at
        a, v = other
        terms = zip(g[h, r], v[h, c], strict=True) if k == 0 else zip(a[h, :, r], g[h, :, c], strict=True)
    else:
        return None
    pairs = [(float(a), float(b)) for a, b in terms]
    return Share(use.name, "dot", sum(a * b for a, b in pairs), pairs)


def _times_share(ctx, use, k: int, at: tuple, g: np.ndarray) -> Share:
    """SwiGLU's product H = A ⊙ U: each factor's gradient is ∂L/∂H times the other factor."""
    other = float(ctx.value(use.inputs[1 - k])[at])
    return Share(use.name, "times", float(g[at]) * other, numbers={"g": float(g[at]), "o": other})


def _silu_share(ctx, use, k: int, at: tuple, g: np.ndarray) -> Share:
    """SiLU's slope at x: σ(x)·(1 + x·(1 − σ(x)))."""
    x = float(ctx.value(use.inputs[0])[at])
    sigma = 1.0 / (1.0 + np.exp(-x))
    slope = float(sigma * (1.0 + x * (1.0 - sigma)))
    return Share(use.name, "silu", float(g[at]) * slope,
                 numbers={"g": float(g[at]), "x": x, "d": slope})


def _heads_share(ctx, use, k: int, at: tuple, g: np.ndarray) -> Share:
    """A key/value head shared by a group of query heads: the group's gradients added up."""
    groups = g.shape[-3] // np.shape(ctx.value(use.inputs[0]))[-3]
    j, i, c = at
    parts = [float(g[j * groups + r, i, c]) for r in range(groups)]
    return Share(use.name, "heads", sum(parts), [(p, 1.0) for p in parts],
                 numbers={"k": float(groups)})


def _rms_share(ctx, use, k: int, at: tuple, g: np.ndarray) -> Share | None:
    """RMSNorm's share: (ĝ_j − x̂_j·mean(ĝ ⊙ x̂)) / RMS(x), ĝ = γ ⊙ ∂L/∂Y, x̂ = x / RMS(x)."""
    if k != 0:
        return None
    i, j = at
    x, gamma = np.asarray(ctx.value(use.inputs[0]))[i], np.asarray(ctx.value(use.inputs[1]))
    eps = float(use.attrs.get("eps", ctx.cfg.get("ln_eps", 1e-5)))
    rms = float(np.sqrt(np.mean(x * x) + eps))
    xhat, ghat = x / rms, gamma * g[i]
    n = {"gh": float(ghat[j]), "xh": float(xhat[j]), "mgx": float((ghat * xhat).mean()),
         "rms": rms}
    return Share(use.name, "rms", (n["gh"] - n["xh"] * n["mgx"]) / rms, numbers=n)


def _rope_share(ctx, use, k: int, at: tuple, g: np.ndarray) -> Share | None:
    """RoPE turned back: the pair (a, b) at angle mθ_i sends ∂L/∂x_a = g_a cos + g_b sin and
    ∂L/∂x_b = g_b cos − g_a sin (θ_i = base^(−2i/d_k))."""
    if "base" not in use.attrs:
        return None  # a tape read back from its file keeps no attributes
    h, m, c = at
    d, pairs = g.shape[-1], use.attrs.get("pairs", "half")
    i, first = (c // 2, c % 2 == 0) if pairs == "adjacent" else (c % (d // 2), c < d // 2)
    partner = (c + 1 if first else c - 1) if pairs == "adjacent" else (
        c + d // 2 if first else c - d // 2)
    angle = (int(use.attrs.get("start", 0)) + m) * float(use.attrs["base"]) ** (-2 * i / d)
    own, other = float(g[h, m, c]), float(g[h, m, partner])
    sign = 1.0 if first else -1.0
    value = own * np.cos(angle) + sign * other * np.sin(angle)
    return Share(use.name, "rope", float(value),
                 numbers={"g": own, "gp": other, "ang": float(angle), "sign": sign})


MODERN = {"mul": _times_share, "silu": _silu_share, "repeat_kv": _heads_share,
          "rms_norm": _rms_share, "rope": _rope_share}


def _loss_share(ctx, use, at: tuple) -> Share:
    """∂L/∂z = (p − q) / |T|: the softmax of the logits minus the target's share q."""
    t, w = at
    p = ctx.value("generator.probs")[t, w]
    target = int(np.ravel((ctx.meta.get("target") or {}).get("ids"))[t])
    eps = float(use.attrs.get("smoothing", 0.0))
    q = (1.0 - eps) * (w == target) + eps / ctx.value("generator.probs").shape[-1]
    weights = use.attrs.get("weights")  # a tape read back from JSON keeps no attrs: no pads
    n = float(np.sum(weights)) if weights is not None else float(len(ctx.tokens("tgt")))
    return Share(use.name, "loss", float((p - q) / n), numbers={"p": float(p), "q": q, "n": n})


def _norm_share(ctx, use, at: tuple, g: np.ndarray) -> Share | None:
    """A layer norm's share: (ĝ_j − mean ĝ − x̂_j · mean(ĝ ⊙ x̂)) / √(σ²+ε), ĝ = γ ⊙ ∂L/∂Y, from
    the row's saved μ and √(σ²+ε) (the same sum as the op's backward, for one entry)."""
    mean, std = ctx.extra(use.name, "mean"), ctx.extra(use.name, "std")
    if mean is None or std is None:
        return None
    i, j = at
    x, gamma = ctx.value(use.inputs[0])[i], ctx.value(use.inputs[1])
    xhat, ghat = (x - mean[i]) / std[i], gamma * g[i]
    n = {"gh": float(ghat[j]), "mg": float(ghat.mean()), "xh": float(xhat[j]),
         "mgx": float((ghat * xhat).mean()), "sd": float(std[i])}
    value = (n["gh"] - n["mg"] - n["xh"] * n["mgx"]) / n["sd"]
    return Share(use.name, "norm", value, numbers=n)


# --- the sentence ---------------------------------------------------------------------------


def num(x: float) -> str:
    """A number as the worked cell writes it: 3 decimals, or below 0.01 (where 3 decimals keep
    one digit or none) 3 significant digits with a power of ten."""
    if x == 0:
        return "0"
    if abs(x) >= 0.01:
        return f"{x:.3f}"
    mantissa, exponent = f"{x:.2e}".split("e")
    return f"{mantissa}×10{to_text('^{' + str(int(exponent)) + '}')}"


def _factor(x: float) -> str:
    return num(x) if x >= 0 else f"({num(x)})"


def _sum(terms: list[tuple[float, float]]) -> str:
    """The products written out: all of a short sum, the first and the last of a long one
    (only those are formatted: a weight's gradient may sum hundreds)."""
    picked = list(enumerate(terms))
    if len(picked) > MAX_TERMS:
        picked = [*picked[:MAX_TERMS - 1], None, picked[-1]]
    return " + ".join("…" if p is None else
                      f"{num(p[1][0]) if p[0] == 0 else _factor(p[1][0])}·{_factor(p[1][1])}"
                      for p in picked)


def share_text(ctx, share: Share, symbol_of=names.symbol) -> str:
    """One share in words and numbers, in the reader's language; ``symbol_of``: a step's
    symbol as the story calls it (the lesson's by default)."""
    use = to_text(symbol_of(share.use))
    n = share.numbers
    if share.kind == "copy":
        return ctx.t("grad.share.sum" if share.numbers.get("sum") else "grad.share.copy",
                     use=use, v=num(share.value))
    if share.kind == "gate" and "x" in n:
        return ctx.t("grad.share.relu", use=use, g=num(n["g"]), x=num(n["x"]),
                     on=1 if n["x"] > 0 else 0, v=num(share.value))
    if share.kind == "gate":
        return ctx.t("grad.share.seen" if n["seen"] else "grad.share.masked", use=use,
                     g=num(n["g"]), v=num(share.value))
    if share.kind == "softmax":
        return ctx.t("grad.share.softmax", use=use, a=num(n["a"]), g=num(n["g"]),
                     terms=_sum(share.terms), k=len(share.terms), v=num(share.value))
    if share.kind == "norm":
        return ctx.t("grad.share.norm", use=use, v=num(share.value),
                     **{k: _factor(v) for k, v in n.items()})
    if share.kind == "rope":
        return ctx.t("grad.share.rope", use=use, g=num(n["g"]), gp=_factor(n["gp"]),
                     ang=num(n["ang"]), pm="+" if n["sign"] > 0 else "−", v=num(share.value))
    if share.kind == "rms":
        return ctx.t("grad.share.rms", use=to_text(names.symbol(share.use, "rms_norm")),
                     **{k: _factor(v) for k, v in n.items()},
                     v=num(share.value))
    if share.kind == "times":  # SwiGLU's H = A ⊙ U (its step's leaf says act, as ReLU's)
        return ctx.t("grad.share.times", use=to_text(names.symbol(share.use, "mul")),
                     g=num(n["g"]), o=_factor(n["o"]),
                     v=num(share.value))
    if share.kind == "silu":
        return ctx.t("grad.share.silu", x=num(n["x"]), g=num(n["g"]), d=_factor(n["d"]),
                     v=num(share.value))
    if share.kind == "heads":
        added = " + ".join(num(a) if k == 0 else _factor(a) for k, (a, _) in enumerate(share.terms))
        return ctx.t("grad.share.heads", use=use, k=len(share.terms), terms=added,
                     v=num(share.value))
    if share.kind == "loss":
        return ctx.t("grad.share.loss", p=num(n["p"]), q=num(n["q"]), n=f"{n['n']:g}",
                     v=num(share.value))
    if share.factor != 1.0:
        return ctx.t("grad.share.scaled", use=use, terms=_sum(share.terms), k=len(share.terms),
                     f=num(share.factor), v=num(share.value))
    return ctx.t("grad.share.dot", use=use, terms=_sum(share.terms), k=len(share.terms),
                 v=num(share.value))


def worked(ctx, name: str, at: tuple, where: str, symbol_of=names.symbol) -> str:
    """The worked cell's paragraph ("" where a reader's share is not told this way)."""
    found = shares(ctx, name, at)
    if not found:
        return ""
    total = float(ctx.grad(name)[tuple(int(k) for k in at)])
    parts = ctx.t("grad.share.and").join(share_text(ctx, s, symbol_of) for s in found)
    return ctx.t("grad.cell", sym=to_text(symbol_of(name)), where=where, shares=parts,
                 v=num(total))
