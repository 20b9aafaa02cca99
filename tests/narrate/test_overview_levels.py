"""The walkthrough as a lesson (issue 9, narration): the overview and the recap, --level, every
column the text talks about, the worked cell, the loss after the update, Chinese line breaks."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from click.testing import CliRunner

from handformer import api, narrate
from handformer.cli import main
from handformer.families.transformer.config import Config
from handformer.families.transformer.run import Setup, run_forward
from handformer.render.terminal.screen import render_text
from handformer.text import TUTORIAL_SRC, TUTORIAL_TGT, Vocab


def walk(*args: str) -> str:
    result = CliRunner().invoke(main, ["walk", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_the_overview_opens_with_the_model_actually_run(tape):
    sections = narrate.build(api.walk(preset="small"))
    first = sections[0]
    assert first.id == "overview" and first.level == "overview"
    arch = first.architecture
    encoder = next(b for b in arch.blocks if b.id == "encoder")
    assert len([b for b in encoder.children if b.kind == "stack"]) == 2  # small: 2 layers
    assert arch.sizes["d_model"] == 32 and arch.sizes["heads"] == 4
    ids = {s.id for s in sections}

    def every(block):
        yield block
        for child in block.children:
            yield from every(child)

    linked = [b for top in arch.blocks for b in every(top)]
    assert all(b.section in ids for b in linked), [b.id for b in linked if b.section not in ids]
    assert sections[-1].id == "recap"


def test_levels_grow_from_overview_to_all(tape):
    overview, steps, every = (render_text(narrate.build(tape, level=lvl))
                              for lvl in ("overview", "steps", "all"))
    lines = [len(t.splitlines()) for t in (overview, steps, every)]
    assert lines[0] < 120 < lines[1] < lines[2]
    logits = next(s for s in narrate.build(tape) if s.id == "generator.logits")
    assert f"Step {logits.panel} · Compute the predicted" in overview and "Recap" in overview and "[" not in overview.split(
        "Recap")[0].split("The steps")[1]  # one line per step, no matrices
    # "steps" tells the scores' explanation once; "all" at each of the five score panels
    sentence = "Every query is compared with every key by a dot product"
    assert steps.count(sentence) == 1 and every.count(sentence) == 5
    scores = next(s for s in narrate.build(tape) if s.id.endswith("head.0.scores"))
    assert f"(Explained in “Step {scores.panel} · Attention scores" in steps


def test_level_flag_and_a_bad_level():
    assert "The steps, one line each" in walk("--level", "overview")
    bad = CliRunner().invoke(main, ["walk", "--level", "some"])
    assert bad.exit_code == 2 and "overview" in bad.output


def test_recap_tells_the_prediction_read_off_the_probabilities(tape):
    recap = narrate.build(tape)[-1]
    p, vocab = tape["generator.probs"], tape.meta["vocab"]
    words = " ".join(vocab[int(i)] for i in p.argmax(-1))
    text = " ".join(recap.paragraphs)
    assert f"“{words}”" in text
    assert f"p = {p[0, vocab.index('you')]:.3f}" in text
    assert "D10" in text  # the tutorial's third takeaway, corrected without --backward


def test_the_loss_after_the_update_is_a_second_forward_pass(backward_tape):
    after = {name: upd[2] for name, upd in backward_tape.updates.items()}
    params = {**backward_tape.params, **after}
    vocab = Vocab.from_corpus(backward_tape.meta["dataset"])
    config = Config.from_dict(backward_tape.meta["config"])
    again = run_forward(Setup(config, backward_tape.meta["dataset"], vocab, params),
                            TUTORIAL_SRC, TUTORIAL_TGT)
    probs, targets = again["generator.probs"], backward_tape.meta["target"]["ids"]
    by_hand = -np.mean([math.log(probs[t, w]) for t, w in enumerate(targets)])
    assert backward_tape.meta["update"]["loss_after"] == pytest.approx(by_hand, rel=1e-12)
    assert by_hand < float(backward_tape["loss"])  # one small step down
    text = " ".join(narrate.build(backward_tape)[-1].paragraphs)
    assert f"L = {by_hand:.3f}" in text and f"L = {float(backward_tape['loss']):.3f}" in text


def test_all_25_columns_of_the_probabilities_at_width_220():
    text = walk("--steps", "13", "--width", "220")
    block = text.split("Probabilities: softmax over the vocabulary ─")[1].split("\nStep 13 · The predicted")[0]
    header = next(line for line in block.splitlines() if "<start>" in line and "<end>" in line)
    for word in ("when", "game", "thrones", "storm", "brings", "<start>", "<end>"):
        assert re.search(rf"(^|\s){re.escape(word)}(\s|$)", header), word
    assert "⋯" not in block and "+" not in header


def test_narrow_elision_says_what_it_hid_and_keeps_named_columns(tape):
    from handformer.narrate.document import Highlight
    from handformer.render.terminal.matrix import fitted

    sections = narrate.build(tape)
    probs = next(s for s in sections if s.id == "generator.probs").equation[0]
    probs.keep_cols = (20,)
    lines = [line.plain for line in fitted(probs, 3, 80)]
    header = lines[1]
    hidden = [int(x) for x in re.findall(r"\+(\d+)", header)]
    shown = len(header.split()) - len(hidden)
    assert sum(hidden) + shown == 25 and hidden
    assert tape.meta["vocab"][20] in header.split()
    probs.highlight = Highlight(cell=(0, 3), rows=(0,), cols=(3,))
    drawn = "\n".join(line.plain for line in fitted(probs, 3, 80))
    assert f"[{tape['generator.probs'][0, 3]:.3f}]" in drawn and "▾" in drawn and "▸" in drawn


def test_backward_and_update_speak_the_lessons_symbols(backward_tape):
    sections = narrate.build(backward_tape)
    told = [s for s in sections if s.phase in ("backward", "update")]
    dotted = re.compile(r"\b(encoder|decoder|generator|src_embed|tgt_embed)\.|_attn|\\_")
    for s in told:
        symbols = [m.symbol for m in s.equation if hasattr(m, "symbol")]
        assert not dotted.search(s.heading + " ".join(symbols)), (s.heading, symbols)
    titles = [s.title for s in told]
    assert "Gradient of the attention scores (decoder layer 1, cross-attention): ∂L/∂S" \
        in titles
    keys = next(s for s in told if s.id == "grad.decoder.0.cross_attn.k")
    assert "M" in " ".join(keys.paragraphs) and "∂L/∂K" in " ".join(keys.paragraphs)
    assert "∂L/∂Q" not in " ".join(keys.paragraphs)


def test_chinese_lines_obey_the_line_breaking_rules(backward_tape):
    closing, opening = set("）”’，。、：；！？》」』"), set("（“‘《「『")
    text = render_text(narrate.build(backward_tape, "zh"), width=80)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    assert not [x for x in lines if x[0] in closing], [x for x in lines if x[0] in closing][:3]
    assert not [x for x in lines if x[-1] in opening], [x for x in lines if x[-1] in opening][:3]


def test_wrapping_breaks_where_a_word_cannot_be_cut():
    from handformer.render.terminal.wrap import wrap

    # a line that must break inside a run of Chinese breaks after punctuation when it can
    lines = wrap("模型读入源句，然后逐词预测目标句中的下一个词语。", 16)
    assert lines[0] == "模型读入源句，"
    assert "".join(lines) == "模型读入源句，然后逐词预测目标句中的下一个词语。"
    # closing punctuation never starts a line, opening never ends one
    lines = wrap("一二三四五六七八“九十”。", 18)
    assert all(x[0] not in "”。" and x[-1] not in "“" for x in lines), lines


def test_the_worked_score_is_highlighted_in_the_terminal(tape):
    s = tape["encoder.0.self_attn.scores"][0]  # one head: (7, 7)
    q = tape["encoder.0.self_attn.q"][0]
    k = tape["encoder.0.self_attn.k"][0]
    j = int(np.argmax(s[0]))
    assert s[0, j] == pytest.approx(q[0] @ k[j] / 2.0)  # by hand: Q row 0 · K row j / √4
    text = walk("--steps", "7", "--width", "100")
    panel = text.split("Attention scores Q·Kᵀ / √d_k (encoder layer 1) ─")[1].split("\nStep ")[0]
    assert f"[{s[0, j]:.3f}]" in panel  # the cell the text works out
    source = tape.meta["src"]["tokens"]
    assert f"▾{source[j]}" in panel and "▸when" in panel  # its column of Kᵀ and row of Q


def test_every_input_names_the_step_that_made_it(tape):
    sections = narrate.build(tape)
    ids = {s.id: s for s in sections}
    for s in sections:
        for m in (x for x in s.equation if hasattr(x, "source")):
            assert not m.source or m.source in ids, (s.id, m.name, m.source)
        for read in s.reads:
            assert s.id in ids[read].feeds
    scores = ids["decoder.0.cross_attn.head.1.scores"]
    assert scores.reads == ["decoder.0.cross_attn.head.1.q", "decoder.0.cross_attn.head.1.k"]
    keys = ids["decoder.0.cross_attn.head.0.k"]
    assert keys.reads == ["encoder.0.ln2.out"]  # keys come from M, the encoder's output
    joined = ids["decoder.0.self_attn.out"]
    assert joined.reads == ["decoder.0.self_attn.head.0.z", "decoder.0.self_attn.head.1.z"]
    residual = ids["decoder.0.ln1.resid"]
    assert joined.paragraphs[-1].startswith(f"Next: Step {residual.panel} · Add: the residual")
    text = render_text([ids["src_embed.pos"], ids["src_embed.tok"], ids["src_embed.out"]])
    assert f"← Step {ids['src_embed.tok'].panel} · Compute the embedding" in text


def test_places_scales_and_roles_are_filled(backward_tape):
    sections = {s.id: s for s in narrate.build(backward_tape)}
    assert sections["decoder.0.cross_attn.head.1.scores"].place == (
        "Decoder", "Layer 1", "Cross-attention (keys, values from M)", "Head 2")
    assert sections["encoder.0.ln2.out"].place == ("Encoder", "Layer 1", "Add & norm 2")
    # under their phase's group, never repeating it ("Loss" under "Loss"); no two groups alike
    assert sections["loss"].place == () and sections["dataset"].place == ()
    assert sections["grad.decoder.0.ffn.pre"].place[0] == "Decoder"
    assert sections["src_embed.tok"].place == ("Source: embedding + positional encoding",)
    scores = sections["encoder.0.self_attn.head.0.scores"]
    mats = [m for m in scores.equation if hasattr(m, "scale")]
    assert {m.scale for m in mats} == {"signed"} and len({m.scale_group for m in mats}) == 1
    assert [m.role for m in mats] == ["q", "k", ""]
    d1 = next(c for c in scores.callouts if c.code == "D1").tutorial
    assert d1.scale_group == mats[0].scale_group  # the erratum pair shares one limit
    assert sections["generator.probs"].equation[0].scale == "prob"
    assert sections["encoding"].equation[0].scale == "ids"


def test_concat_columns_are_grouped_by_the_head_they_come_from(tape):
    cfg = tape.meta["config"]
    sections = {s.id: s for s in narrate.build(tape)}
    concat = sections["decoder.0.self_attn.out"].equation[0]
    # the tutorial's decoder: 2 heads of d_v = 4 columns each, z1.0 … z1.3 then z2.0 … z2.3
    assert concat.col_groups == (4, 4) == (cfg["d_v"],) * cfg["decoder_heads"]
    assert concat.cols[3:5] == ["z1.3", "z2.0"]
    assert sections["encoder.0.self_attn.out"].equation[0].col_groups == ()  # one head: no groups


def test_the_html_page_is_told_at_the_level_asked(tmp_path):
    def panels(*level: str) -> list[str]:
        out = tmp_path / "page.html"
        walk("--format", "html", "-o", str(out), *level)
        return re.findall(r'<section class="panel[^"]*" id="s-([^"]+)"', out.read_text("utf-8"))

    overview, steps = panels("--level", "overview"), panels()
    # the overview level: the big picture, the steps one line each, the recap; no step panels
    assert overview[0] == "overview" and overview[-1] == "recap" and len(overview) <= 3
    assert "encoder.0.self_attn.head.0.scores" in steps and len(steps) > 60
