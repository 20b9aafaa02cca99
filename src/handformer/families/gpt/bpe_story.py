"""The byte-level BPE panels of the decoder-only walk (``--tokenizer bpe``): the corpus as bytes,
each merge with the pair counts before it, the vocabulary, and the text segmented.

Everything is read off ``tape.meta["bpe"]`` (families/gpt/run.py wrote it with handformer.bpe);
nothing is counted here.
"""

from __future__ import annotations

import numpy as np

from ...narrate.context import Ctx
from ...narrate.document import Section
from ...narrate.intro import LIST_LIMIT, specials
from ...narrate.numbers import mark

MERGE_PANELS = 8  # merges told one panel each; with more, one table holds them all
STEP_LINES = 24  # segmentation steps listed one by one


def narrators() -> list:
    return [corpus_bytes, merges, vocabulary, segmented]


def _told(ctx: Ctx) -> dict:
    return ctx.meta["bpe"]


def _ids(ctx: Ctx) -> dict[str, int]:
    return {t: i for i, t in enumerate(ctx.vocab)}


def corpus_bytes(ctx: Ctx) -> None:
    told, data = _told(ctx), ctx.meta.get("dataset") or []
    words = told["words"]
    example = told["example"]
    k = len(example["bytes"])
    wide = {"k": k, "char": example["char"], "symbols": " ".join(example["symbols"]),
            "hex": " ".join(f"{b:02x}" for b in example["bytes"])}
    present = any(example["char"] in line for line in data)
    paragraphs = [ctx.t("gpt.bpe.bytes.split", lines=len(data), distinct=len(words),
                        total=sum(int(n) for _, n, _ in words)),
                  ctx.t("gpt.bpe.bytes.rule"),
                  ctx.t("gpt.bpe.bytes.wide" if present else "gpt.bpe.bytes.wide_absent",
                        **wide),
                  ctx.t("gpt.bpe.bytes.words")]
    paragraphs += [f"  “{w}” ×{n}: {' '.join(mapped)}" for w, n, mapped in words[:LIST_LIMIT]]
    if len(words) > LIST_LIMIT:
        paragraphs.append(ctx.t("dataset.more", more=len(words) - LIST_LIMIT))
    paragraphs.append(ctx.t("gpt.bpe.bytes.alphabet", n=len(told["alphabet"]),
                            alphabet=" ".join(told["alphabet"])))
    table = ctx.mat("bpe.example", "b", np.array([example["bytes"]]).T, list(example["symbols"]),
                    [example["char"]])
    table.scale = "ids"
    ctx.add(Section("bpe.bytes", "1", ctx.t("gpt.bpe.bytes.title"), paragraphs,
                    equation=[table], phase="text"))


def merges(ctx: Ctx) -> None:
    told = _told(ctx)
    steps = told["merges"]
    for k, step in enumerate(steps[:MERGE_PANELS], start=1):
        _merge_panel(ctx, k, step, len(steps))
    if len(steps) > MERGE_PANELS:
        _merge_table(ctx, steps)
    elif len(steps) < int(told["asked"]):
        ctx.sections[-1].paragraphs.append(
            ctx.t("gpt.bpe.stopped", done=len(steps), asked=told["asked"]))


def _merge_panel(ctx: Ctx, k: int, step: dict, n: int) -> None:
    ids, (a, b), count = _ids(ctx), step["pair"], int(step["count"])
    top = step["top"]
    paragraphs = [ctx.t("gpt.bpe.merge.how"),
                  ctx.t("gpt.bpe.merge.chosen", k=k, a=a, b=b, count=count,
                        token=step["token"], id=ids.get(step["token"], "?"))]
    if step.get("reads"):
        paragraphs.append(ctx.t("gpt.bpe.merge.reads", token=step["token"], text=step["reads"],
                                k=len(step["token"])))
    if int(step["ties"]) and len(top) > 1:
        c, d = top[1][0], top[1][1]
        paragraphs.append(ctx.t("gpt.bpe.merge.tie", others=step["ties"], count=count, a=a,
                                b=b, ida=ids.get(a, "?"), idb=ids.get(b, "?"), c=c, d=d,
                                idc=ids.get(c, "?"), idd=ids.get(d, "?")))
    counts = ctx.mat(f"bpe.merge.{k}", "c", np.array([[int(t[2])] for t in top]),
                     [f"{t[0]} {t[1]}" for t in top], [ctx.t("gpt.bpe.col.count")])
    counts.scale = "ids"
    ctx.add(Section(f"bpe.merge.{k}", "2",
                    ctx.t("gpt.bpe.merge.title", k=k, n=n, a=a, b=b, token=step["token"]),
                    paragraphs, formula=r"c(a, b) = \sum_{w} f(w)\, n_{w}(a, b)",
                    equation=[mark(counts, cell=(0, 0))], phase="text"))


def _merge_table(ctx: Ctx, steps: list[dict]) -> None:
    told = _told(ctx)
    rows = [f"{k}. {s['pair'][0]} + {s['pair'][1]} → {s['token']}"
            for k, s in enumerate(steps, start=1)]
    value = np.array([[int(s["count"]), int(s["top"][1][2]) if len(s["top"]) > 1 else 0,
                       int(s["ties"])] for s in steps])
    table = ctx.mat("bpe.merges", "c", value, rows,
                    [ctx.t("gpt.bpe.col.count"), ctx.t("gpt.bpe.col.next"),
                     ctx.t("gpt.bpe.col.ties")])
    table.scale = "ids"
    paragraphs = [ctx.t("gpt.bpe.table.p1", shown=MERGE_PANELS, n=len(steps))]
    if len(steps) < int(told["asked"]):
        paragraphs.append(ctx.t("gpt.bpe.stopped", done=len(steps), asked=told["asked"]))
    ctx.add(Section("bpe.merges", "2", ctx.t("gpt.bpe.table.title", n=len(steps)), paragraphs,
                    equation=[table], phase="text"))


def vocabulary(ctx: Ctx) -> None:
    told, marks = _told(ctx), specials(ctx.vocab)
    alphabet = len(told["alphabet"])
    made = ctx.vocab[alphabet:len(ctx.vocab) - len(marks)]
    paragraphs = [ctx.t("gpt.bpe.vocab.p1", bytes=alphabet, merged=len(made), k=len(marks),
                        specials=", ".join(marks), V=len(ctx.vocab)),
                  ctx.t("gpt.bpe.vocab.made", tokens=", ".join(
                      f"{t}→{alphabet + i}" for i, t in enumerate(made[:LIST_LIMIT]))
                      + (" …" if len(made) > LIST_LIMIT else ""))]
    ctx.add(Section("vocabulary", "2", ctx.t("gpt.bpe.vocab.title"), paragraphs,
                    formula=rf"V = {alphabet} + {len(made)} + {len(marks)} = {len(ctx.vocab)}",
                    phase="text"))


def segmented(ctx: Ctx) -> None:
    text = _told(ctx)["text"]
    steps, tokens = text["steps"], text["tokens"]
    paragraphs = [ctx.t("gpt.bpe.text.pieces", n=len(text["pieces"]),
                        pieces=" · ".join(f"“{p}”" for p in text["pieces"]),
                        m=len(text["symbols"]), symbols=" ".join(text["symbols"])),
                  ctx.t("gpt.bpe.text.how")]
    paragraphs += [ctx.t("gpt.bpe.text.step", rank=s["rank"], a=s["pair"][0], b=s["pair"][1],
                         token=s["token"], tokens=" ".join(s["tokens"]))
                   for s in steps[:STEP_LINES]]
    if len(steps) > STEP_LINES:
        paragraphs.append(ctx.t("gpt.bpe.text.more", more=len(steps) - STEP_LINES))
    if not steps:
        paragraphs.append(ctx.t("gpt.bpe.text.none"))
    paragraphs.append(ctx.t("gpt.bpe.text.done", n=len(tokens), m=len(text["symbols"])))
    ids = _ids(ctx)
    table = ctx.mat("bpe.text", r"\mathrm{ids}", np.array([[ids.get(t, -1)] for t in tokens]),
                    list(tokens), ["id"])
    table.scale = "ids"
    ctx.add(Section("bpe.text", "3", ctx.t("gpt.bpe.text.title"), paragraphs,
                    equation=[table], phase="text"))
