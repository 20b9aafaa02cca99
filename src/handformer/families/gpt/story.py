"""The walkthrough of the decoder-only model (tape.meta["family"] == "gpt").

Sections keep the tutorial's step numbers where the step is the same idea: 1–3 the text, its
vocabulary and ids; 4–6 the input; 7–10 a layer (attention, add, feed-forward, add, each with
its layer norm); 13 the prediction; 14 the loss; 15–16 the gradients and the update. Steps 11
and 12 (the decoder's second input and its cross-attention) have no counterpart: the overview
says so. Attention, the prediction's probabilities, the loss, the gradients and the updates
are told by the shared narrators; the rest is here. Numbers are read off the tape.
"""

from __future__ import annotations

import functools

import numpy as np

from ...engine.formula import sub
from ...narrate.attention import attention
from ...narrate.context import Ctx, dims, f3, mark, row_text
from ...narrate.document import Architecture, Block, Section
from ...narrate.intro import vocabulary
from ...narrate.predict import predicted_words, probabilities


def story(tape) -> list:
    """Overview → text → input → every layer → final norm → prediction; after a backward pass
    the loss, every gradient, the tied table's two uses and the updates; the recap."""
    layers = int(tape.meta["config"]["layers"])
    told = [overview, text, vocabulary, encoding, embedding, positions, model_input,
            *(functools.partial(layer, i=i) for i in range(layers)), final_norm,
            logits, probabilities, predicted_words]
    after = []
    if tape.grads:
        from ...narrate.backward import backward, updates
        from ...narrate.predict import loss

        after = [loss, backward, tied_gradient, updates]
    return told + after + [recap]


def _d(ctx: Ctx) -> int:
    return int(ctx.cfg["d_model"])


def _tokens(ctx: Ctx) -> list[str]:
    """The input tokens (<start> and the words): the decoder's input, meta["tgt"]."""
    return ctx.tokens("tgt")


# --- the overview and the text ---------------------------------------------------------------


def overview(ctx: Ctx) -> None:
    c, tokens = ctx.cfg, _tokens(ctx)
    paragraphs = [ctx.t("gpt.overview.p1", layers=c["layers"], d=c["d_model"], h=c["heads"],
                        dk=c["d_k"], dff=c["d_ff"], V=len(ctx.vocab)),
                  ctx.t("gpt.overview.p2", text=" ".join(tokens[1:]), n=len(tokens)),
                  ctx.t("gpt.changed.memory"), ctx.t("gpt.changed.stack"),
                  ctx.t("gpt.changed.mask"),
                  ctx.t("gpt.changed.pre" if c["norm"] == "pre" else "gpt.changed.post"),
                  ctx.t("gpt.changed.tied" if c["tie_embeddings"] else "gpt.changed.untied"),
                  ctx.t("gpt.changed.steps"), ctx.t("overview.map")]
    ctx.add(Section("overview", "", ctx.t("gpt.overview.title"), paragraphs, phase="text",
                    level="overview", architecture=architecture(ctx)), numbered=False)


def architecture(ctx: Ctx) -> Architecture:
    c, n = ctx.cfg, len(_tokens(ctx))
    d, dff = int(c["d_model"]), int(c["d_ff"])
    attn = ("self_attn", ctx.t("arch.masked_attn"), "attention",
            ctx.t("arch.heads", h=c["heads"], dk=c["d_k"]))
    ffn = ("ffn", ctx.t("arch.ffn.label"), "ffn", ctx.t("arch.ffn", d=d, dff=dff))
    norms = [(f"ln{k}", ctx.t("gpt.arch.norm", k=k) if c["norm"] == "pre" else
              ctx.t("place.norm", k=k), "norm", "") for k in (1, 2)]
    parts = [norms[0], attn, norms[1], ffn] if c["norm"] == "pre" else \
        [attn, norms[0], ffn, norms[1]]
    layers = [Block(f"decoder.{i}", ctx.t("arch.layer", i=i + 1), "stack",
                    children=[Block(f"decoder.{i}.{leaf}", label, kind, detail=detail)
                              for leaf, label, kind, detail in parts])
              for i in range(int(c["layers"]))]
    if ctx.has("decoder.norm.out"):
        layers.append(Block("decoder.norm", ctx.t("arch.final_norm"), "norm"))
    blocks = [Block("embed", ctx.t("gpt.arch.embed"), "embed",
                    detail=ctx.t("arch.shape", n=n, d=d)),
              Block("decoder", ctx.t("gpt.arch.stack", n=c["layers"]), "stack",
                    children=layers),
              Block("generator", ctx.t("gpt.arch.generator" if c["tie_embeddings"] else
                                       "arch.generator"), "linear",
                    detail=ctx.t("arch.shape", n=n, d=len(ctx.vocab))),
              Block("prediction", ctx.t("arch.prediction"), "output")]
    sizes = {k: int(c[k]) for k in ("d_model", "heads", "d_k", "d_v", "d_ff", "layers")}
    return Architecture(blocks, sizes)


def text(ctx: Ctx) -> None:
    data = [str(s) for s in ctx.meta.get("dataset") or []]
    prompt = list((ctx.meta.get("prompt") or {}).get("tokens") or [])
    words = _tokens(ctx)[1:]
    paragraphs = [ctx.t("gpt.text.p1", count=len(data)), *(f"  {i + 1}. {s}"
                                                          for i, s in enumerate(data[:30]))]
    paragraphs.append(ctx.t("gpt.text.p2", prompt=" ".join(prompt),
                            rest=" ".join(words[len(prompt):])))
    ctx.add(Section("dataset", "1", ctx.t("gpt.text.title"), paragraphs, phase="text"))


def encoding(ctx: Ctx) -> None:
    inp, target = _tokens(ctx), ctx.tokens("target")
    ids, target_ids = ctx.value("ids"), (ctx.meta.get("target") or {}).get("ids") or []
    rows = np.array([np.ravel(ids), target_ids], dtype=np.int64) \
        if len(target_ids) == np.size(ids) else np.reshape(ids, (1, -1))
    pairs = [f"{t}→{i}" for i, t in enumerate(ctx.vocab[:30])]
    paragraphs = [ctx.t("encoding.p1"), "  " + ", ".join(pairs),
                  ctx.t("gpt.ids.p1", n=len(inp)),
                  ctx.t("gpt.ids.p2", first=inp[0], want=target[0] if target else "?",
                        tok=inp[-1], last=len(inp) - 1, end=target[-1] if target else "?")]
    table = ctx.mat("ids", r"\mathrm{ids}", rows, [ctx.t("ids.input"), ctx.t("ids.target")],
                    inp)
    ctx.add(Section("ids", "3", ctx.t("gpt.ids.title"), paragraphs,
                    formula=r"\mathrm{input} = \langle\mathrm{start}\rangle\, w_1 \dots w_n,\quad "
                            r"\mathrm{target} = w_1 \dots w_n\, \langle\mathrm{end}\rangle",
                    equation=[table], steps=["ids"], phase="text"))


# --- the input: steps 4–6 --------------------------------------------------------------------


def embedding(ctx: Ctx) -> None:
    d, tokens, x = _d(ctx), _tokens(ctx), ctx.value("embed.tok")
    paragraphs = [ctx.t("embed.p1.src", d=d, shape=f"{len(ctx.vocab)}×{d}"),
                  ctx.t("embed.p2", tok=tokens[1] if len(tokens) > 1 else tokens[0],
                        row=row_text(x[1] if len(tokens) > 1 else x[0])),
                  ctx.t("gpt.embed.tied" if ctx.cfg["tie_embeddings"] else "gpt.embed.untied")]
    ctx.add(Section("embed.tok", "4", ctx.t("embed.title.src"), paragraphs,
                    formula=ctx.formula("embed.tok"),
                    equation=[mark(ctx.mat("embed.tok", sub("X", "tok"), x, tokens, dims(d)),
                                   rows=(min(1, len(tokens) - 1),))],
                    steps=["embed.tok"]))


def positions(ctx: Ctx) -> None:
    d, tokens, pe = _d(ctx), _tokens(ctx), ctx.value("embed.pos")
    paragraphs = [ctx.t("pos.p1"), ctx.t("pos.p2", tok=tokens[0]), ctx.t("gpt.pos.why")]
    ctx.add(Section("embed.pos", "5", ctx.t("pos.title"), paragraphs,
                    formula=ctx.formula("embed.pos"),
                    equation=[ctx.mat("embed.pos", "PE", pe, tokens, dims(d), kind="positional")],
                    steps=["embed.pos"]))


def model_input(ctx: Ctx) -> None:
    d, tokens = _d(ctx), _tokens(ctx)
    a, pe, x = (ctx.value(n) for n in ("embed.tok", "embed.pos", "embed.out"))
    paragraphs = [ctx.t("gpt.input.p1", n=len(tokens), d=d),
                  ctx.t("input.p2", tok=tokens[0], a=f3(a[0, 0]), b=f3(pe[0, 0]), c=f3(x[0, 0]))]
    equation = [mark(ctx.mat("embed.tok", sub("X", "tok"), a, tokens, dims(d)), cell=(0, 0)),
                "+", mark(ctx.mat("embed.pos", "PE", pe, tokens, dims(d), kind="positional"),
                          cell=(0, 0)),
                "=", mark(ctx.mat("embed.out", "X", x, tokens, dims(d)), cell=(0, 0))]
    ctx.add(Section("embed.out", "6", ctx.t("gpt.input.title"), paragraphs,
                    formula=ctx.formula("embed.out"), equation=equation, steps=["embed.out"]))


# --- one layer: steps 7–10 -------------------------------------------------------------------


def layer(ctx: Ctx, i: int) -> None:
    p = f"decoder.{i}"
    if ctx.cfg["norm"] == "pre":
        norm(ctx, f"{p}.ln1", "7", i, before="attn")
        attention(ctx, f"{p}.self_attn", "self", "7", i)
        residual(ctx, f"{p}.self_attn", "8", i)
        norm(ctx, f"{p}.ln2", "9", i, before="ffn")
        feed_forward(ctx, p, "9", i)
        residual(ctx, f"{p}.ffn", "10", i)
    else:
        attention(ctx, f"{p}.self_attn", "self", "7", i)
        residual(ctx, f"{p}.ln1", "8", i)
        norm(ctx, f"{p}.ln1", "8", i)
        feed_forward(ctx, p, "9", i)
        residual(ctx, f"{p}.ln2", "10", i)
        norm(ctx, f"{p}.ln2", "10", i)


def _where(ctx: Ctx, i: int) -> str:
    return ctx.t("where.decoder", layer=i + 1)


# The pre-norm layer norms are titled by the sublayer they feed.
PRE_NORM_TITLES = {"attn": "gpt.norm.title.attn", "ffn": "gpt.norm.title.ffn"}


def norm(ctx: Ctx, p: str, number: str, i: int, before: str | None = None) -> None:
    """LN of each row: before a sublayer (pre-norm) or after the residual sum (post-norm)."""
    tokens, d = _tokens(ctx), _d(ctx)
    step = ctx.tape.index[f"{p}.out"]
    x_name = step.inputs[0]
    x, y = ctx.value(x_name), ctx.value(f"{p}.out")
    mean, std = ctx.extra(f"{p}.out", "mean"), ctx.extra(f"{p}.out", "std")
    paragraphs = [ctx.t("norm.p1"), ctx.t("norm.eps", eps=f"{float(ctx.cfg['ln_eps']):g}")]
    paragraphs.append(ctx.t("norm.p2", tok=tokens[0], mu=f3(mean[0]), sd=f3(std[0]),
                            x=f3(x[0, 0]), y=f3(y[0, 0])))
    gamma, beta = ctx.value(f"{p}.gamma"), ctx.value(f"{p}.beta")
    start = np.all(gamma == 1) and np.all(beta == 0)
    paragraphs.append(ctx.t("norm.gamma_start" if start else "norm.gamma"))
    if before is not None:
        paragraphs.append(ctx.t("gpt.norm.pre"))
    x_sym = "X" if before is not None else "R"
    stats = np.stack([mean, std], axis=-1)
    equation = [mark(ctx.mat(x_name, x_sym, x, tokens, dims(d)), cell=(0, 0)), r"\Rightarrow",
                mark(ctx.mat(f"{p}.out.stats", r"\mu,\ \sqrt{\sigma^2+\varepsilon}", stats,
                             tokens, ["μ", "√(σ²+ε)"]), rows=(0,)), r"\Rightarrow",
                mark(ctx.mat(f"{p}.out", rf"\mathrm{{LN}}({x_sym})", y, tokens, dims(d)),
                     cell=(0, 0))]
    title = ctx.t(PRE_NORM_TITLES[before], where=_where(ctx, i)) if before else \
        ctx.t("norm.title", where=_where(ctx, i))
    ctx.add(Section(f"{p}.out", number, title, paragraphs,
                    formula=ctx.formula(f"{p}.out", x=x_sym), equation=equation,
                    steps=[f"{p}.out"]))


def residual(ctx: Ctx, p: str, number: str, i: int) -> None:
    """R = X + Sublayer(…): ``p`` is the sublayer (pre-norm) or the layer norm (post-norm)
    whose ``.resid`` step is the sum."""
    tokens, d = _tokens(ctx), _d(ctx)
    step = ctx.tape.index[f"{p}.resid"]
    x, s, r = (ctx.value(n) for n in (*step.inputs, f"{p}.resid"))
    s_sym = r"\mathrm{FFN}" if ".ffn" in step.inputs[1] else r"\mathrm{MHA}"
    paragraphs = [ctx.t("resid.p1", tok=tokens[0], a=f3(x[0, 0]), b=f3(s[0, 0]), c=f3(r[0, 0]))]
    if ctx.cfg["norm"] == "pre":
        paragraphs.append(ctx.t("gpt.resid.pre"))
    equation = [mark(ctx.mat(step.inputs[0], "X", x, tokens, dims(d)), cell=(0, 0)), "+",
                mark(ctx.mat(step.inputs[1], s_sym, s, tokens, dims(d)), cell=(0, 0)), "=",
                mark(ctx.mat(f"{p}.resid", "R", r, tokens, dims(d)), cell=(0, 0))]
    ctx.add(Section(f"{p}.resid", number, ctx.t("resid.title", where=_where(ctx, i)),
                    paragraphs, formula=ctx.formula(f"{p}.resid", out="R", a="X", b=s_sym),
                    equation=equation, steps=[f"{p}.resid"]))


def feed_forward(ctx: Ctx, p: str, number: str, i: int) -> None:
    """H = X W₁ + b₁, max(0, H), then H W₂ + b₂: each position alone."""
    tokens, d, where = _tokens(ctx), _d(ctx), _where(ctx, i)
    f = f"{p}.ffn"
    pre = ctx.tape.index[f"{f}.pre"]
    x, h, a, out = (ctx.value(n) for n in (pre.inputs[0], f"{f}.pre", f"{f}.act", f"{f}.out"))
    w = h.shape[-1]
    hidden = dims(w, "h")
    ctx.add(Section(f"{f}.pre", number, ctx.t("ffn.title.pre", where=where),
                    [ctx.t("ffn.pre", d=d, w=w)], formula=ctx.formula(f"{f}.pre"),
                    equation=[ctx.mat(pre.inputs[0], "X", x, tokens, dims(d)), r"\cdot",
                              ctx.param(f"{f}.w_1", "W_1", dims(d), hidden), "+",
                              ctx.mat(f"{f}.b_1", "b_1", ctx.value(f"{f}.b_1"), cols=hidden,
                                      kind="vector"),
                              "=", ctx.mat(f"{f}.pre", "H", h, tokens, hidden)],
                    steps=[f"{f}.pre"]))
    ctx.add(Section(f"{f}.act", number, ctx.t("ffn.title.relu", where=where),
                    [ctx.t("ffn.relu", k=int(np.sum(h < 0)), total=h.size), ctx.t("gpt.ffn.relu")],
                    formula=ctx.formula(f"{f}.act"),
                    equation=[ctx.mat(f"{f}.act", r"\max(0, H)", a, tokens, hidden)],
                    steps=[f"{f}.act"]))
    ctx.add(Section(f"{f}.out", number, ctx.t("ffn.title.out", where=where),
                    [ctx.t("ffn.out", d=d, w=w)], formula=ctx.formula(f"{f}.out"),
                    equation=[ctx.mat(f"{f}.act", "H", a, tokens, hidden), r"\cdot",
                              ctx.param(f"{f}.w_2", "W_2", hidden, dims(d)), "+",
                              ctx.mat(f"{f}.b_2", "b_2", ctx.value(f"{f}.b_2"), cols=dims(d),
                                      kind="vector"),
                              "=", ctx.mat(f"{f}.out", r"\mathrm{FFN}", out, tokens, dims(d))],
                    steps=[f"{f}.out"]))


def final_norm(ctx: Ctx) -> None:
    if not ctx.has("decoder.norm.out"):
        return
    tokens, d = _tokens(ctx), _d(ctx)
    last = ctx.tape.index["decoder.norm.out"].inputs[0]
    ctx.add(Section("decoder.norm.out", "10", ctx.t("gpt.final.title"),
                    [ctx.t("gpt.final.p1")], formula=ctx.formula("decoder.norm.out", x="X"),
                    equation=[ctx.mat(last, "X", ctx.value(last), tokens, dims(d)),
                              r"\rightarrow",
                              ctx.mat("decoder.norm.out", "Y", ctx.value("decoder.norm.out"),
                                      tokens, dims(d))],
                    steps=["decoder.norm.out"]))


# --- the prediction: step 13 ------------------------------------------------------------------


def logits(ctx: Ctx) -> None:
    """logits = Y W_out, W_out = Eᵀ when tied (a step of its own on the tape)."""
    step = ctx.tape.index["generator.logits"]
    y_name, d, tokens = step.inputs[0], _d(ctx), _tokens(ctx)
    z, V = ctx.value("generator.logits"), len(ctx.vocab)
    paragraphs = [ctx.t("logits.p1", d=d, V=V, n=len(tokens))]
    w_out = ctx.mat("generator.w", r"W_{out}", ctx.value("generator.w"), dims(d), ctx.vocab)
    equation = [ctx.mat(y_name, "Y", ctx.value(y_name), tokens, dims(d)), r"\cdot", w_out]
    steps = ["generator.logits"]
    if "generator.w" in ctx.tape.index:  # tied: W_out is Eᵀ, computed on the tape
        paragraphs.append(ctx.t("gpt.logits.tied", d=d, V=V, saved=d * V))
        steps.insert(0, "generator.w")
    else:
        paragraphs.append(ctx.t("gpt.logits.untied", d=d, V=V))
    targets = (ctx.meta.get("target") or {}).get("ids") or []
    equation += ["=", mark(ctx.mat("generator.logits", r"\mathrm{logits}", z, tokens, ctx.vocab),
                           keep_cols=[*np.argmax(z, axis=-1), *targets])]
    formula = ctx.formula("generator.logits")
    if "generator.w" in ctx.tape.index:
        formula = ctx.formula("generator.w") + r",\quad " + formula
    ctx.add(Section("generator.logits", "13", ctx.t("logits.title"), paragraphs,
                    formula=formula, equation=equation, steps=steps))


# --- after the backward pass: the tied table -----------------------------------------------------


TIED_FORMULA = (r"\frac{\partial L}{\partial E_{w}} = \sum_{t:\,\mathrm{ids}_t = w} "
                r"\frac{\partial L}{\partial X_{tok,t}} + "
                r"\left(\frac{\partial L}{\partial W_{out}}\right)^\top_{w}")


def tied_gradient(ctx: Ctx) -> None:
    """∂L/∂E as the sum of the lookup's share and the output layer's (∂L/∂W_out)ᵀ, one entry
    worked out with the three numbers read off the tape."""
    if "generator.w" not in ctx.tape.index or ctx.grad("embed.weight") is None:
        return
    tokens, ids = _tokens(ctx), [int(i) for i in np.ravel(ctx.value("ids"))]
    g_e, g_w, g_x = ctx.grad("embed.weight"), ctx.grad("generator.w"), ctx.grad("embed.tok")
    t = next((k for k, i in enumerate(ids) if k and ids.count(i) == 1), 0)  # a word used once
    w, j = ids[t], int(np.argmax(np.abs(g_e[ids[t]])))
    unused = len(ctx.vocab) - len(set(ids))
    paragraphs = [ctx.t("gpt.tied.p1", n=len(tokens)),
                  ctx.t("gpt.tied.p2", word=tokens[t], row=w, col=f"d{j}", a=f3(g_x[t, j]),
                        b=f3(g_w[j, w]), c=f3(g_e[w, j])),
                  ctx.t("gpt.tied.p3", rest=unused)]
    d = _d(ctx)
    equation = [mark(ctx.mat("grad.embed.tok", r"\partial L/\partial\, X_{tok}", g_x, tokens,
                             dims(d)), cell=(t, j)), r"\quad",
                mark(ctx.mat("grad.generator.w.T", r"(\partial L/\partial\, W_{out})^\top",
                             g_w.T, ctx.vocab, dims(d)), cell=(w, j), keep_rows=(w,)),
                r"\Rightarrow",
                mark(ctx.mat("grad.embed.weight.tied", r"\partial L/\partial\, E", g_e, ctx.vocab,
                             dims(d)), cell=(w, j), keep_rows=(w,))]
    ctx.add(Section("grad.embed.weight.tied", "15", ctx.t("gpt.tied.title"), paragraphs,
                    formula=TIED_FORMULA, equation=equation,
                    steps=["embed.tok", "generator.w"], phase="backward"))


# --- the recap ----------------------------------------------------------------------------------


def recap(ctx: Ctx) -> None:
    tokens = _tokens(ctx)
    paragraphs = [ctx.t("gpt.recap.computed", steps=len(ctx.tape.steps), n=len(tokens),
                        V=len(ctx.vocab))]
    p = ctx.value("generator.probs")
    target = [int(i) for i in (ctx.meta.get("target") or {}).get("ids") or []]
    picked = [int(i) for i in np.argmax(p, axis=-1)]
    if len(target) == len(picked):
        right = sum(a == b for a, b in zip(picked, target, strict=True))
        paragraphs.append(ctx.t("recap.prediction", words=" ".join(ctx.vocab[i] for i in picked),
                                k=right, n=len(picked), tok=tokens[0],
                                word=ctx.vocab[picked[0]], p=f3(p[0, picked[0]]),
                                want=ctx.vocab[target[0]], pw=f3(p[0, target[0]])))
    update = ctx.meta.get("update") or {}
    if "loss" in ctx.tape.index and "loss_after" in update:
        before = float(np.asarray(ctx.tape.index["loss"].value).reshape(-1)[0])
        paragraphs.append(ctx.t("recap.loss", before=f3(before), after=f3(update["loss_after"]),
                                lr=f"{update['lr']:g}"))
    paragraphs.append(ctx.t("gpt.recap.lesson"))
    ctx.add(Section("recap", "", ctx.t("recap.title"), paragraphs, phase="recap",
                    level="overview"), numbered=False)
