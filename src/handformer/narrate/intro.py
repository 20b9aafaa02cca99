"""Steps 1–6: dataset, vocabulary, encoding, embedding, positional encoding, the input X."""

from __future__ import annotations

import math

import numpy as np

from ..engine.formula import prime, sub
from ..text import tokenize
from .context import Ctx
from .document import Section
from .numbers import dims, f3, mark, row_text

LIST_LIMIT = 30  # words listed one by one in the encoding step; the rest are counted


def specials(vocab: list[str]) -> list[str]:
    return [t for t in vocab if t.startswith("<") and t.endswith(">")]


def dataset(ctx: Ctx) -> None:
    data = [str(s) for s in ctx.meta.get("dataset") or []]
    tokenizer = ctx.meta.get("tokenizer", "tutorial")
    words = sum(len(tokenize(s, tokenizer)) for s in data)
    paragraphs = [ctx.t("dataset.p1", count=len(data))]
    paragraphs += [f"  {i + 1}. {s}" for i, s in enumerate(data[:LIST_LIMIT])]
    if len(data) > LIST_LIMIT:
        paragraphs.append(ctx.t("dataset.more", more=len(data) - LIST_LIMIT))
    if ctx.meta.get("dataset_licence"):  # e.g. the HSK pairs: CC-BY-SA asks for the credit
        paragraphs.append(ctx.t("dataset.licence", **ctx.meta["dataset_licence"]))
    spaced = sum(len(s.split()) for s in data)
    paragraphs.append(ctx.t("dataset.p2" if tokenizer == "tutorial" else "dataset.p2.tokens",
                            words=words, tokenizer=tokenizer, spaced=spaced,
                            per=f"{spaced / max(words, 1):.2f}",
                            src=" ".join(ctx.tokens("src")),
                            tgt=" ".join(ctx.tokens("target")[:-1])))
    ctx.add(Section("dataset", "1", ctx.t("dataset.title"), paragraphs, phase="text"))


def vocabulary(ctx: Ctx) -> None:
    extra = specials(ctx.vocab)
    n_words, d = len(ctx.vocab) - len(extra), int(ctx.cfg.get("d_model", 0))
    rule = 8.33 * math.log(n_words) if n_words > 1 else 0.0
    paragraphs = [] if ctx.src_vocab is ctx.vocab else [
        ctx.t("vocab.sides_p", src=len(ctx.src_vocab), tgt=len(ctx.vocab))]
    paragraphs += [ctx.t("vocab.p1", N=n_words),
                   ctx.t("vocab.p2", V=len(ctx.vocab), specials=", ".join(extra), k=len(extra)),
                   ctx.t("vocab.rule", N=n_words, rule=f"{rule:.1f}", d=d)]
    callouts = []
    if d and d <= rule:
        callouts.append(ctx.callout("D18", "D18", N=n_words, rule=f"{rule:.1f}", d=d,
                                    rule10=f"{8.33 * math.log10(n_words):.1f}"))
    else:
        paragraphs.append(ctx.t("vocab.rule_ok", d=d))
    ctx.add(Section("vocabulary", "2", ctx.t("vocab.title"), paragraphs,
                    formula=rf"N = \left|\text{{{ctx.t('vocab.distinct')}}}\right| = {n_words}",
                    callouts=callouts, phase="text"))


def encoding(ctx: Ctx) -> None:
    source = ctx.vocab_of("src")  # the source's ids: its own vocabulary when it has one
    pairs = [f"{t}→{i}" for i, t in enumerate(source[:LIST_LIMIT])]
    if len(source) > LIST_LIMIT:
        pairs.append(ctx.t("encoding.more", more=len(source) - LIST_LIMIT))
    src = ctx.tokens("src")
    ids = ctx.value("src.ids")
    paragraphs = [ctx.t("encoding.p1"), "  " + ", ".join(pairs),
                  ctx.t("encoding.p2", src=" ".join(src), n=len(src))]
    table = ctx.mat("src.ids", r"\mathrm{ids}", None if ids is None else np.reshape(ids, (1, -1)),
                    rows=["id"], cols=src)
    ctx.add(Section("encoding", "3", ctx.t("encoding.title"), paragraphs,
                    formula=r"\mathrm{word} \mapsto \mathrm{id}", equation=[table],
                    steps=["src.ids"], phase="text"))


# The encoder's (src) and the decoder's (tgt) input are told in their own sentences.
SIDE_KEYS = {"src": {"embed": "embed.p1.src", "embed.title": "embed.title.src",
                     "input": "input.p1.src"},
             "tgt": {"embed": "embed.p1.tgt", "embed.title": "embed.title.tgt",
                     "input": "input.p1.tgt"}}


def embedding(ctx: Ctx, p: str, number: str) -> None:
    """Token embedding (step 4 for the encoder, 11 for the decoder), then its √d scaling."""
    side, d = ctx.side_of(p), int(ctx.cfg.get("d_model", 0))
    tokens, x = ctx.tokens(side), ctx.value(f"{p}.tok")
    table = ctx.value(f"{p}.weight")
    rows = len(ctx.vocab_of(side))
    shape = f"{rows}×{d}"
    paragraphs = [ctx.t(SIDE_KEYS[side]["embed"], V=rows, d=d, shape=shape),
                  ctx.t("embed.p2.trained" if ctx.meta.get("trained") else "embed.p2",
                        tok=tokens[0], row=row_text(x[0]))]
    if side == "src":
        paragraphs.append(ctx.t("embed.p3", d=d))
    callouts = []
    if ctx.cfg.get("init") == "uniform" and not ctx.meta.get("trained") \
            and ctx.first("D14.embed"):  # trained weights no longer lie in [0, 1)
        callouts.append(ctx.callout("D14", "D14.embed",
                                    lo=f3(table.min()) if table is not None else "0",
                                    hi=f3(table.max()) if table is not None else "1"))
    sym = "X" if side == "src" else "Y"
    ctx.add(Section(f"{p}.tok", number, ctx.t(SIDE_KEYS[side]["embed.title"]), paragraphs,
                    formula=ctx.formula(f"{p}.tok"),
                    equation=[mark(ctx.mat(f"{p}.tok", sym + "_{tok}", x, tokens, dims(d)),
                                   rows=(0,))],
                    callouts=callouts, steps=[f"{p}.tok"]))
    if f"{p}.scaled" in ctx.tape.index:
        scaled = ctx.value(f"{p}.scaled")
        ctx.add(Section(f"{p}.scaled", number, ctx.t("scale.title"),
                        [ctx.t("scale.p1", d=d, root=f"{math.sqrt(d):.3f}")],
                        formula=ctx.formula(f"{p}.scaled"),
                        equation=[ctx.mat(f"{p}.scaled", prime(sub(sym, "tok")), scaled, tokens,
                                          dims(d))], steps=[f"{p}.scaled"]))


def positional(ctx: Ctx, p: str, number: str) -> None:
    side, d = ctx.side_of(p), int(ctx.cfg.get("d_model", 0))
    tokens, pe = ctx.tokens(side), ctx.value(f"{p}.pos")
    paragraphs = [ctx.t("pos.p1"), ctx.t("why.sines"), ctx.t("pos.p2", tok=tokens[0])] \
        if side == "src" else [ctx.t("pos.tgt", n=len(tokens))]
    callouts = []
    tutorial = ctx.tutorial(f"{p}.pos", "D6")
    if side == "src" and tutorial is not None and pe.shape[0] > 1 and d > 1:
        callouts.append(ctx.callout(
            "D6", "D6", ours=f3(pe[1, 1]), theirs=f3(tutorial[1, 1]), tok=tokens[1],
            tutorial=ctx.mat(f"{p}.pos.tutorial", "PE_{tutorial}", tutorial, tokens, dims(d),
                             note=ctx.t("note.tutorial"))))
    title = "pos.title" if side == "src" else "pos.title.tgt"
    ctx.add(Section(f"{p}.pos", number, ctx.t(title), paragraphs,
                    formula=ctx.formula(f"{p}.pos"),
                    equation=[ctx.mat(f"{p}.pos", "PE", pe, tokens, dims(d), kind="positional")],
                    callouts=callouts, steps=[f"{p}.pos"]))


def model_input(ctx: Ctx, p: str, number: str) -> None:
    side, d = ctx.side_of(p), int(ctx.cfg.get("d_model", 0))
    tokens = ctx.tokens(side)
    step = ctx.tape.index[f"{p}.out"]
    a, pe, x = ctx.value(step.inputs[0]), ctx.value(f"{p}.pos"), ctx.value(f"{p}.out")
    sym = "X" if side == "src" else "Y"
    a_sym = ctx.tape.index[step.inputs[0]].symbols.get("out", sym + "_{tok}")
    paragraphs = [ctx.t(SIDE_KEYS[side]["input"], n=len(tokens), d=d),
                  ctx.t("input.p2", tok=tokens[0], a=f3(a[0, 0]), b=f3(pe[0, 0]), c=f3(x[0, 0]))]
    equation = [mark(ctx.mat(step.inputs[0], a_sym, a, tokens, dims(d)), cell=(0, 0)), "+",
                mark(ctx.mat(f"{p}.pos", "PE", pe, tokens, dims(d), kind="positional"),
                     cell=(0, 0)), "=",
                mark(ctx.mat(f"{p}.out", sym, x, tokens, dims(d)), cell=(0, 0))]
    title = "input.title" if side == "src" else "input.title.tgt"
    ctx.add(Section(f"{p}.out", number, ctx.t(title), paragraphs,
                    formula=ctx.formula(f"{p}.out"), equation=equation, steps=[f"{p}.out"]))
