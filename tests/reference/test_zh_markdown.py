"""The numbers of the Chinese Markdown walkthrough (`handformer walk --lang zh --format
markdown`), read back out of the text and held against the NumPy reference: every matrix a
step shows as its result, and the numbers the narration quotes (a row, a sum, μ and σ, the
highest score, a share of attention, a probability), each as three decimals."""

import re

import numpy as np
import pytest
from click.testing import CliRunner

import handformer
from handformer.cli import main

from .check import reference_of
from .tutorial import TUTORIAL

MATRIX = re.compile(r"\\underbrace\{[^{}=]*(?:\{[^{}]*\}[^{}=]*)* = \\begin\{bmatrix\}"
                    r"((?:(?!\\end\{bmatrix\}).)*)\\end\{bmatrix\}\}_\{(\d+)(?: \\times (\d+))?\}")
NUM = r"(-?\d+\.\d{3})"


def f3(x) -> str:
    """Three decimals, no "-0.000"; −∞ as LaTeX writes it; a token id as it is."""
    if isinstance(x, (int, np.integer)):
        return str(x)
    if np.isinf(x):
        return r"-\infty" if x < 0 else r"\infty"
    text = f"{x:.3f}"
    return "0.000" if text == "-0.000" else text


@pytest.fixture(scope="module")
def walk():
    tape = handformer.walk(backward=True)
    return tape, reference_of(tape, TUTORIAL)


@pytest.fixture(scope="module")
def sections() -> dict[str, str]:
    """Each step's text without the tutorial's quoted variants (the "> " callouts)."""
    result = CliRunner().invoke(main, ["walk", "--lang", "zh", "--format", "markdown"])
    assert result.exit_code == 0, result.output
    parts = re.split(r'<a id="s-([^"]+)"></a>', result.stdout)
    return {name: "\n".join(line for line in text.splitlines() if not line.startswith(">"))
            for name, text in zip(parts[1::2], parts[2::2], strict=True)}


def value_of(ref, name: str):
    """The reference's value of a step, or of one head of it (``….head.H.x``); "encoding"
    shows the source ids, "tgt.ids" the decoder's ids above the targets, "prediction" each
    position's p(target) and p(the word picked)."""
    if name == "encoding":
        return ref.values["src.ids"]
    if name == "tgt.ids":
        return np.stack([ref.values[name], ref.targets])
    if name == "prediction":
        p = ref.values["generator.probs"]
        return np.stack([p[np.arange(len(p)), ref.targets], p.max(axis=1)], axis=1)
    head = re.fullmatch(r"(.+)\.head\.(\d+)\.(\w+)", name)
    if head:
        return ref.values[f"{head[1]}.{head[3]}"][int(head[2])]
    return ref.values.get(name)


def test_every_result_matrix_is_the_references(sections, walk):
    _, ref = walk
    checked = 0
    for name, text in sections.items():
        value = value_of(ref, name)
        found = MATRIX.findall(text)
        if value is None or not found:
            continue
        body, rows, cols = found[-1]
        value = np.atleast_2d(value)
        assert ((int(rows), int(cols)) if cols else (1, int(rows))) == value.shape, name
        for r, line in enumerate(body.strip().split(r" \\ ")):
            shown, want = line.split(" & "), [f3(x) for x in value[r]]
            if r"\cdots" in shown:  # elided: the leading and the trailing columns
                head, tail = shown.index(r"\cdots"), shown[::-1].index(r"\cdots")
                shown, want = shown[:head] + shown[-tail:], want[:head] + want[-tail:]
            assert shown == want, (name, r)
        checked += 1
    # every section but the overview, dataset, vocabulary, recap and 3 attention headings
    assert checked == len(sections) - 7 == 60


def test_quoted_rows_are_row_one_of_their_step(sections, walk):
    _, ref = walk
    quoted = 0
    for name, text in sections.items():
        for row in re.findall(r"(?:”取出的是|”得到|%，得到) \\\[([^\]]*)\\\]", text):
            assert row.split(", ") == [f3(x) for x in value_of(ref, name)[0]], name
            quoted += 1
    assert quoted == 22  # 2 embeddings, Q K V of 5 heads, Z of 5 heads


def test_sums_and_layer_norms_quoted_for_the_first_word(sections, walk):
    tape, ref = walk
    sums = norms = 0
    for name, text in sections.items():
        for a, b, c in re.findall(rf"d0 列(?:为例)?：{NUM} \+ {NUM} = {NUM}", text):
            x, y = (value_of(ref, n)[0, 0] for n in tape.index[name].inputs)
            assert (a, b, c) == (f3(x), f3(y), f3(ref.values[name][0, 0])), name
            sums += 1
        for mu, sd, x, mu2, sd2, y in re.findall(
                rf"μ = {NUM}，√\(σ² \+ ε\) = {NUM}，所以它的第一个数变成 \({NUM} − {NUM}\) / {NUM}"
                rf" = {NUM}", text):
            row = ref.values[tape.index[name].inputs[0]][0]
            sigma = np.sqrt(((row - row.mean()) ** 2).mean() + 1e-5)
            assert (mu, sd, x, mu2, sd2) == (f3(row.mean()), f3(sigma), f3(row[0]),
                                             f3(row.mean()), f3(sigma)), name
            assert y == f3(ref.values[name][0, 0]), name
            norms += 1
    assert sums == 7 and norms == 5  # two inputs, five residual sums; five layer norms


def test_scores_and_attention_shares_quoted(sections, walk):
    tape, ref = walk
    seen = 0
    for name, text in sections.items():
        for best, val, lo, hi in re.findall(rf"和“([^”]+)”的分数最高（{NUM}）。所有分数在 {NUM} 到 {NUM}",
                                            text):
            s = value_of(ref, name)
            keys = tape.meta["src" if "encoder" in name or "cross" in name else "tgt"]["tokens"]
            j = int(np.argmax(s[0]))
            assert (best.replace("\\", ""), val, lo, hi) == (
                keys[j], f3(s[0, j]), f3(s.min()), f3(s.max())), name
            seen += 1
        for pct in re.findall(r"的值的 (\d+)%", text):
            a = value_of(ref, name.replace(".z", ".pattern"))
            assert pct == f"{100 * a[0].max():.0f}", name
            seen += 1
    assert seen == 10  # scores and z of five heads


def test_prediction_and_probabilities_quoted(sections, walk):
    tape, ref = walk
    p, vocab = ref.values["generator.probs"], tape.meta["vocab"]
    target = tape.meta["target"]["ids"]
    picked = [int(i) for i in p.argmax(axis=1)]
    best = re.search(rf"最可能的词元是“([^”]+)”，p = {NUM}；一个什么都不懂的模型会给每个词元 {NUM}",
                     sections["generator.probs"])
    assert best.groups() == (vocab[picked[0]], f3(p[0].max()), f3(1 / len(vocab)))
    text = sections["prediction"]
    chose = re.search(rf"模型选了“([^”]+)”（p = {NUM}）；正确答案是“([^”]+)”（p = {NUM}）", text)
    assert chose.groups() == (vocab[picked[0]], f3(p[0].max()), vocab[target[0]],
                              f3(p[0, target[0]]))
    right = sum(a == b for a, b in zip(picked, target, strict=True))
    said = re.search(r"(\d+) 个位置里对了 (\d+) 个；模型说的是“([^”]+)”", text)
    assert said.groups() == (str(len(target)), str(right), " ".join(vocab[i] for i in picked))
