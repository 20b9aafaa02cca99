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
from ...narrate.context import Ctx
from ...narrate.document import Architecture, Block, Section
from ...narrate.intro import vocabulary
from ...narrate.numbers import dims, f3, mark, row_text
from ...narrate.overview import loss_lines, with_flow
from ...narrate.predict import predicted_words, probabilities
from ...narrate.recap_table import before_after
from .generation_story import narrators as generation_narrators
from .stack import d_model, final_norm, input_tokens, layer, logits, tied_gradient


def story(tape) -> list:
    """Overview → text → input → every layer → final norm → prediction; after a backward pass
    the loss, every gradient, the tied table's two uses and the updates; the recap."""
    layers = int(tape.meta["config"]["layers"])
    words = [vocabulary]
    if "bpe" in tape.meta:  # byte-level BPE: its bytes, merges and vocabulary, the text split
        from .bpe_story import narrators as bpe_narrators

        words = bpe_narrators()
    told = [overview, text, *words, encoding, embedding, positions, model_input,
            *(functools.partial(layer, i=i) for i in range(layers)), final_norm,
            logits, probabilities, predicted_words, beside_trained]
    told += generation_narrators(tape)  # walk --generate N (generation_story.py)
    after = []
    if tape.grads:
        from ...narrate.backward import backward, updates
        from ...narrate.predict import loss

        after = [loss, backward, tied_gradient, updates]
    return told + after + [recap]


def beside_trained(ctx: Ctx) -> None:
    """walk --beside-trained (the copy trained on the lines) or a checkpoint's walk (its model
    before training), beside the walk's weights, in the decoder-only model's words (lines, not
    sentence pairs; a text, not a translation)."""
    from ...narrate.beside import beside

    beside(ctx, trained_key="gpt.beside.trained", seen_key="gpt.beside.seen",
           pattern_key="gpt.beside.pattern", untrained_key="gpt.beside.untrained")


# --- the overview and the text ---------------------------------------------------------------


def overview(ctx: Ctx) -> None:
    c, tokens = ctx.cfg, input_tokens(ctx)
    paragraphs = [ctx.t("overview.credit"),
                  ctx.t("gpt.overview.p1", layers=c["layers"], d=c["d_model"], h=c["heads"],
                        dk=c["d_k"], dff=c["d_ff"], V=len(ctx.vocab)),
                  ctx.t("gpt.overview.p2", text=" ".join(tokens[1:]), n=len(tokens)),
                  ctx.t("gpt.changed.memory"), ctx.t("gpt.changed.stack"),
                  ctx.t("gpt.changed.mask"),
                  ctx.t("gpt.changed.pre" if c["norm"] == "pre" else "gpt.changed.post"),
                  ctx.t("gpt.changed.tied" if c["tie_embeddings"] else "gpt.changed.untied"),
                  *modern_parts(ctx), ctx.t("gpt.changed.steps"), ctx.t("overview.map")]
    ctx.add(Section("overview", "", ctx.t("gpt.overview.title"), paragraphs, phase="text",
                    level="overview", architecture=architecture(ctx)))


def modern_parts(ctx: Ctx) -> list[str]:
    """What the parts of today's LLMs change in this run, one sentence each (none by default)."""
    c, said = ctx.cfg, []
    if c.get("pos") == "rope":
        said.append(ctx.t("gpt.changed.rope"))
    if c.get("norm_kind") == "rms":
        said.append(ctx.t("gpt.changed.rms"))
    if c.get("ffn") == "swiglu":
        said.append(ctx.t("gpt.changed.swiglu", dff=c["d_ff"]))
    kv = c.get("kv_heads")
    if kv and int(kv) != int(c["heads"]):
        said.append(ctx.t("gpt.changed.gqa", h=c["heads"], kv=kv))
    return said


def architecture(ctx: Ctx) -> Architecture:
    c, n = ctx.cfg, len(input_tokens(ctx))
    d, dff = int(c["d_model"]), int(c["d_ff"])
    kv = int(c.get("kv_heads") or c["heads"])
    heads = ctx.t("arch.heads", h=c["heads"], dk=c["d_k"]) if kv == int(c["heads"]) else \
        ctx.t("gpt.arch.heads.kv", h=c["heads"], kv=kv, dk=c["d_k"])
    attn = ("self_attn", ctx.t("arch.masked_attn"), "attention", heads)
    ffn = ("ffn", ctx.t("arch.ffn.label"), "ffn",
           ctx.t("gpt.arch.swiglu", d=d, dff=dff) if c.get("ffn") == "swiglu" else
           ctx.t("arch.ffn", d=d, dff=dff))
    rms = c.get("norm_kind") == "rms"
    norms = [(f"ln{k}", ctx.t("gpt.arch.rms", k=k) if rms else ctx.t("gpt.arch.norm", k=k)
              if c["norm"] == "pre" else ctx.t("place.norm", k=k), "norm", "") for k in (1, 2)]
    parts = [norms[0], attn, norms[1], ffn] if c["norm"] == "pre" else \
        [attn, norms[0], ffn, norms[1]]
    layers = [Block(f"decoder.{i}", ctx.t("arch.layer", i=i + 1), "stack",
                    children=[Block(f"decoder.{i}.{leaf}", label, kind, detail=detail)
                              for leaf, label, kind, detail in parts])
              for i in range(int(c["layers"]))]
    if ctx.has("decoder.norm.out"):
        layers.append(Block("decoder.norm", ctx.t("gpt.arch.final_rms" if rms else
                                                  "arch.final_norm"), "norm"))
    blocks = [Block("embed", ctx.t("gpt.arch.embed.rope" if c.get("pos") == "rope" else
                                   "gpt.arch.embed"), "embed",
                    detail=ctx.t("arch.shape", n=n, d=d)),
              Block("decoder", ctx.t("gpt.arch.stack", n=c["layers"]), "stack",
                    children=layers),
              Block("generator", ctx.t("gpt.arch.generator" if c["tie_embeddings"] else
                                       "arch.generator"), "linear",
                    detail=ctx.t("arch.shape", n=n, d=len(ctx.vocab))),
              Block("prediction", ctx.t("arch.prediction"), "output")]
    sizes = {k: int(c[k]) for k in ("d_model", "heads", "d_k", "d_v", "d_ff", "layers")}
    return with_flow(ctx, Architecture(blocks, sizes))


def text(ctx: Ctx) -> None:
    data = [str(s) for s in ctx.meta.get("dataset") or []]
    prompt = list((ctx.meta.get("prompt") or {}).get("tokens") or [])
    words = input_tokens(ctx)[1:]
    paragraphs = [ctx.t("gpt.text.p1", count=len(data)), *(f"  {i + 1}. {s}"
                                                          for i, s in enumerate(data[:30]))]
    paragraphs.append(ctx.t("gpt.text.p2", prompt=" ".join(prompt),
                            rest=" ".join(words[len(prompt):])))
    trained = ctx.meta.get("trained")
    if trained:
        loss = trained.get("loss")
        paragraphs.append(ctx.t("gpt.text.trained", path=trained["checkpoint"],
                                steps=trained["epochs"],
                                loss="?" if loss is None else f"{loss:.3f}"))
    ctx.add(Section("dataset", "1", ctx.t("gpt.text.title"), paragraphs, phase="text"))


def encoding(ctx: Ctx) -> None:
    inp, target = input_tokens(ctx), ctx.tokens("target")
    ids, target_ids = ctx.value("ids"), (ctx.meta.get("target") or {}).get("ids") or []
    rows = np.array([np.ravel(ids), target_ids], dtype=np.int64) \
        if len(target_ids) == np.size(ids) else np.reshape(ids, (1, -1))
    pairs = [f"{t}→{i}" for i, t in enumerate(ctx.vocab[:30])]
    order = "gpt.bpe.encoding" if "bpe" in ctx.meta else "encoding.p1"  # ids by code point
    paragraphs = [ctx.t(order), "  " + ", ".join(pairs),
                  ctx.t("gpt.ids.p1", n=len(inp)),
                  ctx.t("gpt.ids.p2", first=inp[0], want=target[0] if target else "?",
                        tok=inp[-1], last=len(inp) - 1, end=target[-1] if target else "?")]
    table = ctx.mat("ids", r"\mathrm{ids}", rows, [ctx.t("ids.input"), ctx.t("ids.target")],
                    inp)
    ctx.add(Section("ids", "3", ctx.t("gpt.ids.title"), paragraphs,
                    formula=rf"\text{{{ctx.t('ids.input')}}} = \langle\mathrm{{start}}\rangle\, "
                            rf"w_1 \dots w_n,\quad \text{{{ctx.t('ids.target')}}} = w_1 \dots w_n\, "
                            r"\langle\mathrm{end}\rangle",
                    equation=[table], steps=["ids"], phase="text"))


# --- the input: steps 4–6 --------------------------------------------------------------------


def embedding(ctx: Ctx) -> None:
    if not ctx.has("embed.tok"):  # rotary positions: the lookup is the whole input
        embedding_alone(ctx)
        return
    d, tokens, x = d_model(ctx), input_tokens(ctx), ctx.value("embed.tok")
    paragraphs = [ctx.t("embed.p1.src", d=d, shape=f"{len(ctx.vocab)}×{d}"),
                  ctx.t(_embed_p2(ctx), tok=tokens[1] if len(tokens) > 1 else tokens[0],
                        row=row_text(x[1] if len(tokens) > 1 else x[0])),
                  ctx.t("gpt.embed.tied" if ctx.cfg["tie_embeddings"] else "gpt.embed.untied")]
    ctx.add(Section("embed.tok", "4", ctx.t("embed.title.src"), paragraphs,
                    formula=ctx.formula("embed.tok"),
                    equation=[mark(ctx.mat("embed.tok", sub("X", "tok"), x, tokens, dims(d)),
                                   rows=(min(1, len(tokens) - 1),))],
                    steps=["embed.tok"]))


def _embed_p2(ctx: Ctx) -> str:
    """The embedding's row: numbers that start random, or (a checkpoint) were learned."""
    return "embed.p2.trained" if ctx.meta.get("trained") else "embed.p2"


def embedding_alone(ctx: Ctx) -> None:
    """X = E[ids], nothing added: with RoPE the positions turn q and k inside attention."""
    d, tokens, x = d_model(ctx), input_tokens(ctx), ctx.value("embed.out")
    row = min(1, len(tokens) - 1)
    paragraphs = [ctx.t("embed.p1.src", d=d, shape=f"{len(ctx.vocab)}×{d}"),
                  ctx.t(_embed_p2(ctx), tok=tokens[row], row=row_text(x[row])),
                  ctx.t("gpt.embed.rope"),
                  ctx.t("gpt.embed.tied" if ctx.cfg["tie_embeddings"] else "gpt.embed.untied")]
    ctx.add(Section("embed.out", "4", ctx.t("gpt.embed.rope.title"), paragraphs,
                    formula=ctx.formula("embed.out"),
                    equation=[mark(ctx.mat("embed.out", "X", x, tokens, dims(d)), rows=(row,))],
                    steps=["embed.out"]))


def positions(ctx: Ctx) -> None:
    if not ctx.has("embed.pos"):
        return
    d, tokens, pe = d_model(ctx), input_tokens(ctx), ctx.value("embed.pos")
    paragraphs = [ctx.t("pos.p1"), ctx.t("pos.p2", tok=tokens[0]), ctx.t("gpt.pos.why")]
    ctx.add(Section("embed.pos", "5", ctx.t("pos.title"), paragraphs,
                    formula=ctx.formula("embed.pos"),
                    equation=[ctx.mat("embed.pos", "PE", pe, tokens, dims(d), kind="positional")],
                    steps=["embed.pos"]))


def model_input(ctx: Ctx) -> None:
    if not ctx.has("embed.pos"):
        return
    d, tokens = d_model(ctx), input_tokens(ctx)
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


def recap(ctx: Ctx) -> None:
    tokens = input_tokens(ctx)
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
    paragraphs += loss_lines(ctx)  # before and after the update, beside guessing (ln V)
    table_text, table = before_after(ctx)
    paragraphs += table_text
    paragraphs.append(ctx.t("gpt.recap.lesson"))
    ctx.add(Section("recap", "", ctx.t("recap.title"), paragraphs, equation=table,
                    phase="recap", level="overview"))
