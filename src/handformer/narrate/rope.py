"""Rotary positions (RoPE) in the attention's walkthrough: the angles θ_i and m·θ_i with their
cosines and sines, each head's q and k turned (one pair worked by hand), the score that depends
only on how far apart two tokens are, and the two ways of pairing columns (Hugging Face's
rotate_half, the RoFormer paper's and GGUF's neighbours).

The tables and the turned rows are the tape's; the demonstrations (the same q and k turned at
other positions, the scores a model would compute with its columns paired the other way) are
computed here with the rope op's own functions (engine/ops/modern.py), as a check beside the
walk, never as part of it.
"""

from __future__ import annotations

import numpy as np

from ..engine.ops.modern import rope_angles, rope_forward, rope_thetas
from .context import Ctx
from .document import Section
from .numbers import dims, f3, mark

PAIRING_KEYS = {"half": "rope.pairs.half", "adjacent": "rope.pairs.adjacent"}
SHIFT = 5  # how far the relative-position demonstration moves both tokens


def settings(ctx: Ctx) -> tuple[float, str]:
    """The base and the pairing, read off the config (a tape read back from JSON keeps no
    step attributes; its config leaves defaults out)."""
    return float(ctx.cfg.get("rope_base") or 10000.0), str(ctx.cfg.get("rope_pairs") or "half")


def turn(x: np.ndarray, start: int, base: float, pairs: str) -> np.ndarray:
    """Rows of x turned as at positions start, start + 1, …: the rope op's forward."""
    return rope_forward(x, base=base, pairs=pairs, start=start)[0]


def pair_labels(dk: int, pairs: str) -> list[str]:
    """Which two columns make pair i: "0,1" (neighbours) or "0,2" (halves, d_k 4)."""
    half = dk // 2
    return [f"{2 * i},{2 * i + 1}" if pairs == "adjacent" else f"{i},{i + half}"
            for i in range(half)]


def angles(ctx: Ctx, b) -> None:
    """θ_i = base^(−2i/d_k), the table m·θ_i (positions × pairs), its cos and its sin."""
    base, pairs = settings(ctx)
    n, half = len(b.q_tokens), b.dk // 2
    theta, table = rope_thetas(b.dk, base), rope_angles(n, b.dk, base)
    labels = [f"i{i}" for i in range(half)]
    paragraphs = [ctx.t("rope.angles.p1"),
                  ctx.t("rope.angles.p2", dk=b.dk, half=half, base=f"{base:g}",
                        thetas=", ".join(f3(t) for t in theta)),
                  ctx.t(PAIRING_KEYS[pairs], labels="; ".join(pair_labels(b.dk, pairs))),
                  ctx.t("rope.angles.p3", tok=b.q_tokens[-1], m=n - 1, a=f3(table[-1, 0]))]
    equation = [ctx.mat(f"{b.p}.rope.theta", r"\theta", theta, cols=labels, kind="vector"),
                r"\Rightarrow",
                mark(ctx.mat(f"{b.p}.rope.angles", r"m\theta", table, b.q_tokens, labels),
                     cell=(n - 1, 0)),
                r"\Rightarrow", ctx.mat(f"{b.p}.rope.cos", r"\cos m\theta", np.cos(table),
                                        b.q_tokens, labels),
                r"\quad", ctx.mat(f"{b.p}.rope.sin", r"\sin m\theta", np.sin(table),
                                  b.q_tokens, labels)]
    for m in equation[4::2]:  # cos and sin on their own −1…1 scale, apart from the angles
        m.scale_group = f"{b.p}.rope.trig"
    ctx.add(Section(f"{b.p}.rope", b.number, ctx.t("rope.angles.title", where=b.where(ctx)),
                    paragraphs, formula=r"\theta_i = \mathrm{base}^{-2i/d_k},\quad "
                                        r"\varphi_{m,i} = m\,\theta_i",
                    equation=equation))


def rotated(ctx: Ctx, b, h: int) -> None:
    """Head h's Q and K before and after the turn; the first head works one pair by hand."""
    base, pairs = settings(ctx)
    g = b.projected("k", h)
    q, k = ctx.value(f"{b.p}.q")[..., h, :, :], ctx.value(f"{b.p}.k")[..., g, :, :]
    q_rot, k_rot = ctx.head(f"{b.p}.q", h), ctx.value(f"{b.p}.k_rot")[..., g, :, :]
    cols = dims(b.dk, "k")
    paragraphs = [ctx.t("rope.turn.p1", dk=b.dk, half=b.dk // 2)]
    m = min(1, len(b.q_tokens) - 1)  # position 0 turns by 0: the worked row is position 1
    if h == 0:
        paragraphs.append(worked(ctx, b, q[m], q_rot[m], m, base, pairs))
    paragraphs.append(ctx.t("rope.turn.norm", tok=b.q_tokens[-1],
                            before=f3(np.linalg.norm(q[-1])), after=f3(np.linalg.norm(q_rot[-1]))))
    a = pair_columns(b.dk, pairs)[0]
    equation = [mark(ctx.mat(f"{b.p}.projected.{h}.q", b.sym("Q", h), q, b.q_tokens, cols),
                     rows=(m,)),
                r"\Rightarrow",
                mark(ctx.mat(f"{b.p}.head.{h}.q", b.turned("Q", h), q_rot, b.q_tokens, cols),
                     cell=(m, a), rows=(m,)),
                r"\quad", ctx.mat(f"{b.p}.projected.{g}.k", b.sym("K", g), k,
                                   b.kv_tokens, cols),
                r"\Rightarrow",
                ctx.mat(f"{b.p}.head.{h}.k", b.turned("K", h), k_rot, b.kv_tokens, cols)]
    ctx.add(Section(f"{b.p}.head.{h}.rope", b.number,
                    ctx.t("rope.turn.title", where=b.where(ctx, h)), paragraphs,
                    formula=ctx.formula(f"{b.p}.q_rot"), equation=equation,
                    steps=[f"{b.p}.head.{h}.q", f"{b.p}.head.{h}.k"]))


def pair_columns(dk: int, pairs: str, i: int = 0) -> tuple[int, int]:
    """The two columns of pair i."""
    return (2 * i, 2 * i + 1) if pairs == "adjacent" else (i, i + dk // 2)


def worked(ctx: Ctx, b, x: np.ndarray, out: np.ndarray, m: int, base: float, pairs: str) -> str:
    """Pair 0 of query row m by hand: x_a cos mθ − x_b sin mθ, x_b cos mθ + x_a sin mθ."""
    a, c = pair_columns(b.dk, pairs)
    angle = m * rope_thetas(b.dk, base)[0]
    return ctx.t("rope.turn.worked", tok=b.q_tokens[m], m=m, a=a, b=c, angle=f3(angle),
                 xa=f3(x[a]), xb=f3(x[c]), cos=f3(np.cos(angle)), sin=f3(np.sin(angle)),
                 ya=f3(out[a]), yb=f3(out[c]))


def relative_scores(q_row: np.ndarray, k_row: np.ndarray, m: int, n: int, shift: int,
                    base: float, pairs: str) -> np.ndarray:
    """q̃·k̃ with the query at m and the key at n; both moved by ``shift``; the query alone
    moved: the first two are equal, the third is not."""
    def score(at_q: int, at_k: int) -> float:
        return float(turn(q_row[None], at_q, base, pairs)[0] @ turn(k_row[None], at_k, base,
                                                                    pairs)[0])
    return np.array([score(m, n), score(m + shift, n + shift), score(m + shift, n)])


def relative(ctx: Ctx, b) -> None:
    """A computed check that the score depends only on m − n: head 1's q of the last token and
    k of the second, turned at (m, n), then at (m + s, n + s)."""
    base, pairs = settings(ctx)
    m, n = len(b.q_tokens) - 1, min(1, len(b.kv_tokens) - 1)
    q, k = ctx.value(f"{b.p}.q")[..., 0, m, :], ctx.value(f"{b.p}.k")[..., 0, n, :]
    scores = relative_scores(q, k, m, n, SHIFT, base, pairs)
    tape_score = float(ctx.head(f"{b.p}.scores", 0)[m, n]) * np.sqrt(b.dk)
    labels = [f"({m},{n})", f"({m + SHIFT},{n + SHIFT})", f"({m + SHIFT},{n})"]
    paragraphs = [ctx.t("rope.rel.p1", tok=b.q_tokens[m], other=b.kv_tokens[n], m=m, n=n),
                  ctx.t("rope.rel.p2", m=m, n=n, s=SHIFT, first=f3(scores[0]),
                        moved=f3(scores[1]), diff=f"{abs(scores[0] - scores[1]):.1e}",
                        tape=f3(tape_score), root=f"√{b.dk}"),
                  ctx.t("rope.rel.p3", m=m + SHIFT, n=n, one=f3(scores[2]), d=m + SHIFT - n,
                        d0=m - n)]
    equation = [mark(ctx.mat(f"{b.p}.rope.relative", r"\tilde{q}_m \cdot \tilde{k}_n",
                             scores[None, :], [ctx.t("rope.rel.row")], labels),
                     cell=(0, 1), cols=(0, 1))]
    ctx.add(Section(f"{b.p}.rope.relative", b.number,
                    ctx.t("rope.rel.title", where=b.where(ctx)), paragraphs,
                    formula=r"\tilde{q}_m \cdot \tilde{k}_n = \sum_i \left(q_a k_a + q_b k_b"
                            r"\right)\cos (m-n)\theta_i + \left(q_b k_a - q_a k_b\right)"
                            r"\sin (m-n)\theta_i",
                    equation=equation))


def permutation(dk: int) -> np.ndarray:
    """Column order that turns a head's halves pairing into neighbours: new 2i ← old i,
    new 2i + 1 ← old i + d_k/2 (how a Hugging Face checkpoint's W_Q, W_K become GGUF's)."""
    half = dk // 2
    return np.ravel(np.column_stack([np.arange(half), np.arange(half) + half]))


def pairings(ctx: Ctx, b) -> None:
    """The other pairing, computed: with W's columns permuted per head the scores are the same;
    with the weights loaded as they are, they are not (and by how much, on this walk)."""
    base, pairs = settings(ctx)
    other = "adjacent" if pairs == "half" else "half"
    perm = permutation(b.dk) if pairs == "half" else np.argsort(permutation(b.dk))
    q, k = ctx.value(f"{b.p}.q"), np.repeat(ctx.value(f"{b.p}.k"), b.groups, axis=-3)
    right = ctx.value(f"{b.p}.scores")
    root = np.sqrt(b.dk)

    def scores(qq, kk, how):
        return turn(qq, 0, base, how) @ np.swapaxes(turn(kk, 0, base, how), -1, -2) / root

    causal = np.tril(np.ones(right.shape[-2:], dtype=bool))
    converted = scores(q[..., perm], k[..., perm], other)
    forgot = scores(q, k, other)
    same = float(np.max(np.abs(converted - right)[..., causal]))
    off = float(np.max(np.abs(forgot - right)[..., causal]))
    order = ", ".join(str(int(j)) for j in perm)
    paragraphs = [ctx.t("rope.pairs.p1"), ctx.t("rope.pairs.p2", order=order, dk=b.dk),
                  ctx.t("rope.pairs.p3", same=f"{same:.1e}", off=f3(off), h=b.heads)]
    if b.dk == 2:
        paragraphs.append(ctx.t("rope.pairs.one"))
    equation = [ctx.mat(f"{b.p}.head.0.scores", b.sym("S", 0), right[..., 0, :, :],
                        b.q_tokens, b.kv_tokens),
                r"\quad", ctx.mat(f"{b.p}.rope.forgot", b.sym(r"S_{\times}", 0),
                                  forgot[..., 0, :, :], b.q_tokens, b.kv_tokens)]
    ctx.add(Section(f"{b.p}.rope.pairs", b.number, ctx.t("rope.pairs.title", where=b.where(ctx)),
                    paragraphs, formula=r"W'_{:,\,2i} = W_{:,\,i},\quad "
                                        r"W'_{:,\,2i+1} = W_{:,\,i + d_k/2}",
                    equation=equation))
