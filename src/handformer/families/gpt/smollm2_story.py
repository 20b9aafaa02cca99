"""The walkthrough of a pretrained SmolLM2-135M walk (tape.meta["pretrained"]): its tokens by
the model's own merges, the embedding rows, the blocks shown in full (the gpt family's own
layer narrators, stack.py), the others as one line each (the logit lens the walk recorded),
the final RMSNorm, the next-token distribution, and the 4-bit weights dequantized by hand.
Numbers are read off the tape and its meta; nothing is computed here."""

from __future__ import annotations

import functools

import numpy as np

from ...bpe import text_of
from ...narrate.context import Ctx
from ...narrate.document import Block, Section
from ...narrate.numbers import f3
from .stack import final_norm, input_tokens, layer
from .story import architecture, embedding_alone, modern_parts

TOP = 10  # next tokens listed
SHOWN_MERGES = 40  # merges listed before "…"


def story(tape) -> list:
    layers = int(tape.meta["config"]["layers"])
    shown = set(tape.meta.get("blocks_shown") or [0])
    told = [overview, tokens, embedding_alone]
    for i in range(layers):
        if i in shown:
            told.append(functools.partial(layer, i=i))
        elif i == 0 or i - 1 in shown:  # the first of a run of elided blocks tells the run
            end = next((j for j in range(i, layers) if j in shown), layers)
            told.append(functools.partial(elided, first=i, last=end - 1))
    return [*told, final_norm, next_token, *generation(tape), quantized, recap]


def generation(tape) -> list:
    """With --generate: the cache, each token's sampling and the check (generation_story.py);
    the per-block steps of each new token are computed, not shown."""
    from . import generation_story as g

    told = tape.meta.get("generate")
    if not told:
        return []
    out = [g.cache_filled]
    for t in range(len(told["steps"])):
        out += [functools.partial(f, t=t) for f in (g.scaled, g.cut, g.drawn)]
    return [*out, g.check, g.written]


def _model(ctx: Ctx) -> dict:
    return ctx.meta["pretrained"]


def overview(ctx: Ctx) -> None:
    c, info = ctx.cfg, _model(ctx)
    shown = sorted(ctx.meta.get("blocks_shown") or [0])
    paragraphs = [ctx.t("smol.overview.p1", layers=c["layers"], d=c["d_model"], h=c["heads"],
                        kv=c["kv_heads"], dk=c["d_k"], dff=c["d_ff"], V=len(ctx.vocab),
                        base=f"{float(c['rope_base']):,.0f}", eps=c["ln_eps"]),
                  ctx.t("smol.overview.quant", file=info["file"], dtype=info["dtype"]),
                  ctx.t("smol.overview.text", text=info["text"], n=len(input_tokens(ctx))),
                  *modern_parts(ctx), ctx.t("smol.overview.blocks", shown=_which(ctx, shown),
                                            layers=c["layers"])]
    ctx.add(Section("overview", "", ctx.t("smol.overview.title"), paragraphs, phase="text",
                    level="overview", architecture=_elided_map(ctx, architecture(ctx), shown)))


def _which(ctx: Ctx, shown: list[int]) -> str:
    """"block 0 (decoder layer 1)": the option's numbers from 0 beside the map's from 1."""
    if len(shown) == 1:
        return ctx.t("smol.overview.block", b=shown[0], l=shown[0] + 1)
    return ctx.t("smol.overview.block.many", bs=", ".join(str(b) for b in shown),
                 ls=", ".join(str(b + 1) for b in shown))


def _elided_map(ctx: Ctx, arch, shown: list[int]):
    """The map's layers as the page tells them: the blocks shown in full, and each run of
    elided blocks as one box that leads to its one-line-per-block step."""
    stack = next(b for b in arch.blocks if b.id == "decoder")
    kept, run = [], []
    for child in stack.children:
        i = child.id.split(".")[1]
        if i.isdigit() and int(i) not in shown:
            run.append(int(i))
            continue
        kept += _run_box(ctx, run)
        run = []
        kept.append(child)
    stack.children = [*kept, *_run_box(ctx, run)]
    return arch


def _run_box(ctx: Ctx, run: list[int]) -> list[Block]:
    if not run:
        return []
    first, last = run[0], run[-1]
    run_id = f"decoder.{first}-{last}"  # a layer of one box, where the maps draw layers
    return [Block(run_id, ctx.t("smol.arch.elided", a=first + 1, b=last + 1), "stack",
                  children=[Block(f"{run_id}.elided", ctx.t("smol.arch.elided.detail"),
                                  "linear")])]


def tokens(ctx: Ctx) -> None:
    """The text cut by GPT-2's split, its bytes as symbols, the merges that fire, the ids."""
    told = ctx.meta["gguf_bpe"]
    steps = told["steps"]
    merges = [f"  {k + 1}. {s['pair'][0]} + {s['pair'][1]} → {s['token']}  "
              + ctx.t("smol.tokens.rank", rank=s["rank"]) for k, s in enumerate(steps)]
    if len(merges) > SHOWN_MERGES:
        merges = [*merges[:SHOWN_MERGES], f"  … (+{len(merges) - SHOWN_MERGES})"]
    ids = np.reshape(ctx.value("ids"), (1, -1))
    paragraphs = [ctx.t("smol.tokens.p1", pieces=" | ".join(told["pieces"]),
                        symbols=len(told["symbols"])),
                  ctx.t("smol.tokens.p2", k=len(steps), merges=f"{_model(ctx)['merges']:,}"),
                  *merges,
                  ctx.t("smol.tokens.p3", n=ids.shape[1], V=len(ctx.vocab))]
    table = ctx.mat("ids", r"\mathrm{ids}", ids, [ctx.t("ids.input")], input_tokens(ctx))
    ctx.add(Section("ids", "3", ctx.t("smol.tokens.title"), paragraphs, equation=[table],
                    steps=["ids"], phase="text"))


def elided(ctx: Ctx, first: int, last: int) -> None:
    """Blocks first … last in one panel: per block the residual stream's norm at the last
    token and the logit lens's top guess there."""
    lens = ctx.meta["lens"]
    word = input_tokens(ctx)[-1]
    lines = [ctx.t("smol.elided.line", block=b["block"], norm=f"{b['norm']:.1f}",
                   guess=b["top"][0][0], p=f3(b["top"][0][1]))
             for b in lens[first:last + 1]]
    paragraphs = [ctx.t("smol.elided.p1", first=first, last=last, word=word), *lines,
                  ctx.t("smol.elided.p2", last=last)]
    ctx.add(Section(f"decoder.{first}-{last}.elided", "10", ctx.t("smol.elided.title",
                                                                  first=first, last=last,
                                                                  a=first + 1, b=last + 1),
                    paragraphs, steps=[f"decoder.{b}.out" for b in range(first, last + 1)]))


def _likely_line(ctx: Ctx, rank: int, token: str, i: int, z: float, p: float) -> str:
    """One of the ten likeliest: the token as the vocabulary stores it (bytes as GPT-2's
    symbols, Ġ for a space) and, where that reads otherwise, the text it writes (âĢĻ → ’)."""
    text = text_of([token])
    if text == token or not text.strip() or text.strip() == token.lstrip("Ġ"):
        return ctx.t("smol.next.line", rank=rank, word=token, id=i, z=f3(z), p=f3(p))
    return ctx.t("smol.next.line.text", rank=rank, word=token, id=i, text=text, z=f3(z), p=f3(p))


def next_token(ctx: Ctx) -> None:
    """The last position's logits (Y Eᵀ, the tied table) and its ten likeliest tokens."""
    p, z = ctx.value("generator.probs")[-1], ctx.value("generator.logits")[-1]
    order = [int(i) for i in np.argsort(-p, kind="stable")[:TOP]]
    lines = [_likely_line(ctx, k + 1, ctx.vocab[i], i, z[i], p[i]) for k, i in enumerate(order)]
    paragraphs = [ctx.t("smol.next.p1", d=ctx.cfg["d_model"], V=len(ctx.vocab),
                        word=input_tokens(ctx)[-1]), *lines,
                  ctx.t("smol.next.p2", word=ctx.vocab[order[0]], p=f3(p[order[0]]))]
    ctx.add(Section("generator.logits", "13", ctx.t("smol.next.title"), paragraphs,
                    formula=ctx.formula("generator.logits"),
                    steps=["generator.logits", "generator.probs"]))


def quantized(ctx: Ctx) -> None:
    """Q4_1 and Q8_0: one block of each dequantized by hand (the first of its tensor)."""
    paragraphs = [ctx.t("smol.quant.p1")]
    for kind, block in sorted(_model(ctx)["blocks"].items()):
        w, q = block["w"], block["q"]
        head = ctx.t("smol.quant.q4_1" if kind == "Q4_1" else "smol.quant.q8_0",
                     tensor=block["tensor"], hex=block["hex"][:24], d=f"{block['d']:.6g}",
                     m=f"{block['m']:.6g}", bytes=block["bytes"])
        worked = ctx.t("smol.quant.worked" if kind == "Q4_1" else "smol.quant.worked8",
                       q=q[0], w=f"{w[0]:.6g}", d=f"{block['d']:.6g}", m=f"{block['m']:.6g}")
        paragraphs += [head, "  q = " + " ".join(map(str, q)),
                       "  w = " + " ".join(f"{v:.4g}" for v in w[:8]) + " …", worked]
    paragraphs.append(ctx.t("smol.quant.p2", dtype=_model(ctx)["dtype"]))
    ctx.add(Section("quantized", "", ctx.t("smol.quant.title"), paragraphs, phase="text",
                    formula=r"w_j = d\,q_j + m\ (\mathrm{Q4\_1}),\quad w_j = d\,q_j\ "
                            r"(\mathrm{Q8\_0})"))


def recap(ctx: Ctx) -> None:
    p = ctx.value("generator.probs")[-1]
    best = int(np.argmax(p))
    paragraphs = [ctx.t("smol.recap.p1", steps=len(ctx.tape.steps), word=ctx.vocab[best],
                        p=f3(p[best])), ctx.t("smol.recap.p2")]
    ctx.add(Section("recap", "", ctx.t("recap.title"), paragraphs, phase="recap",
                    level="overview"))
