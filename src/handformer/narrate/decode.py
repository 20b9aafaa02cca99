"""`translate --explain`: one section per new token, read off each decoding step's tape.

Per step: the decoder's input so far, what the newest position looks at in the source
(cross-attention of the last decoder layer, every head), the probabilities of the top words,
and the word chosen (greedy) or the hypotheses kept (beam). Numbers are read, never computed.
"""

from __future__ import annotations

import numpy as np

from .context import Ctx
from .document import Callout, Matrix, Section

TEXT = {
    "en": {
        "intro.title": "Translating “{src}”",
        "intro.p1": "At inference there is no target to copy: the decoder writes one word at a "
                    "time. The encoder runs once; its output, the memory M ({n}×{d}), is what "
                    "every decoding step's cross-attention reads.",
        "intro.greedy": "Greedy search: at each step the most probable word is taken.",
        "intro.beam": "Beam search: the {beam} most probable prefixes are kept at each step; a "
                      "finished one is scored log P(Y) / lp(Y) with lp(Y) = ((5 + |Y|) / 6)^α, "
                      "α = {alpha} (GNMT), so longer answers are not unfairly penalized.",
        "d9": "In training the whole shifted target enters at once under the causal mask "
              "(teacher forcing); only here, at inference, does the decoder take one token at a "
              "time, its own previous outputs.",
        "step.title": "Decoding step {t}: choosing word {t}",
        "step.p1": "The decoder's input is “{prefix}” ({n} token(s)), under the causal mask, so "
                   "position {n} sees every token so far and nothing after it. The whole decoder "
                   "runs on a tape of its own ({steps} steps).",
        "step.p2": "The newest position's cross-attention (decoder layer {layer}, each head a "
                   "row) shows which source words it draws on; then logits = Y W_out + b_out "
                   "and p = softmax(logits) for its row.",
        "step.greedy": "The most probable word is “{word}” (p = {p:.3f}); it is appended.",
        "step.end": "The most probable word is <end> (p = {p:.3f}): decoding stops.",
        "step.beam": "Beam: the best continuations, by total log-probability:",
        "step.hyps": "The beam holds {k} hypotheses, run as one batch; the matrices show the "
                     "first, “{prefix}”.",
        "hyp": "  “{text}”  log P = {score:.3f}{done}",
        "done": "  (finished)",
        "top": "top {k} of p",
        "cross": "cross-attention of position {n}",
        "result.title": "Translation",
        "result.p1": "“{src}” → “{out}”",
        "result.greedy": "log P = {score:.4f} (the sum of the log-probabilities of the chosen "
                         "words, <end> included).",
        "result.beam": "score = log P / lp = {score:.4f}: the best finished hypothesis.",
        "limit": "No <end> within {n} tokens: decoding stopped at the length limit.",
    },
    "zh": {
        "intro.title": "翻译“{src}”",
        "intro.p1": "推理时没有目标句可以照抄：解码器一次只写一个词。编码器只运行一次，它的输出"
                    "即记忆 M（{n}×{d}），每一步解码的交叉注意力都读取它。",
        "intro.greedy": "贪心搜索：每一步取概率最大的词。",
        "intro.beam": "束搜索：每一步保留概率最大的 {beam} 个前缀；已结束的假设按 "
                      "log P(Y) / lp(Y) 打分，lp(Y) = ((5 + |Y|) / 6)^α，α = {alpha}（GNMT），"
                      "以免较长的译文吃亏。",
        "d9": "训练时整句右移后的目标在因果掩码下一次性输入（教师强制）；只有在推理时，解码器"
              "才一次输入一个词元，即它自己前面的输出。",
        "step.title": "解码第 {t} 步：选择第 {t} 个词",
        "step.p1": "解码器的输入是“{prefix}”（{n} 个词元），带因果掩码，所以第 {n} 个位置能看"
                   "到目前为止的所有词元，看不到之后的。整个解码器在它自己的记录带上运行"
                   "（{steps} 步）。",
        "step.p2": "最新位置的交叉注意力（解码器第 {layer} 层，每个头一行）显示它取用哪些源词；"
                   "然后对它这一行计算 logits = Y W_out + b_out 和 p = softmax(logits)。",
        "step.greedy": "概率最大的词是“{word}”（p = {p:.3f}），把它接在后面。",
        "step.end": "概率最大的是 <end>（p = {p:.3f}）：解码结束。",
        "step.beam": "束搜索：按总对数概率排列的最佳延续：",
        "step.hyps": "束中有 {k} 个假设，作为一个批次一起计算；矩阵显示的是第一个，“{prefix}”。",
        "hyp": "  “{text}”  log P = {score:.3f}{done}",
        "done": "  （已结束）",
        "top": "p 的前 {k} 名",
        "cross": "第 {n} 个位置的交叉注意力",
        "result.title": "译文",
        "result.p1": "“{src}” → “{out}”",
        "result.greedy": "log P = {score:.4f}（所选各词的对数概率之和，包括 <end>）。",
        "result.beam": "得分 = log P / lp = {score:.4f}：最好的已结束假设。",
        "limit": "在 {n} 个词元内没有出现 <end>：解码在长度上限处停止。",
    },
}


def build(result, vocab, lang: str = "en") -> list[Section]:
    """Sections for one translation (a decode.Translation with recorded tapes)."""
    ctx = Ctx(result.encoder, lang, TEXT)
    src = " ".join(_src_tokens(result, vocab))
    ctx.add(_intro(result, vocab, ctx, src))
    for number, step in enumerate(result.steps, 1):
        ctx.add(_step(step, number, result, vocab, ctx))
    ctx.add(_result(result, ctx, src))
    return ctx.sections


def _src_tokens(result, vocab) -> list[str]:
    return vocab.decode(np.asarray(result.encoder["src.ids"]).reshape(-1))


def _memory_name(result) -> str:
    return result.memory


def _intro(result, vocab, ctx, src) -> Section:
    memory = result.encoder[_memory_name(result)]
    n, d = memory.shape[-2:]
    paragraphs = [ctx.t("intro.p1", n=n, d=d),
                  ctx.t("intro.greedy") if result.beam == 1 else
                  ctx.t("intro.beam", beam=result.beam, alpha=result.alpha)]
    matrix = Matrix(_memory_name(result), "M", memory, _src_tokens(result, vocab),
                    [f"d{j}" for j in range(d)])
    return Section("decode.encoder", "13", ctx.t("intro.title", src=src), paragraphs,
                   formula=r"p(y_t | y_{<t}, x) = \mathrm{softmax}(Y_t W_{out} + b_{out})",
                   equation=[matrix], callouts=[Callout("D9", ctx.t("d9"))],
                   steps=[_memory_name(result)], phase="decode")


def _step(step, number: int, result, vocab, ctx) -> Section:
    tape, prefix = step.tape, step.prefixes[0]
    layers = sorted({s.name.split(".")[1] for s in tape.steps if s.name.startswith("decoder.")
                     and s.name.split(".")[1].isdigit()}, key=int)
    last = layers[-1]
    paragraphs = [ctx.t("step.p1", prefix=" ".join(vocab.decode(prefix)), n=len(prefix),
                        steps=len(tape.steps)),
                  ctx.t("step.p2", layer=int(last) + 1)]
    pattern = tape[f"decoder.{last}.cross_attn.pattern"][0][:, -1, :]
    src_tokens = _src_tokens(result, vocab)
    equation = [Matrix(f"decoder.{last}.cross_attn.pattern", "A", pattern,
                       [f"head {h + 1}" for h in range(pattern.shape[0])], src_tokens,
                       kind="pattern", note=ctx.t("cross", n=len(prefix)))]
    top = step.top[0]
    equation.append(Matrix("generator.probs", "p", np.array([p for _, p in top]),
                           cols=vocab.decode([i for i, _ in top]), kind="vector",
                           note=ctx.t("top", k=len(top))))
    if len(step.prefixes) > 1:
        paragraphs.append(ctx.t("step.hyps", k=len(step.prefixes),
                                prefix=" ".join(vocab.decode(prefix))))
    paragraphs += _choice(step, vocab, ctx)
    return Section(f"decode.{number}", "13", ctx.t("step.title", t=number), paragraphs,
                   formula=tape.index["generator.probs"].formula, equation=equation,
                   steps=["generator.logits", "generator.probs"], phase="decode")


def _choice(step, vocab, ctx) -> list[str]:
    if len(step.chosen) == 1 and len(step.prefixes) == 1 and step.chosen[0][0] == 0 \
            and step.top[0][0][0] == step.chosen[0][1]:
        word_id, p = step.top[0][0]
        word = vocab.decode([word_id])[0]
        return [ctx.t("step.end" if word == "<end>" else "step.greedy", word=word, p=p)]
    lines = [ctx.t("step.beam")]
    for h, word_id, score in step.chosen:
        words = vocab.decode(step.prefixes[h][1:] + [word_id])
        lines.append(ctx.t("hyp", text=" ".join(words), score=score,
                           done=ctx.t("done") if words[-1] == "<end>" else ""))
    return ["\n".join(lines)]


def _result(result, ctx, src) -> Section:
    paragraphs = [ctx.t("result.p1", src=src, out=" ".join(result.tokens)),
                  ctx.t("result.greedy" if result.beam == 1 else "result.beam",
                        score=result.score)]
    if not result.finished:
        paragraphs.append(ctx.t("limit", n=len(result.steps)))
    return Section("decode.result", "13", ctx.t("result.title"), paragraphs, phase="decode")
