"""Steps 8–12b around attention: add & norm, the feed-forward network, the decoder's input."""

from __future__ import annotations

import numpy as np

from ...narrate import prenorm
from ...narrate.attention import attention
from ...narrate.context import Ctx
from ...narrate.document import Section
from ...narrate.intro import embedding, model_input, positional
from ...narrate.numbers import dims, f3, mark

# Tutorial step numbers of each add & norm and feed-forward network, by stack.
# Each stack tells where a layer is and its final normalization in its own sentences.
STACK_KEYS = {"encoder": {"where": "where.encoder", "final.title": "final_norm.title.encoder",
                          "final": "final_norm.encoder"},
              "decoder": {"where": "where.decoder", "final.title": "final_norm.title.decoder",
                          "final": "final_norm.decoder"}}
NORM_NUMBERS = {"encoder": {"ln1": "8", "ln2": "10"},
                "decoder": {"ln1": "12", "ln2": "12b", "ln3": "12b"}}
FFN_NUMBER = {"encoder": "9", "decoder": "12b"}


def encoder(ctx: Ctx) -> None:
    layers = int(ctx.cfg.get("encoder_layers", 0)) or _count(ctx, "encoder")
    for i in range(layers):
        p = f"encoder.{i}"
        if _pre_norm(ctx):
            _pre_norm_layer(ctx, "encoder", i)
            continue
        attention(ctx, f"{p}.self_attn", "enc", "7", i)
        add_norm(ctx, "encoder", i, "ln1", f"{p}.self_attn.out")
        feed_forward(ctx, "encoder", i)
        add_norm(ctx, "encoder", i, "ln2", f"{p}.ffn.out", last=i == layers - 1)
    final_norm(ctx, "encoder", "10")


def _pre_norm(ctx: Ctx) -> bool:
    return ctx.cfg.get("norm") == "pre"


# Pre-norm: each sublayer as (its layer norm, its tape name, what the norm is titled before,
# the attention kind, the step number of the norm and the sublayer, the sum's number).
PRE_NORM_PARTS = {
    "encoder": (("ln1", "self_attn", "attn", "enc", "7", "8"), ("ln2", "ffn", "ffn", None, "9", "10")),
    "decoder": (("ln1", "self_attn", "attn", "self", "12", "12"),
                ("ln2", "cross_attn", "cross", "cross", "12b", "12b"),
                ("ln3", "ffn", "ffn", None, "12b", "12b")),
}


def _pre_norm_layer(ctx: Ctx, stack: str, i: int) -> None:
    """A pre-norm layer: for each sublayer, the layer norm that feeds it, the sublayer, and
    the residual sum after it (never normalized)."""
    tokens, where = _tokens(ctx, stack), ctx.t(STACK_KEYS[stack]["where"], layer=i + 1)
    for ln, part, before, kind, number, sum_number in PRE_NORM_PARTS[stack]:
        prenorm.norm(ctx, f"{stack}.{i}.{ln}", number, tokens, where, before)
        if kind is None:
            feed_forward(ctx, stack, i)
        else:
            attention(ctx, f"{stack}.{i}.{part}", kind, number, i)
        prenorm.residual(ctx, f"{stack}.{i}.{part}", sum_number, tokens, where)


def _tokens(ctx: Ctx, stack: str) -> list[str]:
    return ctx.tokens("src" if stack == "encoder" else "tgt")


def decoder(ctx: Ctx) -> None:
    decoder_input(ctx)
    embedding(ctx, "tgt_embed", "11")
    positional(ctx, "tgt_embed", "11")
    model_input(ctx, "tgt_embed", "11")
    layers = int(ctx.cfg.get("decoder_layers", 0)) or _count(ctx, "decoder")
    for i in range(layers):
        p = f"decoder.{i}"
        if _pre_norm(ctx):
            _pre_norm_layer(ctx, "decoder", i)
            continue
        attention(ctx, f"{p}.self_attn", "self", "12", i)
        add_norm(ctx, "decoder", i, "ln1", f"{p}.self_attn.out")
        attention(ctx, f"{p}.cross_attn", "cross", "12b", i)
        add_norm(ctx, "decoder", i, "ln2", f"{p}.cross_attn.out")
        feed_forward(ctx, "decoder", i)
        add_norm(ctx, "decoder", i, "ln3", f"{p}.ffn.out", last=i == layers - 1)
    final_norm(ctx, "decoder", "12b")


def _count(ctx: Ctx, stack: str) -> int:
    return len({s.name.split(".")[1] for s in ctx.tape.steps if s.name.startswith(stack + ".")
                and s.name.split(".")[1].isdigit()})


def decoder_input(ctx: Ctx) -> None:
    inp, target = ctx.tokens("tgt"), ctx.tokens("target")
    ids = ctx.value("tgt.ids")
    target_ids = (ctx.meta.get("target") or {}).get("ids")
    rows = np.array([np.ravel(ids), target_ids], dtype=np.int64) if _fits(target_ids, ids) else \
        np.reshape(ids, (1, -1))
    table = ctx.mat("tgt.ids", r"\mathrm{ids}", rows, [ctx.t("ids.input"), ctx.t("ids.target")],
                    inp)
    src = ctx.tokens("src")
    paragraphs = [ctx.t("dec.p1", inp=" ".join(inp), target=" ".join(target), n=len(inp)),
                  ctx.t("dec.p2", first=inp[0], want=target[0] if target else "?"),
                  ctx.t("why.shift")]
    callouts = [ctx.callout("D9", "D9.forward", n=len(inp))]
    d17 = ctx.erratum("tgt.ids", "D17")
    if d17:
        callouts.append(ctx.callout("D17", "D17", n=d17["ours"], src=" ".join(src)))
    ctx.add(Section("tgt.ids", "11", ctx.t("dec.title"), paragraphs,
                    formula=rf"\text{{{ctx.t('ids.input')}}} = \langle\mathrm{{start}}\rangle\, "
                            rf"y_1 \dots y_n,\quad \text{{{ctx.t('ids.target')}}} = y_1 \dots "
                            r"y_n\, \langle\mathrm{end}\rangle",
                    equation=[table], callouts=callouts, steps=["tgt.ids"]))


def _fits(target_ids, ids) -> bool:
    return isinstance(target_ids, list) and len(target_ids) == np.size(ids) and \
        all(isinstance(i, int) for i in target_ids)


def add_norm(ctx: Ctx, stack: str, i: int, ln: str, sublayer: str, last: bool = False) -> None:
    p, number = f"{stack}.{i}.{ln}", NORM_NUMBERS[stack][ln]
    side, d = ("src" if stack == "encoder" else "tgt"), int(ctx.cfg.get("d_model", 0))
    tokens = ctx.tokens(side)
    resid_step = ctx.tape.index[f"{p}.resid"]
    x, sub, r = (ctx.value(n) for n in (*resid_step.inputs, f"{p}.resid"))
    where = ctx.t(STACK_KEYS[stack]["where"], layer=i + 1)
    if i == 0:
        ctx.add(Section(f"{p}.resid", number, ctx.t("resid.title", where=where),
                        [ctx.t("resid.p1", tok=tokens[0], a=f3(x[0, 0]), b=f3(sub[0, 0]),
                               c=f3(r[0, 0]))],
                        formula=ctx.formula(f"{p}.resid", out="R", a="X",
                                            b=_sub_symbol(sublayer)),
                        equation=[mark(ctx.mat(resid_step.inputs[0], "X", x, tokens, dims(d)),
                                       cell=(0, 0)), "+",
                                  mark(ctx.mat(sublayer, _sub_symbol(sublayer), sub, tokens,
                                               dims(d)), cell=(0, 0)),
                                  "=", mark(ctx.mat(f"{p}.resid", "R", r, tokens, dims(d)),
                                            cell=(0, 0))],
                        steps=[f"{p}.resid"]))
    norm(ctx, f"{p}", number, tokens, where, r, last=last and stack == "encoder"
         and not ctx.has("encoder.norm.out"))


def _sub_symbol(name: str) -> str:
    return r"\mathrm{FFN}" if ".ffn." in name else r"\mathrm{MHA}"


def norm(ctx: Ctx, p: str, number: str, tokens: list[str], where: str, r, last=False) -> None:
    """Layer normalization of each row, with the tutorial's variant beside it (D5)."""
    d = int(ctx.cfg.get("d_model", 0))
    y, mean, std = ctx.value(f"{p}.out"), ctx.extra(f"{p}.out", "mean"), ctx.extra(f"{p}.out", "std")
    paragraphs = [ctx.t("norm.p1")]
    if ctx.cfg.get("ln_eps") is not None:
        paragraphs.append(ctx.t("norm.eps", eps=_sci(float(ctx.cfg["ln_eps"]))))
    equation = []
    if mean is not None and std is not None:
        paragraphs.append(ctx.t("norm.p2", tok=tokens[0], mu=f3(mean[0]), sd=f3(std[0]),
                                x=f3(r[0, 0]) if r is not None else "?", y=f3(y[0, 0])))
        stats = np.stack([mean, std], axis=-1)
        # R (what is normalized), its rows' μ and √(σ²+ε), then LN(R); the worked number is
        # row 0, column 0 of R and of LN(R)
        equation = [mark(ctx.mat(f"{p}.resid", "R", r, tokens, dims(d)), cell=(0, 0)),
                    r"\Rightarrow",
                    mark(ctx.mat(f"{p}.out.stats", r"\mu,\ \sqrt{\sigma^2+\varepsilon}", stats,
                                 tokens, ["μ", "√(σ²+ε)"]), rows=(0,)), r"\Rightarrow"]
    gamma, beta = ctx.value(f"{p}.gamma"), ctx.value(f"{p}.beta")
    if equation and gamma is not None and beta is not None:
        equation[2].extra = {"gamma": gamma, "beta": beta}
    if gamma is not None and np.all(gamma == 1) and np.all(beta == 0):
        paragraphs.append(ctx.t("norm.gamma_start"))
    else:
        paragraphs.append(ctx.t("norm.gamma"))
    if last:
        paragraphs.append(ctx.t("norm.memory"))
    callouts = []
    tutorial = ctx.tutorial(f"{p}.out", "D5")
    stack = p.split(".")[0]
    if tutorial is not None and ctx.first(f"D5.{stack}"):
        i, j = np.unravel_index(int(np.argmax(np.abs(tutorial - y))), y.shape)
        # The tutorial's matrix beside ours only where the two differ at the shown decimals.
        visible = bool(np.any(np.round(tutorial, 3) != np.round(y, 3)))
        callouts.append(ctx.callout(
            "D5", "D5", tok=tokens[i], col=f"d{j}", ours=f"{y[i, j]:.7f}",
            theirs=f"{tutorial[i, j]:.7f}", diff=f"{abs(tutorial[i, j] - y[i, j]):.1e}",
            tutorial=ctx.mat(f"{p}.out.tutorial", r"\mathrm{LN}_{tutorial}", tutorial, tokens,
                             dims(d), note=ctx.t("note.tutorial")) if visible else None))
    equation.append(mark(ctx.mat(f"{p}.out", r"\mathrm{LN}(R)", y, tokens, dims(d)),
                         cell=(0, 0) if equation else None))
    ctx.add(Section(f"{p}.out", number, ctx.t("norm.title", where=where), paragraphs,
                    formula=ctx.formula(f"{p}.out", x="R"), equation=equation,
                    callouts=callouts, steps=[f"{p}.out"]))


def _sci(x: float) -> str:
    """1e-05 as 1e-5, the way the paper and PyTorch write ε."""
    return f"{x:g}".replace("e-0", "e-").replace("e+0", "e+")


def final_norm(ctx: Ctx, stack: str, number: str) -> None:
    name = f"{stack}.norm"
    if f"{name}.out" not in ctx.tape.index:
        return
    side = "src" if stack == "encoder" else "tgt"
    ctx.add(Section(f"{name}.out", number, ctx.t(STACK_KEYS[stack]["final.title"]),
                    [ctx.t(STACK_KEYS[stack]["final"])], formula=ctx.formula(f"{name}.out"),
                    equation=[ctx.mat(f"{name}.out", "M" if side == "src" else "Y",
                                      ctx.value(f"{name}.out"), ctx.tokens(side),
                                      dims(int(ctx.cfg.get("d_model", 0))))],
                    steps=[f"{name}.out"]))


def feed_forward(ctx: Ctx, stack: str, i: int) -> None:
    p, number = f"{stack}.{i}.ffn", FFN_NUMBER[stack]
    tokens = ctx.tokens("src" if stack == "encoder" else "tgt")
    d, where = int(ctx.cfg.get("d_model", 0)), ctx.t(STACK_KEYS[stack]["where"], layer=i + 1)
    pre = ctx.tape.index[f"{p}.pre"]
    x, h = ctx.value(pre.inputs[0]), ctx.value(f"{p}.pre")
    width = h.shape[-1]
    hidden = "d" if width == d else "h"
    callouts = []
    if ctx.first("D4"):
        key = "D4.single" if ctx.cfg.get("ffn") == "single" else "D4.paper"
        callouts.append(ctx.callout("D4", key, d=d, dff=width))
    if i == 0:
        ctx.add(Section(f"{p}.pre", number, ctx.t("ffn.title.pre", where=where),
                        [ctx.t("ffn.pre", d=d, w=width), ctx.t("why.ffn")],
                        formula=ctx.formula(f"{p}.pre"),
                        equation=[ctx.mat(pre.inputs[0], "X", x, tokens, dims(d)), r"\cdot",
                                  ctx.param(f"{p}.w_1", "W_1", dims(d), dims(width, hidden)),
                                  "+", ctx.mat(f"{p}.b_1", "b_1", ctx.value(f"{p}.b_1"),
                                               cols=dims(width, hidden), kind="vector"),
                                  "=", ctx.mat(f"{p}.pre", "H", h, tokens, dims(width, hidden))],
                        callouts=callouts, steps=[f"{p}.pre"]))
    relu = f"{p}.act" if f"{p}.act" in ctx.tape.index else f"{p}.out"
    a = ctx.value(relu)
    zeroed = int(np.sum(h < 0))  # counted to describe the step, not to compute it
    if i == 0:
        ctx.add(Section(relu, number, ctx.t("ffn.title.relu", where=where),
                        [ctx.t("ffn.relu", k=zeroed, total=h.size)],
                        formula=ctx.formula(relu),
                        equation=[ctx.mat(relu, r"\max(0, H)", a, tokens, dims(width, hidden))],
                        steps=[relu]))
    if relu != f"{p}.out" or i > 0:
        _ffn_out(ctx, p, number, where, tokens, width, hidden, i)


def _ffn_out(ctx, p, number, where, tokens, width, hidden, i) -> None:
    d = int(ctx.cfg.get("d_model", 0))
    out = ctx.value(f"{p}.out")
    equation = [ctx.mat(f"{p}.out", r"\mathrm{FFN}", out, tokens, dims(d))]
    if f"{p}.act" in ctx.tape.index:
        equation = [ctx.mat(f"{p}.act", "H", ctx.value(f"{p}.act"), tokens, dims(width, hidden)),
                    r"\cdot", ctx.param(f"{p}.w_2", "W_2", dims(width, hidden), dims(d)), "+",
                    ctx.mat(f"{p}.b_2", "b_2", ctx.value(f"{p}.b_2"), cols=dims(d),
                            kind="vector"), "=", *equation]
    paragraphs = [ctx.t("ffn.out", d=d, w=width)] if f"{p}.act" in ctx.tape.index else []
    if i > 0:
        paragraphs.insert(0, ctx.t("ffn.same"))
    ctx.add(Section(f"{p}.out", number, ctx.t("ffn.title.out", where=where),
                    paragraphs, formula=ctx.formula(f"{p}.out"), equation=equation,
                    steps=[f"{p}.out"]))
