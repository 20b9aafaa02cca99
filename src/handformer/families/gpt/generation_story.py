"""The story of `walk --family gpt --generate N` (tape.meta["generate"], generation.py): the
cache the prompt's pass filled, then per generated token its embedding, per layer its query
against the growing cache, the next-token distribution and the sampling, step by step; last,
the cached logits against a pass without a cache, and the text written. Numbers are read off
the tape, never computed here.
"""

from __future__ import annotations

import functools

import numpy as np

from ...engine.formula import head, sub
from ...narrate.context import Ctx
from ...narrate.document import Section
from ...narrate.numbers import dims, f3, mark, small_scaled
from ...text import START


def narrators(tape) -> list:
    """The generation's narrators in reading order (none without --generate)."""
    told = tape.meta.get("generate")
    if not told:
        return []
    out = [cache_filled]
    for t in range(len(told["steps"])):
        if t > 0:
            out += [functools.partial(new_embedding, t=t)]
            out += [functools.partial(f, t=t, i=i) for i in range(int(tape.meta["config"]["layers"]))
                    for f in (cache_grows, new_attention)]
            out.append(functools.partial(new_logits, t=t))
        out += [functools.partial(f, t=t) for f in (scaled, cut, drawn)]
    return out + [check, written]


def _gen(ctx: Ctx) -> dict:
    return ctx.meta["generate"]


def _tokens(ctx: Ctx, t: int) -> list[str]:
    """The positions the cache holds once step t's token is in: the prompt, then the tokens
    fed so far."""
    g = _gen(ctx)
    ids = [*g["prompt_ids"], *g["ids"][:t]]
    return [ctx.vocab[i] for i in ids]


def _prompt(tokens: list[str]) -> list[str]:
    """The prompt's words: without <start> (a pretrained model's text has none)."""
    return tokens[1:] if tokens and tokens[0] == START else tokens


def _word(ctx: Ctx, i: int) -> str:
    return ctx.vocab[int(i)]


def _heads(ctx: Ctx) -> list[int]:
    return list(range(min(int(_gen(ctx)["kv_heads"]), 4)))


def _add(ctx: Ctx, sid: str, title: str, paragraphs: list[str], equation=(), formula: str = "",
         steps=()) -> None:
    ctx.add(Section(sid, "", title, paragraphs, formula=formula, equation=list(equation),
                    steps=[s for s in steps if ctx.has(s)], phase="decode"))


# --- before the first token --------------------------------------------------------------------


def cache_filled(ctx: Ctx) -> None:
    """The walk's text is the prompt alone; its pass left each layer's K and V: the cache."""
    g, c = _gen(ctx), ctx.cfg
    tokens = _tokens(ctx, 0)
    d_k, kv, h, layers = int(c["d_k"]), int(g["kv_heads"]), int(g["heads"]), int(c["layers"])
    how = ctx.t("gen.how.greedy") if not g["temperature"] else ctx.t(
        "gen.how.sample", T=g["temperature"], k=g["top_k"] or len(ctx.vocab),
        p=1.0 if g["top_p"] is None else g["top_p"], seed=g["seed"])
    paragraphs = [ctx.t("gen.intro.p1", prompt=" ".join(_prompt(tokens)), n=g["n"]), how,
                  ctx.t("gen.intro.cache", n=len(tokens)),
                  ctx.t("gen.intro.rope" if c.get("pos") == "rope" else "gen.intro.sinusoidal"),
                  ctx.t("gen.intro.size", layers=layers, kv=kv, dk=d_k,
                        per=2 * layers * kv * d_k)]
    if kv < h:
        paragraphs.append(ctx.t("gen.intro.gqa", h=h, kv=kv, saved=h // kv,
                                full=2 * layers * h * d_k))
    keys = "k_rot" if c.get("pos") == "rope" else "k"
    equation = []
    for kvh in _heads(ctx):
        equation += _cache_pair(ctx, f"decoder.0.self_attn.{keys}", "decoder.0.self_attn.v",
                                kvh, tokens, None)
    _add(ctx, "gen.0.cache", ctx.t("gen.cache.title"), paragraphs, equation,
         steps=[f"decoder.0.self_attn.{keys}", "decoder.0.self_attn.v"])


def _cache_pair(ctx: Ctx, k_name: str, v_name: str, kvh: int, tokens: list[str],
                new_row: int | None) -> list:
    """Head kvh's K and V of the cache, the newest row marked."""
    k, v = ctx.value(k_name), ctx.value(v_name)
    rows = () if new_row is None else (new_row,)
    return [mark(ctx.mat(k_name, head(sub("K", "cache"), kvh + 1), k[kvh], tokens,
                         dims(k.shape[-1])), rows=rows), " ",
            mark(ctx.mat(v_name, head(sub("V", "cache"), kvh + 1), v[kvh], tokens,
                         dims(v.shape[-1])), rows=rows), " "]


# --- one generated token through the model ------------------------------------------------------


def new_embedding(ctx: Ctx, t: int) -> None:
    g, p = _gen(ctx), f"gen.{t}."
    fed = _word(ctx, g["steps"][t]["fed"])
    m = g["steps"][t]["position"]
    x = ctx.value(p + "embed.out")
    d = x.shape[-1]
    key = "gen.embed.rope" if ctx.cfg.get("pos") == "rope" else "gen.embed.sinusoidal"
    paragraphs = [ctx.t("gen.embed.p1", word=fed, t=t + 1, m=m), ctx.t(key, m=m)]
    equation = [ctx.mat(p + "embed.out", "x", x, [fed], dims(d))]
    if ctx.has(p + "embed.pos"):
        equation = [ctx.mat(p + "embed.tok", sub("x", "tok"), ctx.value(p + "embed.tok"), [fed],
                            dims(d)), "+",
                    ctx.mat(p + "embed.pos", sub("PE", str(m)), ctx.value(p + "embed.pos"),
                            [fed], dims(d), kind="positional"), "=", *equation]
    _add(ctx, p + "embed", ctx.t("gen.embed.title", t=t + 1, word=fed), paragraphs, equation,
         formula=ctx.formula(p + "embed.out"), steps=[p + "embed.out"])


def cache_grows(ctx: Ctx, t: int, i: int) -> None:
    """The new row's q, k, v and the cache K, V with the new row marked."""
    g, p = _gen(ctx), f"gen.{t}.decoder.{i}.self_attn"
    m, tokens = g["steps"][t]["position"], _tokens(ctx, t)
    rope = ctx.cfg.get("pos") == "rope"
    paragraphs = [ctx.t("gen.kv.p1", layer=i + 1, word=tokens[-1], m=m, n=len(tokens)),
                  ctx.t("gen.kv.rope" if rope else "gen.kv.plain", m=m)]
    if int(g["kv_heads"]) < int(g["heads"]):
        paragraphs.append(ctx.t("gen.kv.gqa", kv=g["kv_heads"], h=g["heads"]))
    q_name = f"{p}.q_rot" if rope else f"{p}.q"
    q = ctx.value(q_name)
    equation = [ctx.mat(q_name, "q", q[:, 0, :], [ctx.t("decode.head", h=h + 1)
                                                   for h in range(q.shape[0])],
                        dims(q.shape[-1])), " "]
    for kvh in _heads(ctx):
        equation += _cache_pair(ctx, f"{p}.k_cache", f"{p}.v_cache", kvh, tokens, len(tokens) - 1)
    _add(ctx, f"{p}.cache", ctx.t("gen.kv.title", t=t + 1, layer=i + 1), paragraphs, equation,
         formula=ctx.formula(f"{p}.k_cache"), steps=[f"{p}.k_cache", f"{p}.v_cache"])


def new_attention(ctx: Ctx, t: int, i: int) -> None:
    """Scores, softmax and weighted sum for the one new row, every head at once."""
    p, tokens = f"gen.{t}.decoder.{i}.self_attn", _tokens(ctx, t)
    s, a, z = (ctx.value(f"{p}.{leaf}")[:, 0, :] for leaf in ("scores", "pattern", "z"))
    heads = [ctx.t("decode.head", h=h + 1) for h in range(s.shape[0])]
    best = int(np.argmax(a[0]))
    paragraphs = [ctx.t("gen.attn.p1", n=len(tokens), word=tokens[-1]),
                  ctx.t("gen.attn.p2", word=tokens[best], a=f3(a[0, best])),
                  ctx.t("gen.attn.p3")]
    equation = [ctx.mat(f"{p}.scores", "s", s, heads, tokens), "→",
                mark(ctx.mat(f"{p}.pattern", "a", a, heads, tokens, kind="pattern"),
                     cell=(0, best)), "→", ctx.mat(f"{p}.z", "z", z, heads, dims(z.shape[-1]))]
    _add(ctx, f"{p}.pattern", ctx.t("gen.attn.title", t=t + 1, layer=i + 1), paragraphs, equation,
         formula=ctx.formula(f"{p}.pattern"), steps=[f"{p}.scores", f"{p}.pattern", f"{p}.z"])


def new_logits(ctx: Ctx, t: int) -> None:
    p, word = f"gen.{t}.", _tokens(ctx, t)[-1]
    logits = ctx.value(p + "generator.logits")
    paragraphs = [ctx.t("gen.logits.p1", word=word, V=len(ctx.vocab))]
    _add(ctx, p + "generator.logits", ctx.t("gen.logits.title", t=t + 1), paragraphs,
         [ctx.mat(p + "generator.logits", r"\mathrm{logits}", logits, [word], ctx.vocab)],
         formula=ctx.formula(p + "generator.logits"), steps=[p + "generator.logits"])


# --- choosing the token --------------------------------------------------------------------------


def _logits_row(ctx: Ctx, t: int) -> tuple[str, np.ndarray]:
    name = "generator.logits" if t == 0 else f"gen.{t}.generator.logits"
    return name, ctx.value(name)[-1]


def scaled(ctx: Ctx, t: int) -> None:
    """logits ÷ T, then softmax."""
    g, p = _gen(ctx), f"gen.{t}.sample"
    name, logits = _logits_row(ctx, t)
    T = g["temperature"]
    probs = ctx.value(f"{p}.p")
    key = "gen.scaled.greedy" if not T else "gen.scaled.p1"
    paragraphs = [ctx.t("gen.scaled.from", t=t + 1, name=name), ctx.t(key, T=T)]
    if T:
        paragraphs.append(ctx.t("gen.scaled.why"))
    equation = [ctx.mat(name, r"\mathrm{logits}", logits, cols=ctx.vocab, kind="vector")]
    if T:
        equation += ["÷ " + f"{T:g}", "=", ctx.mat(f"{p}.scaled", "z", ctx.value(f"{p}.scaled"),
                                                       cols=ctx.vocab, kind="vector")]
    equation += ["→", ctx.mat(f"{p}.p", "p", probs, cols=ctx.vocab, kind="vector")]
    _add(ctx, f"{p}.scaled", ctx.t("gen.scaled.title", t=t + 1), paragraphs, equation,
         formula=r"z = \mathrm{logits} / T,\quad p_i = \frac{e^{z_i}}{\sum_j e^{z_j}}",
         steps=[f"{p}.scaled", f"{p}.p"])


def cut(ctx: Ctx, t: int) -> None:
    """Sorted, cumulated, cut by top-k and top-p."""
    g, step, p = _gen(ctx), _gen(ctx)["steps"][t], f"gen.{t}.sample"
    order = [int(i) for i in ctx.value(f"{p}.order")]
    words = [_word(ctx, i) for i in order]
    srt, cum = ctx.value(f"{p}.sorted"), ctx.value(f"{p}.cumulative")
    kept_k, kept = int(step["kept_k"]), int(step["kept"])
    paragraphs = [ctx.t("gen.sort.p1")]
    if not g["temperature"]:
        paragraphs.append(ctx.t("gen.sort.greedy", word=words[0], p=f3(srt[0])))
    else:
        paragraphs.append(ctx.t("gen.sort.k", k=g["top_k"] or len(order), kept=kept_k))
        if g["top_p"] is not None and cum[kept - 1] >= g["top_p"]:
            paragraphs.append(ctx.t("gen.sort.p", p=g["top_p"], kept=kept,
                                    word=words[kept - 1], cum=f3(cum[kept - 1])))
        elif g["top_p"] is not None:
            paragraphs.append(ctx.t("gen.sort.p_short", p=g["top_p"], kept=kept,
                                    cum=f3(cum[kept - 1])))
    table = mark(ctx.mat(f"{p}.sorted", "p", np.vstack([srt, cum]),
                         [ctx.t("gen.row.sorted"), ctx.t("gen.row.cumulative")], words),
                 cols=tuple(range(kept)), keep_cols=(kept - 1,))
    _add(ctx, f"{p}.sorted", ctx.t("gen.sort.title", t=t + 1), paragraphs, [table],
         formula=r"p_{(1)} \ge p_{(2)} \ge \dots,\quad c_r = \sum_{s \le r} p_{(s)},\quad "
                 r"\text{keep } r \le \min(k,\ r_p),\ r_p = \min\,(r : c_r \ge p_{\mathrm{top}})",
         steps=[f"{p}.sorted", f"{p}.cumulative"])


def drawn(ctx: Ctx, t: int) -> None:
    """Renormalised, the uniform number, the token."""
    g, step, p = _gen(ctx), _gen(ctx)["steps"][t], f"gen.{t}.sample"
    order = [int(i) for i in ctx.value(f"{p}.order")]
    q, qc = ctx.value(f"{p}.renormalised"), ctx.value(f"{p}.renormalised_cumulative")
    words = [_word(ctx, i) for i in order[:len(q)]]
    word, rank = _word(ctx, step["token"]), int(step["rank"])
    if step["u"] is None:
        paragraphs = [ctx.t("gen.draw.greedy", word=word)]
    else:
        paragraphs = [ctx.t("gen.draw.p1", kept=len(q)),
                      ctx.t("gen.draw.u", u=f"{step['u']:.6f}", seed=g["seed"], t=t + 1),
                      ctx.t("gen.draw.pick", word=word, c=f3(qc[rank]), u=f"{step['u']:.6f}")]
    if word == "<end>":
        paragraphs.append(ctx.t("gen.draw.end"))
    table = mark(ctx.mat(f"{p}.renormalised", "q", np.vstack([q, qc]),
                         [ctx.t("gen.row.q"), ctx.t("gen.row.q_cumulative")], words),
                 cell=(1, rank), keep_cols=(rank,))
    _add(ctx, f"{p}.draw", ctx.t("gen.draw.title", t=t + 1, word=word), paragraphs, [table],
         formula=r"q_r = \frac{p_{(r)}}{\sum_{s \le K} p_{(s)}},\quad u \sim U[0, 1),\quad "
                 r"\text{token} = \min\,(r : \sum_{s \le r} q_s > u)",
         steps=[f"{p}.renormalised", f"{p}.renormalised_cumulative"])


# --- after the last token ---------------------------------------------------------------------


def check(ctx: Ctx) -> None:
    """|cached − full| over every position's logits."""
    g = _gen(ctx)
    diff = ctx.value("gen.check.diff")
    tokens = _tokens(ctx, len(g["ids"]))[:diff.shape[0]]
    paragraphs = [ctx.t("gen.check.p1", n=diff.shape[0]),
                  ctx.t("gen.check.p2" if g.get("dtype", "float64") == "float64" else
                        "smol.check.p2.float32", diff=f"{g['max_abs_diff']:.3g}")]
    matrix = small_scaled(ctx.mat("gen.check.diff", r"|\mathrm{cached} - \mathrm{full}|", diff,
                                  tokens, ctx.vocab))
    _add(ctx, "gen.check", ctx.t("gen.check.title"), paragraphs, [matrix],
         formula=r"\max_{t, i} |\mathrm{logits}^{\mathrm{cache}}_{t,i} - "
                 r"\mathrm{logits}^{\mathrm{full}}_{t,i}|",
         steps=["gen.check.cached", "gen.check.full", "gen.check.diff"])


def written(ctx: Ctx) -> None:
    g = _gen(ctx)
    words = [w for w in g["tokens"] if w != "<end>"]
    prompt = " ".join(_prompt(_tokens(ctx, 0)))
    paragraphs = [ctx.t("gen.result.p1", prompt=prompt, out=" ".join(words), k=len(words))]
    if g["ended"]:
        paragraphs.append(ctx.t("gen.result.end"))
    paragraphs.append(ctx.t("gen.result.same"))
    _add(ctx, "gen.result", ctx.t("gen.result.title"), paragraphs)
