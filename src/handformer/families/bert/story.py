"""The walkthrough of a pretrained BERT-family encoder (tape.meta["family"] == "bert").

Sections follow the tutorial's step numbers where the step is the same idea (3 encoding,
4 embedding, 5 positions, 6 input, 7 attention, 8 add & norm, 9 feed-forward, 10 add & norm),
and 13 for the output (the sentence embedding). Numbers are read off the tape; a batched tape is
told through one sentence (``Ctx.row``).
"""

from __future__ import annotations

import functools

import numpy as np

from ...engine.formula import head, transpose
from ...narrate.context import Ctx
from ...narrate.document import Matrix, Section
from ...narrate.numbers import dims


def _sentence(ctx: Ctx) -> dict:
    """The told sentence's text, words, pieces, tokens and ids (tape.meta)."""
    return ctx.meta["sentences"][ctx.row] if "sentences" in ctx.meta else ctx.meta["src"]


def _tokens(ctx: Ctx) -> list[str]:
    """The told sentence's tokens, [PAD] up to the batch's length."""
    n = np.shape(ctx.tape.index["src.ids"].value)[-1]
    tokens = list(_sentence(ctx)["tokens"])
    return tokens + ["[PAD]"] * (n - len(tokens))


def _mat(ctx: Ctx, name: str, symbol: str, kind: str = "matrix", rows="tokens", cols=True,
         value=None, note: str = "") -> Matrix:
    """A step as a Matrix: token rows and d0, d1, … columns unless told otherwise."""
    value = ctx.value(name) if value is None else value
    rows = _tokens(ctx) if rows == "tokens" and value.ndim == 2 else rows
    cols = dims(value.shape[-1]) if cols is True else cols
    return ctx.mat(name, symbol, value, None if rows == "tokens" else rows, cols or None, kind,
                   note)


def _add(ctx: Ctx, id: str, number: str, title: str, paragraphs, formula="", equation=(),
         steps=(), phase="forward") -> None:
    ctx.add(Section(id, number, title, list(paragraphs), formula, list(equation), [],
                    list(steps), phase), numbered=False)


def _sizes(ctx: Ctx) -> tuple[int, int, int]:
    """d_model, heads, layers."""
    return int(ctx.cfg["d_model"]), int(ctx.cfg["heads"]), int(ctx.cfg["layers"])


def story(tape) -> list:
    """Every step of the BERT encoder, from WordPiece to the sentence embedding, in order; on
    the tape of a fine-tuning step (a pair and its loss), then the loss, every gradient and the
    update."""
    layers = int(tape.meta["config"]["layers"])
    told = [overview, wordpiece, embeddings,
            *(functools.partial(layer, i=i) for i in range(layers)), pooling]
    if "loss" not in tape.index:
        if "beside_random" in tape.meta:  # walk --beside-trained (beside_story.py)
            from .beside_story import beside_random

            told.append(beside_random)
        return told
    from . import layers_back, step_story  # one fine-tuning step (walk --backward)

    told.insert(2, step_story.pair)
    told.append(step_story.loss)
    if tape.grads:
        told += [step_story.embedding_grad, step_story.normalize_grad, step_story.pooling_grad,
                 layers_back.last_layer, layers_back.other_layers, layers_back.embeddings,
                 step_story.update]
    return told


def overview(ctx: Ctx) -> None:
    cfg = ctx.tape.meta["config"]
    _add(ctx, "bert.overview", "1", ctx.t("bert.overview.title", model=ctx.tape.meta.get("model", "")),
          [ctx.t("bert.overview.sizes", **cfg, d_k=cfg["d_model"] // cfg["heads"]),
           *(ctx.t(k) for k in ("bert.differs.encoder", "bert.differs.wordpiece",
                              "bert.differs.positions", "bert.differs.gelu",
                              "bert.differs.pooling"))], phase="text")
    from .arch import architecture

    ctx.sections[-1].architecture = architecture(ctx)


def wordpiece(ctx: Ctx) -> None:
    info = _sentence(ctx)
    pieces = info.get("pieces") or [[w] for w in info["words"]]
    cut = [" ".join(p) for p in pieces if len(p) > 1]
    unknown = [w for w, p in zip(info["words"], pieces, strict=True) if p == ["[UNK]"]]
    paragraphs = [ctx.t("bert.wp.words", text=info["text"], words=" | ".join(info["words"])),
                  ctx.t("bert.wp.pieces", tokens=" ".join(info["tokens"]), n=len(info["tokens"]))]
    if cut:
        paragraphs.append(ctx.t("bert.wp.split", words=ctx.t("bert.comma").join(cut)))
    if unknown:
        paragraphs.append(ctx.t("bert.wp.unk", words=ctx.t("bert.comma").join(unknown)))
    paragraphs.append(ctx.t("bert.wp.ids", ids=" ".join(map(str, info["ids"]))))
    _add(ctx, "bert.wordpiece", "3", ctx.t("bert.wp.title"), paragraphs, steps=["src.ids"], phase="text")


# The lookups of positions and types index by position and by segment, not by token id.
EMBED_FORMULAS = {"position": r"X_{pos} = E_{pos}[0, 1, \dots, n-1]",
                  "token_type": r"X_{type} = E_{type}[0, 0, \dots, 0]"}


def embeddings(ctx: Ctx) -> None:
    n, d = len(_tokens(ctx)), _sizes(ctx)[0]
    for name, number, title, key in (
            ("word", "4", "bert.emb.word.title", "bert.emb.word"),
            ("position", "5", "bert.emb.position.title", "bert.emb.position"),
            ("token_type", "5b", "bert.emb.type.title", "bert.emb.type")):
        step = f"embeddings.{name}"
        _add(ctx, step, number, ctx.t(title), [ctx.t(key, n=n, d=d)],
              formula=EMBED_FORMULAS.get(name) or ctx.formula(step),
              equation=[_mat(ctx, step, ctx.tape.index[step].symbols["out"])],
              steps=[ctx.tape.index[step].inputs[0], step])
    _add(ctx, "embeddings.sum", "6", ctx.t("bert.emb.sum.title"), [ctx.t("bert.emb.sum")],
          formula=ctx.formula("embeddings.sum"),
          equation=[_mat(ctx, "embeddings.word", "X_{word}"), "+", _mat(ctx, "embeddings.position",
                    "X_{pos}"), "+", _mat(ctx, "embeddings.token_type", "X_{type}"), "=",
                    _mat(ctx, "embeddings.sum", "X_{sum}")], steps=["embeddings.sum"])
    norm(ctx, "embeddings.ln.out", "embeddings.sum", "6", ctx.t("bert.emb.ln.title"),
         ctx.t("bert.emb.ln"))


def norm(ctx: Ctx, out: str, resid: str, number: str, title: str, text: str) -> None:
    mean, std = ctx.extra(out, "mean"), ctx.extra(out, "std")
    paragraphs = [text]
    if mean is not None and std is not None:
        paragraphs.append(ctx.t("bert.ln.first", token=_tokens(ctx)[0], mean=f"{mean[0]:.3f}",
                              std=f"{std[0]:.3f}"))
    _add(ctx, out.removesuffix(".out"), number, title, paragraphs, formula=ctx.formula(out),
          equation=[_mat(ctx, resid, "X"), "→", _mat(ctx, out, ctx.tape.index[out].symbols.get("out",
                                                                                      "Y"))],
          steps=[resid, out] if resid.endswith(".resid") else [out])


def layer(ctx: Ctx, i: int) -> None:
    d, heads, layers = _sizes(ctx)
    p, where = f"layer.{i}", ctx.t("bert.where", i=i + 1, layers=layers)
    a = f"{p}.self_attn"
    _add(ctx, f"{a}.qkv", "7", where + ctx.t("bert.qkv.title"),
          [ctx.t("bert.qkv", h=heads, dk=d // heads)],
          formula=ctx.formula(f"{a}.q"),
          equation=[_mat(ctx, f"{a}.head.0.{w}", head(w.upper(), 1)) for w in "qkv"],
          steps=[f"{a}.q", f"{a}.k", f"{a}.v"])
    masked = ctx.value(f"{a}.masked")[0]
    hidden = int(np.isinf(masked).any(axis=-1).sum())
    _add(ctx, f"{a}.scores", "7", where + ctx.t("bert.scores.title"),
          [ctx.t("bert.scores", dk=d // heads),
           ctx.t("bert.mask.pad" if hidden else "bert.mask.none")],
          formula=ctx.formula(f"{a}.scores"),
          equation=[_mat(ctx, f"{a}.head.0.masked", "S'^{(1)}", cols=_tokens(ctx))],
          steps=[f"{a}.scores", f"{a}.masked"])
    patterns(ctx, a, where)
    _add(ctx, f"{a}.z", "7", where + ctx.t("bert.z.title"), [ctx.t("bert.z")], formula=ctx.formula(f"{a}.z"),
          equation=[_mat(ctx, f"{a}.head.0.z", "Z^{(1)}")], steps=[f"{a}.z"])
    _add(ctx, f"{a}.out", "7b", where + ctx.t("bert.out.title"), [ctx.t("bert.out", h=heads, d=d)],
          formula=ctx.formula(f"{a}.out"),
          equation=[_mat(ctx, f"{a}.concat", "Z"), "·", "W^O", "+", "b^O", "=",
                    _mat(ctx, f"{a}.out", r"\mathrm{MHA}")], steps=[f"{a}.concat", f"{a}.out"])
    norm(ctx, f"{p}.ln1.out", f"{p}.ln1.resid", "8", where + ctx.t("bert.ln1.title"), ctx.t("bert.ln1"))
    feed_forward(ctx, p, where)
    norm(ctx, f"{p}.ln2.out", f"{p}.ln2.resid", "10", where + ctx.t("bert.ln2.title"), ctx.t("bert.ln2"))
    ctx.sections[-1].steps.append(f"{p}.out")


def patterns(ctx: Ctx, a: str, where: str) -> None:
    """All heads of one layer side by side: the small multiples of what attention learned."""
    tokens, heads = _tokens(ctx), _sizes(ctx)[1]
    mats = [_mat(ctx, f"{a}.head.{h}.pattern", head("A", h + 1), kind="pattern", cols=tokens,
                 note=ctx.t("bert.head", h=h + 1)) for h in range(heads)]
    kinds: dict[str, list[str]] = {}
    for h, m in enumerate(mats):
        kind = head_kind(m.value, tokens)
        kinds.setdefault(kind, []).append(str(h + 1))
        m.note = ctx.t(KIND_KEYS[kind], heads=m.note)  # "head 3: the previous token"
    told = ctx.t("bert.sep").join(
        ctx.t(KIND_KEYS[k], heads=ctx.t("bert.heads" if len(hs) > 1 else "bert.head",
                                    h=ctx.t("bert.comma").join(hs)))
        for k, hs in kinds.items())
    _add(ctx, f"{a}.pattern", "7", where + ctx.t("bert.pattern.title", h=heads),
          [ctx.t("bert.pattern", h=heads), ctx.t("bert.pattern.kinds", told=told)],
          formula=ctx.formula(f"{a}.pattern"), equation=mats, steps=[f"{a}.pattern"])


KIND_KEYS = {"prev": "bert.kind.prev", "next": "bert.kind.next", "self": "bert.kind.self",
             "special": "bert.kind.special", "mixed": "bert.kind.mixed"}


def head_kind(pattern: np.ndarray, tokens: list[str]) -> str:
    """What most word rows of a head look at hardest: the previous token, the next, itself,
    [CLS] or [SEP] (a resting place), or nothing in particular ("mixed")."""
    n = sum(t != "[PAD]" for t in tokens)
    rows = range(1, n - 1)  # the words between [CLS] and [SEP]
    if not rows:
        return "mixed"
    target = pattern[:n, :n].argmax(axis=-1)
    # [CLS] and [SEP] first: in a one-word sentence they are also the previous and next token.
    if sum(target[i] in (0, n - 1) for i in rows) >= 0.6 * len(rows):
        return "special"
    for kind, offset in (("prev", -1), ("next", 1), ("self", 0)):
        if sum(target[i] == i + offset for i in rows) >= 0.6 * len(rows):
            return kind
    return "mixed"


def feed_forward(ctx: Ctx, p: str, where: str) -> None:
    pre, act = ctx.value(f"{p}.ffn.pre"), ctx.value(f"{p}.ffn.act")
    j = np.unravel_index(int(np.argmin(np.abs(pre + 0.5))), pre.shape)  # a value near −0.5
    _add(ctx, f"{p}.ffn", "9", where + ctx.t("bert.ffn.title"),
          [ctx.t("bert.ffn", d=_sizes(ctx)[0], d_ff=pre.shape[-1]),
           ctx.t("bert.gelu", x=f"{pre[j]:.3f}", y=f"{act[j]:.3f}")],
          formula=ctx.formula(f"{p}.ffn.act"),
          equation=[_mat(ctx, f"{p}.ffn.pre", "F"), r"\xrightarrow{\mathrm{GELU}}",
                    _mat(ctx, f"{p}.ffn.act", "G"), "·", "W_2", "+", "b_2", "=",
                    _mat(ctx, f"{p}.ffn.out", r"\mathrm{FFN}")],
          steps=[f"{p}.ffn.pre", f"{p}.ffn.act", f"{p}.ffn.out"])


def pooling(ctx: Ctx) -> None:
    """Step 13: the mean over the real tokens, then the L2 normalization."""
    layers, tokens = _sizes(ctx)[2], _tokens(ctx)
    last = f"layer.{layers - 1}.out"
    count = sum(t != "[PAD]" for t in tokens)
    _add(ctx, "pooling.mean", "13", ctx.t("bert.pool.title"),
          [ctx.t("bert.pool", n=count, tokens=" ".join(tokens[:count])), ctx.t("bert.pool.why")],
          formula=ctx.formula("pooling.mean"),
          equation=[_mat(ctx, last, head("H", layers)), "→",
                    _mat(ctx, "pooling.mean", "u", kind="vector", rows=None)],
          steps=["pooling.mean"], phase="forward")
    length = ctx.extra("pooling.normalized", "norm")
    told = [ctx.t("bert.l2", norm=f"{float(length):.4f}")] if length is not None else []
    _add(ctx, "pooling.normalized", "13b", ctx.t("bert.l2.title"), [*told, ctx.t("bert.l2.cos")],
          formula=ctx.formula("pooling.normalized"),
          equation=[_mat(ctx, "pooling.mean", "u", kind="vector", rows=None), "→",
                    _mat(ctx, "pooling.normalized", "e", kind="vector", rows=None)],
          steps=["pooling.normalized"])


def explain(tape, lang: str = "en") -> list[Section]:
    """`embed --explain`, `similarity --explain`: per sentence the pooling and normalization,
    then (if on the tape) the cosine similarity of every pair."""
    count = len(tape.meta["sentences"]) if "sentences" in tape.meta else 1
    sections = []
    for row in range(count):
        ctx = Ctx(tape, lang, row)
        pooling(ctx)
        for s in ctx.sections:
            s.id, s.title = f"{s.id}.{row}", f"{s.title}: {_sentence(ctx)['text']}"
        sections += ctx.sections
    if "similarity" in tape.index:
        sections.append(similarity(Ctx(tape, lang)))
    for panel, section in enumerate(sections, 1):  # one numbering across the sentences
        section.panel = panel
    return sections


def similarity(ctx: Ctx) -> Section:
    texts = [s["text"] for s in ctx.meta["sentences"]]
    cos = ctx.tape.index["similarity"].value
    e = ctx.tape.index["pooling.normalized"].value
    labels = [f"{i + 1}" for i in range(len(texts))]
    told = [ctx.t("bert.cos.pair", a=texts[0], b=texts[1], cos=f"{cos[0, 1]:.4f}")]
    return Section("similarity", "13c", ctx.t("bert.cos.title"), [ctx.t("bert.cos"), *told],
                   ctx.formula("similarity"),
                   [Matrix("pooling.normalized", "E", e, labels, None), "·",
                    Matrix("pooling.normalized", transpose("E"), e.T, None, labels), "=",
                    Matrix("similarity", r"\cos", cos, labels, labels)], [], ["similarity"])
