"""The walkthrough of the parts of today's LLMs in the decoder-only family (issue 47): RoPE,
RMSNorm, SwiGLU, grouped-query attention and the llama preset narrate in English and Chinese,
in the terminal, Markdown, HTML and a JSON tape rendered back, with and without the backward
pass; RoPE's relative-position check and its two pairings computed here by hand (math.cos and
math.sin, not the rope op); the grouped K/V counts multiplied out here."""

from __future__ import annotations

import math
import re
from functools import cache
from html import unescape

import numpy as np
import pytest

import handformer
from handformer.narrate import build
from handformer.render.html import page
from handformer.render.terminal.screen import render_text
from i18n.test_zh_plain import BANNED, english_words, sentence_words
from support.clirun import run_here

# Each switch alone, the preset, and RoPE with d_k 4 (two pairs), neighbours' pairing,
# post-norm RMSNorm and one key/value head.
SWITCHES = {
    "llama": ["--preset", "llama"],
    "rms": ["--norm-kind", "rms"],
    "swiglu": ["--ffn", "swiglu"],
    "mqa": ["--kv-heads", "1"],
    "rope": ["--pos", "rope", "--d-model", "8"],
    "mixed": ["--pos", "rope", "--d-model", "8", "--heads", "2", "--rope-pairs", "adjacent",
              "--norm", "post", "--norm-kind", "rms", "--kv-heads", "1", "--ffn", "swiglu"],
}
OPTIONS = {  # the same runs through the Python API
    "llama": dict(preset="llama"), "rms": dict(norm_kind="rms"), "swiglu": dict(ffn="swiglu"),
    "mqa": dict(kv_heads=1), "rope": dict(pos="rope", d_model=8),
    "mixed": dict(pos="rope", d_model=8, heads=2, rope_pairs="adjacent", norm="post",
                  norm_kind="rms", kv_heads=1, ffn="swiglu"),
}
# Names a Chinese text keeps in Latin letters: the parts' own names and who defined them.
NAMES = {"rope", "rms", "rmsnorm", "swiglu", "silu", "roformer", "gguf", "hugging", "face"}
TEX = re.compile(r"\\(?:frac|cdot|mathrm|sqrt|tilde|theta|varphi|odot|lceil|rceil|sigma|sum|"
                 r"left|right|quad|top|gamma|Rightarrow|rightarrow|begin)\b")


@cache
def tape(switch: str, backward: bool = True):
    return handformer.walk(family="gpt", backward=backward, **OPTIONS[switch])


def section(sections, id_: str):
    return next(s for s in sections if s.id == id_)


def turned(x, m: int, base: float, pairs: str) -> list[float]:
    """Row x at position m, every pair turned by m·θ_i, written out with math.cos/sin."""
    d, out = len(x), list(x)
    for i in range(d // 2):
        a, b = (2 * i, 2 * i + 1) if pairs == "adjacent" else (i, i + d // 2)
        angle = m * base ** (-2 * i / d)
        out[a] = x[a] * math.cos(angle) - x[b] * math.sin(angle)
        out[b] = x[b] * math.cos(angle) + x[a] * math.sin(angle)
    return out


def dot(u, v) -> float:
    return sum(a * b for a, b in zip(u, v, strict=True))


@pytest.mark.parametrize("switch", SWITCHES)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_switch_walks_in_every_format(tmp_path, switch, lang):
    backward = ["--backward"] if switch in ("llama", "mixed", "mqa") else []
    base = ["walk", "--family", "gpt", *SWITCHES[switch], *backward, "--lang", lang]
    for fmt in ("terminal", "markdown", "html", "json"):
        out = tmp_path / f"t.{fmt}"
        done = run_here(*base, "--format", fmt, "-o", out, cwd=tmp_path)
        assert done.returncode == 0, done.stderr.decode()
    again = run_here("render", tmp_path / "t.json", "--lang", lang, "--no-pager", cwd=tmp_path)
    assert again.returncode == 0, again.stderr.decode()
    terminal = (tmp_path / "t.terminal").read_text(encoding="utf-8")
    assert not TEX.search(terminal) and not TEX.search(again.stdout.decode())
    html = (tmp_path / "t.html").read_text(encoding="utf-8")
    assert 'class="tex"' not in html
    assert not TEX.search(re.sub(r"<(math|script|style)\b.*?</\1>", " ", html, flags=re.S))


@pytest.mark.parametrize("switch", ["llama", "mixed"])
def test_the_chinese_walk_has_no_english_words(switch):
    t = tape(switch)
    text = render_text(build(t, "zh"), 3, 100)
    assert not english_words(text, sentence_words(t) | NAMES)
    assert not [b for b in BANNED if b in text]
    html = page.render_sections({code: build(t, code) for code in ("en", "zh")}, 3, "t", "zh")
    for tag in ("script", "style", "math", "svg"):
        html = re.sub(rf"<{tag}\b.*?</{tag}>", " ", html, flags=re.S)
    html = re.sub(r'<(\w+) class="l-en[^"]*"[^>]*>.*?</\1>', " ", html, flags=re.S)
    words = unescape(re.sub(r"<[^>]+>", "\n", html.replace("<wbr>", "")))
    assert not english_words(words, sentence_words(t) | NAMES | {"handformer"})


@pytest.mark.parametrize("switch", ["llama", "mixed"])
def test_the_score_depends_only_on_the_distance(switch):
    """The narration's three scores against q̃_m·k̃_n computed here: at (m, n) and at
    (m + s, n + s) they agree to 1e-12, and the query moved alone gives another."""
    t, cfg = tape(switch), OPTIONS[switch]
    p = "decoder.0.self_attn"
    shown = section(build(t, "en"), f"{p}.rope.relative").equation[0]
    first, moved, alone = shown.value[0]
    m, n = len(t.meta["tgt"]["tokens"]) - 1, 1
    s = int(re.search(r"\((\d+),", shown.cols[1]).group(1)) - m
    q, k = t.index[f"{p}.q"].value[0, m], t.index[f"{p}.k"].value[0, n]
    pairs = cfg.get("rope_pairs", "half")
    by_hand = [dot(turned(q, a, 10000.0, pairs), turned(k, b, 10000.0, pairs))
               for a, b in ((m, n), (m + s, n + s), (m + s, n))]
    assert abs(first - by_hand[0]) < 1e-12 and abs(moved - by_hand[1]) < 1e-12
    assert abs(first - moved) < 1e-12 and abs(alone - by_hand[2]) < 1e-12
    assert abs(alone - first) > 1e-3
    dk = t.index[f"{p}.q"].value.shape[-1]
    assert abs(t.index[f"{p}.scores"].value[0, m, n] * math.sqrt(dk) - first) < 1e-12


def test_the_other_pairing_needs_the_columns_permuted():
    """d_k 4, neighbours' pairing: the walk's scores again under halves' pairing with each
    head's columns permuted (by hand); without the permutation they differ, as the panel says."""
    t, p = tape("mixed"), "decoder.0.self_attn"
    q, k, scores = (t.index[f"{p}.{x}"].value for x in ("q", "k", "scores"))
    back = [0, 2, 1, 3]  # neighbours (0,1), (2,3) → halves (0,2), (1,3)
    m, n = 5, 3
    right = scores[0, m, n] * 2.0
    qm, kn = [q[0, m, j] for j in back], [k[0, n, j] for j in back]
    assert abs(dot(turned(qm, m, 1e4, "half"), turned(kn, n, 1e4, "half")) - right) < 1e-12
    wrong = dot(turned(list(q[0, m]), m, 1e4, "half"), turned(list(k[0, n]), n, 1e4, "half"))
    assert abs(wrong - right) > 1e-3
    panel = section(build(t, "en"), f"{p}.rope.pairs")
    forgot = panel.equation[-1].value
    assert abs(forgot[m, n] - wrong / 2.0) < 1e-12
    assert "0, 2, 1, 3" in panel.paragraphs[1] or "0, 2, 1, 3" in " ".join(panel.paragraphs)


def test_grouped_keys_and_values_counted_by_hand():
    t = tape("llama")
    d, h, kv, dk = 8, 4, 2, 2
    table = section(build(t, "en"), "decoder.0.self_attn.gqa").equation[-1].value
    assert table.tolist() == [[d * kv * dk, d * h * dk], [d * kv * dk, d * h * dk],
                              [2 * kv * dk, 2 * h * dk]]
    assert t.params["decoder.0.self_attn.w_k"].size == d * kv * dk


def test_the_panels_read_the_tape():
    """RMSNorm's RMS column, SwiGLU's product and the worked RoPE pair are the tape's."""
    t, p = tape("llama"), "decoder.0"
    sections = build(t, "en")
    rms = section(sections, f"{p}.ln1.out").equation[2].value[:, 0]
    x = t.index["embed.out"].value
    assert np.allclose(rms, np.sqrt(np.mean(x * x, axis=-1) + 1e-5), atol=1e-15)
    h = section(sections, f"{p}.ffn.act").equation
    assert np.array_equal(h[-1].value, h[0].value * h[2].value)
    worked = section(sections, f"{p}.self_attn.head.0.rope").paragraphs[1]
    q, q_rot = t.index[f"{p}.self_attn.q"].value[0, 1], t.index[f"{p}.self_attn.q_rot"].value[0, 1]
    assert f"{q_rot[0]:.3f}" in worked and f"{q[0]:.3f}" in worked
    assert np.allclose(turned(list(q), 1, 1e4, "half"), q_rot, atol=1e-15)
    embed = section(sections, "embed.out")
    assert "Nothing is added for the positions" in " ".join(embed.paragraphs)


def test_the_plain_walk_has_none_of_the_new_panels():
    ids = {s.id for s in build(handformer.walk(family="gpt"), "en")}
    assert not [i for i in ids if ".rope" in i or ".gqa" in i or ".gate" in i]


@pytest.mark.parametrize("switch", ["llama", "mixed"])
def test_exercises_on_the_new_parts_are_answered_by_hand(switch):
    """A RoPE turn, an RMSNorm entry and a SwiGLU product: each answer, the tape's number, is
    made again here from the numbers the question gives."""
    from handformer.exercises.question import read
    from handformer.exercises.sheet import make_sheet

    t = tape(switch)
    sheet = make_sheet(t, count=9, seed=3, kinds=["rope_pair", "rms_value", "swiglu_unit"])
    assert {q.kind for q in sheet} == {"rope_pair", "rms_value", "swiglu_unit"}
    for q in sheet:
        assert q.answer == read(t, q.step, q.field, q.cell)
        given = [g.value for g in q.given]
        if q.kind == "rope_pair":
            x, partner, angle = given
            second = (q.cell[-1] % 2 == 1) if OPTIONS[switch].get("rope_pairs") == "adjacent" \
                else q.cell[-1] >= t.index[q.step].value.shape[-1] // 2
            sign = 1.0 if second else -1.0
            mine = x * math.cos(angle) + sign * partner * math.sin(angle)
        elif q.kind == "rms_value":
            row, eps, gamma = given
            mine = gamma * row[q.cell[-1]] / math.sqrt(sum(v * v for v in row) / len(row) + eps)
        else:
            g, u = given
            mine = g / (1.0 + math.exp(-g)) * u
        assert abs(mine - q.answer) < 1e-12, q
    assert run_here("exercises", "--family", "gpt", "--preset", "llama", "--lang", "zh",
                    cwd=".").returncode == 0
