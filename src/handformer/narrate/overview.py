"""The big picture first and a recap last: the model actually run (read off the tape's config)
as an architecture of blocks, and, at the end, what was computed, the prediction and the
tutorial's closing takeaways as corrected."""

from __future__ import annotations

import math

import numpy as np

from ..families.registry import family_of
from .context import Ctx
from .document import Architecture, Block, Edge, Section
from .numbers import f3
from .recap_table import before_after, shapes

LEVELS = ("overview", "steps", "all")
# The tutorial's closing list ("重要要点"), each point as corrected.
TAKEAWAY_KEYS = ("recap.takeaway.1", "recap.takeaway.2", "recap.takeaway.3")


def overview(ctx: Ctx) -> None:
    """The first section: sizes, the two sentences, why the heads differ, how to read on."""
    c, src, tgt = ctx.cfg, ctx.tokens("src"), ctx.tokens("tgt")
    enc_h, dec_h = int(c.get("heads", 1)), int(c.get("decoder_heads") or c.get("heads", 1))
    paragraphs = [ctx.t("overview.credit"),
                  ctx.t("overview.p1", enc=c.get("encoder_layers", 1),
                        dec=c.get("decoder_layers", 1), d=c.get("d_model"),
                        V=ctx.vocab_size_text()),
                  ctx.t("overview.p2", src=" ".join(src), n=len(src), tgt=" ".join(tgt),
                        m=len(tgt)),
                  ctx.t("overview.map")]
    if enc_h != dec_h:
        paragraphs.insert(3, ctx.t("overview.heads", enc=enc_h, dec=dec_h))
    paragraphs[3:3] = switches(ctx)
    ctx.add(Section("overview", "", ctx.t("overview.title"), paragraphs, phase="text",
                    level="overview", architecture=architecture(ctx)))


def switches(ctx: Ctx) -> list[str]:
    """What the paper's switches (--norm, --tie-embeddings) change in this run, and for the
    paper preset its parameter count beside Table 3's."""
    c, said = ctx.cfg, []
    if c.get("norm") == "pre":
        said.append(ctx.t("overview.pre_norm"))
        if not c.get("final_norm"):
            said.append(ctx.t("overview.pre_norm.no_final"))
    if c.get("tie_embeddings"):
        said.append(ctx.t("overview.tied", V=len(ctx.vocab), d=c.get("d_model"),
                          saved=f"{2 * len(ctx.vocab) * int(c.get('d_model', 0)):,}"))
    if c.get("preset") == "paper":
        said.append(paper_count(ctx))
    return said


# Table 3 of the paper: the base model, a shared source-target vocabulary of about 37,000
# tokens (byte-pair encoding, WMT 2014 English-German), tied embeddings.
PAPER_PARAMS, PAPER_VOCAB = 65_000_000, 37_000


def paper_count(ctx: Ctx) -> str:
    """This model's parameter count at the paper's vocabulary, tied and untied, beside 65M."""
    family, c = family_of(ctx.tape), dict(ctx.cfg)
    count = {tie: sum(int(np.prod(shape)) for shape, _ in family.param_shapes(
        family.config.from_dict(c | {"tie_embeddings": tie}), PAPER_VOCAB).values())
        for tie in (True, False)}
    per_word = int(c.get("d_model", 0)) + 1  # tied, a word costs a row of E and a bias of W_out
    at_65m = (PAPER_PARAMS - (count[True] - PAPER_VOCAB * per_word)) / per_word
    here = sum(int(np.prod(np.shape(v))) for v in ctx.tape.params.values())
    return ctx.t("overview.paper_count", tied=f"{count[True]:,}", untied=f"{count[False]:,}",
                 vocab=f"{PAPER_VOCAB:,}", here=f"{here:,}", V=ctx.vocab_size_text(),
                 m_tied=f"{count[True] / 1e6:.1f}", m_untied=f"{count[False] / 1e6:.1f}",
                 at_65m=f"{round(at_65m, -2):,.0f}")


def architecture(ctx: Ctx) -> Architecture:
    """Stacks of layers of sub-layers, as the config says; each block's ``section`` is the id
    of the first section that computes it (filled in by ``link_blocks`` once all are built)."""
    c = ctx.cfg
    d, dk = int(c.get("d_model", 0)), int(c.get("d_k") or 0)
    enc_h, dec_h = int(c.get("heads", 1)), int(c.get("decoder_heads") or c.get("heads", 1))
    ffn = ctx.t("arch.ffn", d=d, dff=int(c.get("d_ff", 0))) if c.get("ffn") != "single" else \
        ctx.t("arch.ffn.single", d=d)
    src, tgt = len(ctx.tokens("src")), len(ctx.tokens("tgt"))
    blocks = [Block("src_embed", ctx.t("arch.src_embed"), "embed",
                    detail=ctx.t("arch.shape", n=src, d=d)),
              _stack(ctx, "encoder", int(c.get("encoder_layers", 1)),
                     [("self_attn", ctx.t("arch.self_attn"), "attention",
                       ctx.t("arch.heads", h=enc_h, dk=dk)),
                      ("ln1", ctx.t("arch.norm"), "norm", ""), ("ffn", ctx.t("arch.ffn.label"), "ffn", ffn),
                      ("ln2", ctx.t("arch.norm"), "norm", "")]),
              Block("tgt_embed", ctx.t("arch.tgt_embed"), "embed",
                    detail=ctx.t("arch.shape", n=tgt, d=d)),
              _stack(ctx, "decoder", int(c.get("decoder_layers", 1)),
                     [("self_attn", ctx.t("arch.masked_attn"), "attention",
                       ctx.t("arch.heads", h=dec_h, dk=dk)),
                      ("ln1", ctx.t("arch.norm"), "norm", ""),
                      ("cross_attn", ctx.t("arch.cross_attn"), "attention",
                       ctx.t("arch.heads", h=dec_h, dk=dk)),
                      ("ln2", ctx.t("arch.norm"), "norm", ""), ("ffn", ctx.t("arch.ffn.label"), "ffn", ffn),
                      ("ln3", ctx.t("arch.norm"), "norm", "")]),
              Block("generator", ctx.t("arch.generator"), "linear",
                    detail=ctx.t("arch.shape", n=tgt, d=len(ctx.vocab))),
              Block("prediction", ctx.t("arch.prediction"), "output")]
    sizes = {k: int(c[k]) for k in ("d_model", "heads", "decoder_heads", "d_k", "d_v", "d_ff",
                                    "encoder_layers", "decoder_layers") if c.get(k) is not None}
    last = int(c.get("encoder_layers", 1)) - 1
    memory = edge(ctx, "encoder.norm.out", f"encoder.{last}.out", f"encoder.{last}.ln2.out")
    return with_flow(ctx, Architecture(blocks, sizes, memory))


# Where a block's output lies on the tape, tried in this order: a block that ends in softmax
# hands on its probabilities; most blocks write ``<id>.out``.
OUTPUTS = (".probs", ".out", ".ln.out", ".normalized")


def with_flow(ctx: Ctx, arch: Architecture) -> Architecture:
    """The arrows' contents: every leaf's output (its tape step and shape) and, after a
    pre-norm sub-layer, the residual sum that follows it."""
    def visit(block: Block) -> None:
        for child in block.children:
            visit(child)
        if not block.children:
            block.out = edge(ctx, *(block.id + suffix for suffix in OUTPUTS))
            if block.kind in ("attention", "ffn"):
                block.sum = edge(ctx, block.id + ".resid")

    for block in arch.blocks:
        visit(block)
    return arch


def edge(ctx: Ctx, *names: str) -> Edge | None:
    """The first of ``names`` on the tape, with its shape ("7×6"), or None."""
    for name in names:
        if name in ctx.tape.index:
            return Edge(name, "×".join(str(n) for n in np.shape(ctx.tape.index[name].value)))
    return None


def _in_order(ctx: Ctx, parts: list[tuple]) -> list[tuple]:
    """The sublayers as the config runs them: post-norm, each followed by its add & norm;
    pre-norm, each preceded by its layer norm."""
    if ctx.cfg.get("norm") != "pre":
        return parts
    ordered = []
    for sub, norm in zip(parts[::2], parts[1::2], strict=True):
        key = norm[0]
        ordered += [(key, ctx.t("arch.pre_norm", k=key[2:]), "norm", ""), sub]
    return ordered


def _stack(ctx: Ctx, stack: str, layers: int, parts: list[tuple]) -> Block:
    parts = _in_order(ctx, parts)
    children = [Block(f"{stack}.{i}", ctx.t("arch.layer", i=i + 1), "stack",
                      children=[Block(f"{stack}.{i}.{leaf}", label, kind, detail=detail)
                                for leaf, label, kind, detail in parts])
                for i in range(layers)]
    if ctx.has(f"{stack}.norm.out"):
        children.append(Block(f"{stack}.norm", ctx.t("arch.final_norm"), "norm"))
    label = "arch.encoder" if stack == "encoder" else "arch.decoder"
    return Block(stack, ctx.t(label, n=layers), "stack", children=children)


def link_blocks(sections: list[Section]) -> None:
    """Point every block of the overview at the first section whose id is, or lies under, the
    block's id (the recap stands for the prediction when no other section does)."""
    arch = next((s.architecture for s in sections if s.architecture), None)
    if arch is None:
        return
    by_id = {"prediction": "prediction", "generator": "generator.logits",
             "tgt_embed": "tgt.ids"}
    first_under: dict[str, Section] = {}  # a dotted id → the first section at or under it
    for s in sections:
        parts = s.id.split(".")
        for k in range(1, len(parts) + 1):
            first_under.setdefault(".".join(parts[:k]), s)

    def visit(block: Block) -> None:
        found = first_under.get(by_id.get(block.id, block.id))
        if found is not None:
            block.section, block.number = found.id, found.prefix.strip(" ·")
        for child in block.children:
            visit(child)

    for block in arch.blocks:
        visit(block)


def recap(ctx: Ctx) -> None:
    """The last section: what was computed, the prediction, the loss (before and after the
    update, with --backward), and the tutorial's takeaways as corrected."""
    paragraphs = [ctx.t("recap.computed", steps=len(ctx.tape.steps), n=len(ctx.tokens("src")),
                        m=len(ctx.tokens("tgt")), V=len(ctx.vocab))]
    paragraphs += shapes(ctx) + _prediction(ctx) + loss_lines(ctx)
    table_text, table = before_after(ctx)
    paragraphs += table_text
    paragraphs += [ctx.t("recap.takeaways")] + ["  " + ctx.t(key) for key in TAKEAWAY_KEYS]
    ctx.add(Section("recap", "", ctx.t("recap.title"), paragraphs, equation=table,
                    phase="recap", level="overview"))


def _prediction(ctx: Ctx) -> list[str]:
    if "generator.probs" not in ctx.tape.index:
        return []
    p, inp = ctx.value("generator.probs"), ctx.tokens("tgt")
    target = [int(i) for i in np.ravel((ctx.meta.get("target") or {}).get("ids") or [])]
    picked = [int(i) for i in np.argmax(p, axis=-1)]
    words = " ".join(ctx.vocab[i] for i in picked)
    if len(target) != len(picked):
        return [ctx.t("recap.said", words=words)]
    right = sum(a == b for a, b in zip(picked, target, strict=True))
    return [ctx.t("recap.prediction", words=words, k=right, n=len(picked), tok=inp[0],
                  word=ctx.vocab[picked[0]], p=f3(p[0, picked[0]]), want=ctx.vocab[target[0]],
                  pw=f3(p[0, target[0]]))]


def loss_lines(ctx: Ctx) -> list[str]:
    """The loss before and after the update, in as many decimals as tell them apart, beside
    what guessing every token with the same probability would score (ln V)."""
    update = ctx.meta.get("update") or {}
    if "loss" not in ctx.tape.index or "loss_after" not in update:
        return []
    before = float(np.asarray(ctx.tape.index["loss"].value).reshape(-1)[0])
    after = float(update["loss_after"])
    shown = apart(before, after)
    said = [ctx.t("recap.loss", before=shown[0], after=shown[1], lr=f"{update['lr']:g}")]
    if family_of(ctx.tape).next_token_loss:  # a next-token loss over V: against a uniform guess
        uniform = math.log(len(ctx.vocab))
        key = "recap.uniform.better" if before <= uniform else (
            "recap.uniform.worse" if ctx.meta.get("trained") else "recap.uniform")
        said.append(ctx.t(key, V=len(ctx.vocab), u=f3(uniform)))
    return said


def apart(a: float, b: float) -> tuple[str, str]:
    """Both numbers with 3 decimals, or with more (up to 8) when 3 would print them equal."""
    for digits in range(3, 9):
        x, y = f"{a:.{digits}f}", f"{b:.{digits}f}"
        if x != y or a == b:
            return x, y
    return x, y


def next_steps(tape, lang: str) -> Section | None:
    """The terminal walk's closing lines: three commands to try next, each under what it
    shows, in ``lang``. After a backward pass the first is a trained copy beside the weights
    instead of the gradients."""
    from .. import i18n

    steps = family_of(tape).next_steps  # the family's own commands (registry.Family)
    keys = steps.get("backward" if tape.meta.get("update") else "walk")
    if not keys:
        return None
    text = i18n.table(lang)
    lines = [line for shows, run in keys for line in (text[shows], "  " + text[run])]
    return Section("next", "", text["recap.next"], lines, phase="text", level="overview")


def at_level(sections: list[Section], level: str, ctx: Ctx) -> list[Section]:
    """``overview``: the overview, one line per tutorial step, the recap; ``steps`` and ``all``:
    every section (how much each repeats itself was settled while narrating)."""
    if level != "overview":
        return sections
    lines, seen = [], set()
    for s in sections:
        if s.level == "overview" or s.number in seen:
            continue
        seen.add(s.number)
        lines.append(s.heading)
    steps = Section("steps", "", ctx.t("overview.steps"), lines, phase="text", level="overview")
    framing = [s for s in sections if s.level == "overview"]
    return framing[:1] + [steps] + framing[1:]
