"""Steps 7, 7b, 12 and 12b: attention, one panel per head, then the heads joined by W^O."""

from __future__ import annotations

import math

import numpy as np

from ..engine.formula import head, prime, sup, transpose
from . import gqa, pattern_shape, rope
from .context import MAX_HEADS, Ctx
from .document import Matrix, Section
from .numbers import dims, f3, mark, row_text


class Block:
    """One attention block on the tape: its name, kind, step number and sizes."""

    def __init__(self, ctx: Ctx, p: str, kind: str, number: str, layer: int,
                 stream: str | None = None):
        self.p, self.kind, self.number, self.layer = p, kind, number, layer
        # The symbol of the rows the queries are made from: X in the encoder, Y in the decoder,
        # unless the family names its own (the decoder-only model's stream is X).
        self.stream = stream or ("X" if kind == "enc" else "Y")
        q, v = ctx.value(f"{p}.q"), ctx.value(f"{p}.v")
        self.heads, self.dk, self.dv = q.shape[-3], q.shape[-1], v.shape[-1]
        # Grouped-query attention: fewer key/value heads, each serving ``groups`` query heads;
        # RoPE: q and k turned by position before the scores (steps of their own on the tape).
        self.kv_heads = v.shape[-3]
        self.groups = self.heads // self.kv_heads
        self.rotated = f"{p}.q_rot" in ctx.tape.index
        self.q_side = ctx.side_of(p)
        self.kv_side = "src" if kind == "cross" else self.q_side
        self.q_tokens, self.kv_tokens = ctx.tokens(self.q_side), ctx.tokens(self.kv_side)
        self.x_name = ctx.tape.index[f"{p}.q"].inputs[0]
        self.kv_name = ctx.tape.index[f"{p}.k"].inputs[0]
        self.masked = f"{p}.masked" in ctx.tape.index
        # Note: heads are shown one by one in the first layer of a stack; later layers repeat
        # the same computation with other weights, so they show the joined result only.
        self.shown = min(self.heads, MAX_HEADS) if layer == 0 else 0

    def sym(self, letter: str, h: int) -> str:
        return head(letter, h + 1) if self.heads > 1 else letter

    def turned(self, letter: str, h: int) -> str:
        """Q or K as the scores read them: turned by RoPE (Q̃) when the block rotates them."""
        return self.sym(rf"\tilde{{{letter}}}" if self.rotated else letter, h)

    def projected(self, which: str, h: int) -> int:
        """The head of the ``which`` projection that query head ``h`` reads (its group's K/V
        head under grouped-query attention)."""
        return h if which == "q" else h // self.groups

    def owns(self, which: str, h: int) -> bool:
        """Whether head ``h``'s panels show the ``which`` projection: every head its Q, the
        first head of each group its shared K and V."""
        return which == "q" or h % self.groups == 0

    def where(self, ctx: Ctx, h: int | None = None) -> str:
        text = ctx.t(KIND_KEYS[self.kind]["where"], layer=self.layer + 1)
        return text + (ctx.t("where.head", h=h + 1) if h is not None and self.heads > 1 else "")


# Each kind of attention block tells where it is, introduces itself and joins its heads in its
# own sentences.
KIND_KEYS = {
    "enc": {"where": "where.enc", "intro": "attn.intro.enc", "title": "attn.title.enc",
            "out": "attn.out.title.enc"},
    "self": {"where": "where.self", "intro": "attn.intro.self", "title": "attn.title.self",
             "out": "attn.out.title.self"},
    "cross": {"where": "where.cross", "intro": "attn.intro.cross", "title": "attn.title.cross",
              "out": "attn.out.title.cross"},
}
PROJECTION_KEYS = {"q": ("proj.q", "proj.title.q"), "k": ("proj.k", "proj.title.k"),
                   "v": ("proj.v", "proj.title.v")}  # (sentence, title)
CROSS_KEYS = {"k": "proj.k.cross", "v": "proj.v.cross"}  # keys and values read the memory M


def attention(ctx: Ctx, p: str, kind: str, number: str, layer: int,
              stream: str | None = None) -> None:
    """kind: "enc" (encoder self-attention), "self" (masked, decoder) or "cross"; ``stream``:
    the symbol of the rows the queries are made from (default X in the encoder, else Y)."""
    b = Block(ctx, p, kind, number, layer, stream)
    if b.shown:
        intro(ctx, b)
        if b.groups > 1:
            gqa.sharing(ctx, b)
        if b.rotated:
            rope.angles(ctx, b)
        for h in range(b.shown):
            for which in ("q", "k", "v"):
                if b.owns(which, h):
                    projection(ctx, b, h, which)
            if b.rotated:
                rope.rotated(ctx, b, h)
            scores(ctx, b, h)
            if b.masked:
                mask(ctx, b, h)
            pattern(ctx, b, h)
            weighted_sum(ctx, b, h)
        if b.rotated:
            rope.relative(ctx, b)
            rope.pairings(ctx, b)
    output(ctx, b)


def intro(ctx: Ctx, b: Block) -> None:
    d = int(ctx.cfg.get("d_model", 0))
    paragraphs = [ctx.t(KIND_KEYS[b.kind]["intro"]),
                  ctx.t("attn.sizes", h=b.heads, dk=b.dk, dv=b.dv, d=d, n=len(b.q_tokens))]
    if b.heads > 1 and ctx.first("why.heads"):
        paragraphs.append(ctx.t("why.heads"))
    if b.kind == "cross":
        paragraphs.append(ctx.t("attn.cross.nomask"))
    if b.heads > b.shown:
        paragraphs.append(ctx.t("attn.more_heads", shown=b.shown, h=b.heads))
    callouts = []
    if ctx.first("D11"):
        callouts.append(ctx.callout("D11", "D11"))
    if b.kind == "self" and ctx.first("D8.self"):
        callouts.append(ctx.callout("D8", "D8.self"))
    if b.kind == "cross" and ctx.first("D2"):
        callouts.append(ctx.callout("D2", "D2", n=len(b.q_tokens), m=len(b.kv_tokens)))
    ctx.add(Section(b.p, b.number, ctx.t(KIND_KEYS[b.kind]["title"], where=b.where(ctx)),
                    paragraphs, formula=ctx.formula(f"{b.p}.q"), callouts=callouts,
                    steps=_intro_steps(b)))


def _intro_steps(b: Block) -> list[str]:
    """Q, K and V of the block; with RoPE or grouped K/V, the head panels show the projections
    themselves (their views hold the turned or shared matrices), so the intro names none."""
    return [f"{b.p}.q", f"{b.p}.k", f"{b.p}.v"] if not b.rotated and b.groups == 1 else []


def projection(ctx: Ctx, b: Block, h: int, which: str) -> None:
    """One head's Q, K or V: the input times that head's columns of W (plus bias)."""
    x_sym = "M" if which != "q" and b.kind == "cross" else b.stream
    x_name = b.x_name if which == "q" else b.kv_name
    shown_sym = x_sym
    if ctx.cfg.get("norm") == "pre" and x_name.rsplit(".", 2)[-2:-1] in (["ln1"], ["ln2"], ["ln3"]):
        norm = "RMSNorm" if ctx.tape.index[x_name].op == "rms_norm" else "LN"
        x_sym, shown_sym = rf"\mathrm{{{norm}}}({x_sym})", f"{norm}({x_sym})"  # pre-norm's input
    x_tokens = b.q_tokens if which == "q" else b.kv_tokens
    width, d = (b.dv if which == "v" else b.dk), int(ctx.cfg.get("d_model", 0))
    out = _projected(ctx, b, h, which)
    key = CROSS_KEYS[which] if b.kind == "cross" and which in CROSS_KEYS else \
        PROJECTION_KEYS[which][0]
    paragraphs = [ctx.t(key, d=d, w=width, tok=x_tokens[0], row=row_text(out[0]))]
    if which != "q" and b.groups > 1:
        paragraphs.append(gqa.served(ctx, b, h))
    callouts = []
    if which == "q" and ctx.first("D7"):
        callouts.append(ctx.callout("D7", "D7"))
    ctx.add(Section(_projection_id(b, h, which), b.number,
                    ctx.t(PROJECTION_KEYS[which][1], where=b.where(ctx, h), x=shown_sym),
                    paragraphs, formula=ctx.formula(f"{b.p}.{which}"),
                    equation=_projection_equation(ctx, b, h, which, x_sym, out),
                    callouts=callouts, steps=[_projection_step(b, h, which)]))


def _projection_step(b: Block, h: int, which: str) -> str:
    """The step a projection panel shows: the head's view, or with RoPE or grouped K/V (whose
    views are what the scores read, shown by later panels) the projection's whole step."""
    return f"{b.p}.head.{h}.{which}" if not b.rotated and b.groups == 1 else f"{b.p}.{which}"


def projected_name(b: Block, h: int, which: str) -> str:
    """The drawn matrix of head ``h``'s projection: its view's name, or with RoPE or grouped
    K/V a name of its own (the view holds another matrix; the block step all heads)."""
    if not b.rotated and b.groups == 1:
        return f"{b.p}.head.{h}.{which}"
    return f"{b.p}.projected.{h}.{which}"


def _projection_id(b: Block, h: int, which: str) -> str:
    """The panel's id: the head's view's name, unless RoPE's panel shows that view (turned)."""
    turned = b.rotated and which != "v"
    return f"{b.p}.head.{h}.{which}" + (".projected" if turned else "")


def _projected(ctx: Ctx, b: Block, h: int, which: str):
    """Head ``h``'s Q, K or V as the projection made it: the head's view, or with RoPE or
    grouped K/V (whose views hold what the scores read) the projection's own head."""
    if not b.rotated and b.groups == 1:
        return ctx.head(f"{b.p}.{which}", h)
    return ctx.value(f"{b.p}.{which}")[..., b.projected(which, h), :, :]


def _projection_equation(ctx: Ctx, b: Block, h: int, which: str, x_sym: str, out) -> list:
    big, col = which.upper(), "v" if which == "v" else "k"
    width, d = (b.dv if which == "v" else b.dk), int(ctx.cfg.get("d_model", 0))
    x_name = b.x_name if which == "q" else b.kv_name
    x_tokens = b.q_tokens if which == "q" else b.kv_tokens
    h = b.projected(which, h)  # the K/V head of the group under grouped-query attention
    part = slice(h * width, (h + 1) * width)  # this head's columns of W (and entries of b)
    w, bias = ctx.value(f"{b.p}.w_{which}"), ctx.value(f"{b.p}.b_{which}")
    w_sym, b_sym = (b.sym(sup(letter, "{" + big + "}"), h) for letter in "Wb")
    equation = [ctx.mat(x_name, x_sym, ctx.value(x_name), x_tokens, dims(d)), r"\cdot",
                ctx.mat(f"{b.p}.w_{which}", w_sym, None if w is None else w[:, part], dims(d),
                        dims(width, col))]
    if f"{b.p}.b_{which}" in ctx.tape.index[f"{b.p}.{which}"].inputs:
        equation += ["+", ctx.mat(f"{b.p}.b_{which}", b_sym,
                                  None if bias is None else bias[part], cols=dims(width, col),
                                  kind="vector")]
    mark(equation[0], rows=(0,))  # "“when” gets [...]": row 0 of the input makes row 0
    # turned or shared, the head's view holds another matrix: this one is the projection's
    return equation + ["=", mark(ctx.mat(projected_name(b, h, which), b.sym(big, h), out,
                                         x_tokens, dims(width, col)), rows=(0,))]


def scores(ctx: Ctx, b: Block, h: int) -> None:
    q, k, s = ctx.head(f"{b.p}.q", h), ctx.head(f"{b.p}.k", h), ctx.head(f"{b.p}.scores", h)
    d = int(ctx.cfg.get("d_model", 0))
    j = int(np.argmax(s[0]))
    root = math.sqrt(b.dk)
    paragraphs = [ctx.t("scores.p1", dk=b.dk, root=f"{root:g}"),
                  ctx.t("scores.p2", tok=b.q_tokens[0], best=b.kv_tokens[j], val=f3(s[0, j]),
                        lo=f3(s.min()), hi=f3(s.max()))]
    if ctx.first("why.scale"):
        paragraphs.insert(1, ctx.t("why.scale"))
    callouts = []
    tutorial = ctx.tutorial(f"{b.p}.scores", "D1")
    if tutorial is not None:
        t_h = tutorial[..., h, :, :]
        callouts.append(ctx.callout(
            "D1", "D1", d=d, dk=b.dk, root=f"{root:g}", ratio=f"{root / d:.3g}",
            tok=b.q_tokens[0], other=b.kv_tokens[0], ours=f3(s[0, 0]), theirs=f3(t_h[0, 0]),
            tutorial=ctx.mat(f"{b.p}.scores.tutorial", "S_{tutorial}", t_h, b.q_tokens,
                             b.kv_tokens, note=ctx.t("note.tutorial"))))
    if b.kind == "enc" and not b.masked and ctx.first("D8.enc"):
        callouts.append(ctx.callout("D8", "D8.enc"))
    # the worked score: row 0 of Q times column j of Kᵀ makes S[0, j]
    equation = [mark(ctx.mat(f"{b.p}.head.{h}.q", b.turned("Q", h), q, b.q_tokens,
                             dims(b.dk, "k")), rows=(0,)),
                r"\cdot",
                mark(ctx.mat(f"{b.p}.head.{h}.k", transpose(b.turned("K", h)), k.T, dims(b.dk, "k"),
                             b.kv_tokens), cols=(j,)), r"\div \sqrt{" + str(b.dk) + "}", "=",
                mark(ctx.mat(f"{b.p}.head.{h}.scores", b.sym("S", h), s, b.q_tokens,
                             b.kv_tokens), cell=(0, j), rows=(0,), cols=(j,))]
    ctx.add(Section(f"{b.p}.head.{h}.scores", b.number,
                    ctx.t("scores.title", where=b.where(ctx, h)), paragraphs,
                    formula=ctx.formula(f"{b.p}.scores"), equation=equation, callouts=callouts,
                    steps=[f"{b.p}.head.{h}.scores"]))


def mask(ctx: Ctx, b: Block, h: int) -> None:
    m = ctx.head(f"{b.p}.masked", h)
    hidden = int(np.isinf(m).sum())
    key = "mask.causal" if b.kind == "self" else "mask.pad"
    paragraphs = [ctx.t(key, k=hidden, first=b.q_tokens[0], last=b.q_tokens[-1],
                        n=len(b.kv_tokens))]
    callouts = [ctx.callout("D8", "D8.pad")] if b.kind != "self" and ctx.first("D8.pad") else []
    if b.kind == "self" and ctx.first("D10.forward"):  # the tutorial's third takeaway
        callouts.append(ctx.callout("D10", "D10.forward"))
    ctx.add(Section(f"{b.p}.head.{h}.masked", b.number,
                    ctx.t("mask.title", where=b.where(ctx, h)), paragraphs,
                    formula=ctx.formula(f"{b.p}.masked"), callouts=callouts,
                    equation=[ctx.mat(f"{b.p}.head.{h}.masked", prime(b.sym("S", h)), m,
                                      b.q_tokens, b.kv_tokens)],
                    steps=[f"{b.p}.head.{h}.masked"]))


def pattern(ctx: Ctx, b: Block, h: int) -> None:
    a = ctx.head(f"{b.p}.pattern", h)
    best = int(np.argmax(a[0]))
    last = int(np.argmax(a[-1]))
    paragraphs = [ctx.t("pattern.p1"),
                  ctx.t("pattern.p2", tok=b.q_tokens[0], best=b.kv_tokens[best],
                        pct=f"{100 * a[0, best]:.0f}", tok2=b.q_tokens[-1],
                        best2=b.kv_tokens[last], pct2=f"{100 * a[-1, last]:.0f}")]
    trained = bool(ctx.meta.get("trained"))
    if ctx.first("pattern.weights"):  # what the weights can mean, said at the first pattern
        paragraphs.append(pattern_shape.told(ctx, a, b.kv_tokens, trained))
    callouts = []
    top = float(a.max(axis=-1).mean())
    if ctx.cfg.get("init") == "uniform" and top >= 0.8 and not trained \
            and ctx.first("D14.softmax"):
        callouts.append(ctx.callout("D14", "D14.softmax", top=f3(top)))
    read = "masked" if b.masked else "scores"  # the softmax reads S (or S' under a mask)
    s_sym = prime(b.sym("S", h)) if b.masked else b.sym("S", h)
    equation = [mark(ctx.mat(f"{b.p}.head.{h}.{read}", s_sym, ctx.head(f"{b.p}.{read}", h),
                             b.q_tokens, b.kv_tokens), rows=(0,)), r"\rightarrow",
                mark(ctx.mat(f"{b.p}.head.{h}.pattern", b.sym("A", h), a, b.q_tokens,
                             b.kv_tokens, kind="pattern"), cell=(0, best), rows=(0,),
                     keep_rows=(len(b.q_tokens) - 1,))]
    ctx.add(Section(f"{b.p}.head.{h}.pattern", b.number,
                    ctx.t("pattern.title", where=b.where(ctx, h)), paragraphs,
                    formula=ctx.formula(f"{b.p}.pattern"),
                    equation=equation,
                    callouts=callouts, steps=[f"{b.p}.head.{h}.pattern"]))


def weighted_sum(ctx: Ctx, b: Block, h: int) -> None:
    a, v, z = (ctx.head(f"{b.p}.{leaf}", h) for leaf in ("pattern", "v", "z"))
    best = int(np.argmax(a[0]))
    paragraphs = [ctx.t("z.p1", dv=b.dv),
                  ctx.t("z.p2", tok=b.q_tokens[0], best=b.kv_tokens[best],
                        pct=f"{100 * a[0, best]:.0f}", row=row_text(z[0]))]
    # row 0 of Z: row 0 of A weighs the rows of V ("“when” takes 40% of “you”'s value")
    equation = [mark(ctx.mat(f"{b.p}.head.{h}.pattern", b.sym("A", h), a, b.q_tokens,
                             b.kv_tokens, kind="pattern"), cell=(0, best), rows=(0,)), r"\cdot",
                mark(ctx.mat(f"{b.p}.head.{h}.v", b.sym("V", h), v, b.kv_tokens,
                             dims(b.dv, "v")), rows=(best,)),
                "=", mark(ctx.mat(f"{b.p}.head.{h}.z", b.sym("Z", h), z, b.q_tokens,
                                  dims(b.dv, "v")), rows=(0,))]
    ctx.add(Section(f"{b.p}.head.{h}.z", b.number,
                    ctx.t("z.title", where=b.where(ctx, h)), paragraphs,
                    formula=ctx.formula(f"{b.p}.z"), equation=equation,
                    steps=[f"{b.p}.head.{h}.z"]))


def output(ctx: Ctx, b: Block) -> None:
    """Step 7b: Concat(Z¹…Zʰ) W^O (+ b^O), back to d_model columns."""
    d = int(ctx.cfg.get("d_model", 0))
    concat, out = ctx.value(f"{b.p}.concat"), ctx.value(f"{b.p}.out")
    number = "7b" if b.kind == "enc" else b.number
    width = concat.shape[-1]
    # the joined columns named by the head they come from: z1.0 … z1.3, z2.0 …
    by_head = [f"z{j // b.dv + 1}.{j % b.dv}" for j in range(width)] if b.heads > 1 else \
        dims(width, "z")
    joined = ctx.mat(f"{b.p}.concat", "Z", concat, b.q_tokens, by_head)
    if isinstance(joined, Matrix) and b.heads > 1:
        joined.col_groups = (b.dv,) * b.heads  # the page tints the columns by head
    equation = [joined, r"\cdot", ctx.param(f"{b.p}.w_o", "W^O", by_head, dims(d))]
    if f"{b.p}.b_o" in ctx.tape.index[f"{b.p}.out"].inputs:
        equation += ["+", ctx.mat(f"{b.p}.b_o", "b^O", ctx.value(f"{b.p}.b_o"), cols=dims(d),
                                  kind="vector")]
    equation += ["=", ctx.mat(f"{b.p}.out", r"\mathrm{MHA}", out, b.q_tokens, dims(d))]
    key = "attn.out.p1" if b.heads > 1 else "attn.out.one"
    paragraphs = [ctx.t(key, h=b.heads, n=len(b.q_tokens), dv=b.dv, width=width, d=d)]
    if not b.shown:
        paragraphs.insert(0, ctx.t("attn.out.same", h=b.heads))
    ctx.add(Section(f"{b.p}.out", number,
                    ctx.t(KIND_KEYS[b.kind]["out"], where=b.where(ctx)),
                    paragraphs, formula=ctx.formula(f"{b.p}.out"), equation=equation,
                    steps=[f"{b.p}.concat", f"{b.p}.out"]))
