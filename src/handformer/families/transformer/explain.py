"""`translate --explain`: one section per new token, read off each decoding step's tape.

Per step: the decoder's input so far, what the newest position looks at in the source
(cross-attention of the last decoder layer, every head), the probabilities of the top words,
and the word chosen (greedy) or the hypotheses kept (beam). Numbers are read, never computed.
"""

from __future__ import annotations

import numpy as np

from ...narrate.context import Ctx
from ...narrate.document import Callout, Matrix, Section


def build(result, vocab, lang: str = "en") -> list[Section]:
    """Sections for one translation (a decode.Translation with recorded tapes); ``vocab``
    names the source's ids with its source side and the chosen words with its target side."""
    ctx = Ctx(result.encoder, lang)
    src = " ".join(_src_tokens(result, vocab))
    ctx.add(_intro(result, vocab, ctx, src), numbered=False)
    for number, step in enumerate(result.steps, 1):
        ctx.add(_step(step, number, result, vocab, ctx), numbered=False)
    ctx.add(_result(result, ctx, src), numbered=False)
    return ctx.sections


def _src_tokens(result, vocab) -> list[str]:
    return vocab.source.decode(np.asarray(result.encoder["src.ids"]).reshape(-1))


def _memory_name(result) -> str:
    return result.memory


def _intro(result, vocab, ctx, src) -> Section:
    memory = result.encoder[_memory_name(result)]
    n, d = memory.shape[-2:]
    paragraphs = [ctx.t("decode.intro.p1", n=n, d=d),
                  ctx.t("decode.intro.greedy") if result.beam == 1 else
                  ctx.t("decode.intro.beam", beam=result.beam, alpha=result.alpha)]
    if getattr(result, "cached", False):
        paragraphs.append(ctx.t("decode.intro.cache"))
    matrix = Matrix(_memory_name(result), "M", memory, _src_tokens(result, vocab),
                    [f"d{j}" for j in range(d)])
    return Section("decode.encoder", "13", ctx.t("decode.intro.title", src=src), paragraphs,
                   formula=r"p(y_t | y_{<t}, x) = \mathrm{softmax}(Y_t W_{out} + b_{out})",
                   equation=[matrix], callouts=[Callout("D9", ctx.t("decode.d9"))],
                   steps=[_memory_name(result)], phase="decode")


def _step(step, number: int, result, vocab, ctx) -> Section:
    tape, prefix = step.tape, step.prefixes[0]
    layers = sorted({s.name.split(".")[1] for s in tape.steps if s.name.startswith("decoder.")
                     and s.name.split(".")[1].isdigit()}, key=int)
    last = layers[-1]
    paragraphs = [ctx.t("decode.step.p1", prefix=" ".join(vocab.target.decode(prefix)),
                        pos=len(prefix) - 1),
                  ctx.t("decode.step.p2", layer=int(last) + 1)]
    pattern = tape[f"decoder.{last}.cross_attn.pattern"][0][:, -1, :]
    src_tokens = _src_tokens(result, vocab)
    equation = [Matrix(f"decoder.{last}.cross_attn.pattern", "A", pattern,
                       [ctx.t("decode.head", h=h + 1) for h in range(pattern.shape[0])],
                       src_tokens,
                       kind="pattern", note=ctx.t("decode.cross", n=len(prefix) - 1))]
    top = step.top[0]
    equation.append(Matrix("generator.probs", "p", np.array([p for _, p in top]),
                           cols=vocab.target.decode([i for i, _ in top]), kind="vector",
                           note=ctx.t("decode.top", k=len(top))))
    if len(step.prefixes) > 1:
        paragraphs.append(ctx.t("decode.step.hyps", k=len(step.prefixes),
                                prefix=" ".join(vocab.target.decode(prefix))))
    chosen, table = _choice(step, vocab, ctx)
    paragraphs += chosen
    equation += table
    return Section(f"decode.{number}", "13", ctx.t("decode.step.title", t=number), paragraphs,
                   formula=tape.index["generator.probs"].formula, equation=equation,
                   steps=["generator.logits", "generator.probs"], phase="decode")


def _choice(step, vocab, ctx) -> tuple[list[str], list[Matrix]]:
    """The word chosen (greedy), or the hypotheses kept (beam) as a table: one row per
    hypothesis, its log-probability in the one column, so no item is ever cut across lines."""
    if len(step.chosen) == 1 and len(step.prefixes) == 1 and step.chosen[0][0] == 0 \
            and step.top[0][0][0] == step.chosen[0][1]:
        word_id, p = step.top[0][0]
        word = vocab.target.decode([word_id])[0]
        key = "decode.step.end" if word == "<end>" else "decode.step.greedy"
        return [ctx.t(key, word=word, p=p)], []
    rows, scores = [], []
    for h, word_id, score in step.chosen:
        words = vocab.target.decode(step.prefixes[h][1:] + [word_id])
        text = " ".join(words)
        rows.append(ctx.t("decode.hyp.done", text=text) if words[-1] == "<end>" else text)
        scores.append([score])
    table = Matrix("decode.beam", r"\log P", np.array(scores), rows, [ctx.t("decode.hyp.col")],
                   scale="signed")
    return [ctx.t("decode.step.beam")], [table]


def _result(result, ctx, src) -> Section:
    paragraphs = [ctx.t("decode.result.p1", src=src, out=" ".join(result.tokens)),
                  ctx.t("decode.result.greedy" if result.beam == 1 else "decode.result.beam",
                        score=result.score)]
    if not result.finished:
        paragraphs.append(ctx.t("decode.limit", n=len(result.steps)))
    return Section("decode.result", "13", ctx.t("decode.result.title"), paragraphs, phase="decode")
