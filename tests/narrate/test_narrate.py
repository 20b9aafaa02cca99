"""narrate.build: the walkthrough's sections, their errata, and numbers that equal the tape's."""

import math
import re

import numpy as np
import pytest

from handformer import api, i18n, narrate
from handformer.files import tape_json as json_tape
from handformer.narrate.document import Matrix


def by_id(sections):
    return {s.id: s for s in sections}


def matrices(section):
    found = [m for m in section.equation if isinstance(m, Matrix)]
    return found + [c.tutorial for c in section.callouts if c.tutorial is not None]


def codes(section):
    return [c.code for c in section.callouts]


def test_tutorial_sections_run_in_the_tutorials_order(tape):
    sections = narrate.build(tape)
    numbers = [s.number for s in sections]
    # The overview opens and the recap closes the walkthrough; neither has a step number.
    order = ["", "1", "2", "3", "4", "5", "6", "7", "7b", "8", "9", "10", "11", "12", "12b", "13",
             ""]
    assert [n for i, n in enumerate(numbers) if i == 0 or numbers[i - 1] != n] == order
    ids = [s.id for s in sections]
    assert ids[1:7] == ["dataset", "vocabulary", "encoding", "src_embed.tok", "src_embed.pos",
                       "src_embed.out"]
    assert ids[-2:] == ["prediction", "recap"]
    # one panel per head: 1 encoder head, 2 decoder heads in each decoder attention block
    for block, heads in (("encoder.0.self_attn", 1), ("decoder.0.self_attn", 2),
                         ("decoder.0.cross_attn", 2)):
        for h in range(heads):
            for leaf in ("q", "k", "v", "scores", "pattern", "z"):
                assert f"{block}.head.{h}.{leaf}" in ids
        assert f"{block}.head.{heads}.q" not in ids
    assert "decoder.0.self_attn.head.1.masked" in ids
    assert not any(s.phase in ("loss", "backward", "update") for s in sections)


def test_every_section_has_a_title_and_two_to_five_sentences_of_numbers(tape):
    for section in narrate.build(tape):
        assert section.title and section.paragraphs, section.id
        credit = i18n.table("en")["overview.credit"]  # who wrote the tutorial: no numbers
        text = " ".join(p for p in section.paragraphs if not p.startswith("  ") and p != credit)
        sentences = [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z“(<])", text) if s.strip()]
        assert 1 <= len(sentences) <= 6, (section.id, sentences)
        if section.phase == "forward":
            assert re.search(r"\d", text), section.id


def test_errata_are_told_at_their_steps(tape):
    sections = narrate.build(tape)
    where = {}
    for s in sections:
        for code in codes(s):
            where.setdefault(code, s.id)
    assert where == {
        "D18": "vocabulary", "D14": "src_embed.tok", "D6": "src_embed.pos",
        "D11": "encoder.0.self_attn", "D7": "encoder.0.self_attn.head.0.q",
        "D1": "encoder.0.self_attn.head.0.scores", "D8": "encoder.0.self_attn.head.0.scores",
        "D5": "encoder.0.ln1.out", "D4": "encoder.0.ffn.pre", "D9": "tgt.ids", "D17": "tgt.ids",
        "D2": "decoder.0.cross_attn", "D3": "generator.logits", "D16": "generator.logits",
        "D10": "decoder.0.self_attn.head.0.masked",
    }
    s = by_id(sections)
    assert "D8" in codes(s["decoder.0.self_attn"])  # the causal mask is never optional
    assert all("D1" in codes(s[f"decoder.0.cross_attn.head.{h}.scores"]) for h in (0, 1))
    assert "concatenating" in " ".join(s["src_embed.out"].paragraphs)


def test_d6_tells_0540_against_the_tutorials_0999(tape):
    pos = by_id(narrate.build(tape))["src_embed.pos"]
    d6 = next(c for c in pos.callouts if c.code == "D6")
    # by hand: pair index i = 0 for column 1 -> cos(1); column index c = 1 -> cos(1/10000^(2/6))
    assert f"{math.cos(1.0):.3f}" == "0.540" and "0.540" in d6.text
    assert f"{math.cos(1 / 10000 ** (2 / 6)):.3f}" == "0.999" and "0.999" in d6.text
    assert d6.tutorial.value[1, 1] == pytest.approx(math.cos(1 / 10000 ** (2 / 6)), abs=1e-15)
    assert "the tutorial" in d6.text


def test_d1_compares_the_scaling_computed_by_hand(tape):
    s = by_id(narrate.build(tape))["encoder.0.self_attn.head.0.scores"]
    q, k = tape["encoder.0.self_attn.q"][0], tape["encoder.0.self_attn.k"][0]
    ours, theirs = (q @ k.T) / 2.0, (q @ k.T) / 6.0  # 1/sqrt(d_k) = 1/2 vs 1/d_model = 1/6
    shown = {m.symbol: m.value for m in matrices(s)}
    np.testing.assert_allclose(shown["S"], ours, rtol=1e-13)
    d1 = next(c for c in s.callouts if c.code == "D1")
    np.testing.assert_allclose(d1.tutorial.value, theirs, rtol=1e-13)
    assert f"{ours[0, 0]:.3f}" in d1.text and f"{theirs[0, 0]:.3f}" in d1.text
    assert "0.333 times" in d1.text  # 2/6


def test_d5_and_layer_norm_numbers_are_the_tapes(tape):
    s = by_id(narrate.build(tape))["encoder.0.ln1.out"]
    r = tape["encoder.0.ln1.resid"]
    mu, sd = r.mean(axis=-1), np.sqrt(r.var(axis=-1) + 1e-5)
    text = " ".join(s.paragraphs)
    assert f"μ = {mu[0]:.3f}" in text and f"= {sd[0]:.3f}" in text
    d5 = next(c for c in s.callouts if c.code == "D5")
    by_hand = (r - mu[:, None]) / (r.std(axis=-1)[:, None] + 1e-5)
    np.testing.assert_allclose(tape.index["encoder.0.ln1.out"].extras["tutorial"], by_hand,
                               rtol=1e-12)
    ours = tape["encoder.0.ln1.out"]
    # identical at 3 decimals here, so the pair of matrices is not drawn, only the text
    assert np.array_equal(np.round(by_hand, 3), np.round(ours, 3)) and d5.tutorial is None
    at = np.unravel_index(np.argmax(np.abs(by_hand - ours)), ours.shape)
    assert d5.summary == f"⚠ the tutorial differs here: {by_hand[at]:.7f} vs {ours[at]:.7f}"
    i, j = np.unravel_index(np.argmax(np.abs(by_hand - ours)), ours.shape)  # where they part most
    assert f"{by_hand[i, j]:.7f}" in d5.text and f"{ours[i, j]:.7f}" in d5.text


def test_matrices_shown_are_the_tapes_values_with_labels(tape):
    src = "when you play the game of thrones".split()
    for section in narrate.build(tape):
        for m in matrices(section):
            name = m.name.removeprefix("grad.")
            if name in tape.index and not m.note:
                value = tape[name]
                if value.ndim == 3 and value.shape[0] == 1:
                    value = value[0]
                if m.value.shape == value.shape:
                    np.testing.assert_array_equal(m.value, value, err_msg=m.name)
            if m.value.ndim == 2 and m.rows and m.rows[0] == "when":
                assert m.rows == src, m.name
    pattern = by_id(narrate.build(tape))["decoder.0.self_attn.head.1.pattern"].equation[-1]
    np.testing.assert_array_equal(pattern.value, tape["decoder.0.self_attn.pattern"][1])
    assert pattern.kind == "pattern" and pattern.cols == pattern.rows


def test_prediction_is_told_honestly(tape):
    s = by_id(narrate.build(tape))["prediction"]
    p = tape["generator.probs"]
    picked = [tape.meta["vocab"][i] for i in p.argmax(axis=-1)]
    text = " ".join(s.paragraphs)
    assert " ".join(picked) in text
    right = sum(a == b for a, b in zip(picked, tape.meta["target"]["tokens"], strict=True))
    assert f"{right} of 6" in text
    assert "random" in text and "untrained" in text and "by luck" in text
    np.testing.assert_allclose(s.equation[0].value[:, 1], p.max(axis=-1))


def test_backward_adds_loss_gradients_and_updates(backward_tape):
    sections = narrate.build(backward_tape)
    phases = [s.phase for s in sections]
    first = {p: phases.index(p) for p in ("loss", "backward", "update")}
    assert first["loss"] < first["backward"] < first["update"]
    # the updates run to the end, where the recap closes the walkthrough
    assert phases[first["update"]:] == ["update"] * (len(phases) - first["update"] - 1) + ["recap"]
    assert sections[-1].id == "recap"
    s = by_id(sections)
    loss = s["loss"]
    terms = loss.equation[0].value
    assert float(backward_tape["loss"]) == pytest.approx(terms[:, 1].mean(), rel=1e-12)
    assert f"{float(backward_tape['loss']):.4f}" in " ".join(loss.paragraphs)
    grads = [x for x in sections if x.phase == "backward"]
    assert grads[0].id == "grad.generator.logits" and grads[0].title == "Gradient of the logits: ∂L/∂logits"
    assert "D9" in codes(grads[0])
    assert "D10" in codes(s["grad.decoder.0.self_attn.scores"])
    starved = float(np.abs(backward_tape.grads["decoder.0.self_attn.scores"]).max())
    assert starved < 1e-3 and "D14" in codes(s["grad.decoder.0.self_attn.scores"])
    assert len(grads) < 40  # grouped: not one empty panel per tape entry
    update = s["update.generator.w"]
    before, g, after = (m.value for m in matrices(update))
    np.testing.assert_allclose(after, before - 0.1 * g, rtol=1e-13)
    assert "0.1" in update.formula
    assert len([x for x in sections if x.phase == "update"]) == len(backward_tape.updates)


def test_languages_share_section_ids_and_zh_is_chinese(backward_tape):
    en, zh = narrate.build(backward_tape, "en"), narrate.build(backward_tape, "zh")
    assert [s.id for s in en] == [s.id for s in zh]
    assert [s.number for s in en] == [s.number for s in zh]
    assert [codes(s) for s in en] == [codes(s) for s in zh]
    han = re.compile(r"[\u4e00-\u9fff]")
    for s in zh:
        assert han.search(s.title), s.title
        assert all(han.search(p) for p in s.paragraphs if not p.startswith("  ")), s.id
    titles = [s.heading for s in zh]
    # the panel's number first, then the tutorial's own name of the step (issue 19)
    assert all(t.startswith(f"第 {s.panel} 步 · ") for s, t in zip(zh, titles, strict=True))
    first = next(s for s in zh if s.id == "dataset")
    assert first.tutorial_label == "原教程第 1 步"
    for term in ("定义数据集", "计算词汇量", "编码", "计算嵌入", "位置编码", "多头注意力", "残差连接与层归一化", "添加和归一化", "前馈网络",
                 "解码器", "掩码多头注意力", "计算预测单词"):
        assert any(term in t for t in titles), term


def test_unknown_language_is_a_user_error(tape):
    from handformer.errors import HandformerError

    with pytest.raises(HandformerError, match="en, zh"):
        narrate.build(tape, "fr")


def test_small_preset_shows_every_head_of_the_first_layer_only():
    tape = api.walk(preset="small", backward=True)
    sections = narrate.build(tape)
    ids = {s.id for s in sections}
    assert {f"encoder.0.self_attn.head.{h}.pattern" for h in range(4)} <= ids
    assert "encoder.1.self_attn.out" in ids and "encoder.1.self_attn.head.0.q" not in ids
    assert {"encoder.norm.out", "decoder.norm.out", "src_embed.scaled"} <= ids
    assert "D14" not in {c for s in sections for c in codes(s)}  # xavier init: not saturated
    d4 = next(c for s in sections for c in s.callouts if c.code == "D4")
    assert "d_ff = 64" in d4.text


@pytest.mark.slow
def test_paper_preset_is_narrated_with_its_sizes():
    tape = api.walk(preset="paper")
    sections = narrate.build(tape)
    s = by_id(sections)
    assert "D18" not in codes(s["vocabulary"])
    assert s["encoder.0.self_attn.head.0.q"].equation[-1].shape == (7, 64)
    assert "encoder.0.self_attn.head.4.q" not in s  # heads beyond MAX_HEADS are told, not drawn
    assert "8" in " ".join(s["encoder.0.self_attn"].paragraphs)
    assert len(sections) < 200


def test_a_tape_loaded_from_json_without_params_shows_shapes_only(backward_tape):
    data = json_tape.tape_to_dict(backward_tape)
    data.pop("params", None)
    import json

    loaded = json_tape.loads(json.dumps(data))
    sections = narrate.build(loaded)
    assert [s.id for s in sections] == [s.id for s in narrate.build(backward_tape)]
    q = by_id(sections)["encoder.0.self_attn.head.0.q"]
    assert q.equation[2] == r"W^{Q}\ (6 \times 4)"  # symbol and shape, no numbers
    np.testing.assert_array_equal(q.equation[-1].value, backward_tape["encoder.0.self_attn.q"][0])


def test_a_batched_tape_is_told_through_its_first_sentence():
    from handformer.engine.tape import Tape
    from handformer.families.transformer.config import preset
    from handformer.families.transformer.model import forward, init_params
    from handformer.text import TUTORIAL_DATASET, Vocab

    cfg = preset("small")
    vocab = Vocab.from_corpus(TUTORIAL_DATASET, specials=("<pad>", "<start>", "<end>"))
    tape = Tape(init_params(cfg, len(vocab)))
    tape.meta.update(config=cfg.to_dict(), vocab=vocab.tokens, dataset=list(TUTORIAL_DATASET))
    src = np.array([[5, 6, 7, 0], [8, 9, 10, 11]]) + np.array([[0, 0, 0, 0], [0, 0, 0, 0]])
    src[0, 3] = vocab.id("<pad>")
    tgt = np.array([[vocab.id("<start>"), 6], [vocab.id("<start>"), 12]])
    forward(tape, cfg, src, tgt, src_pad=src == vocab.id("<pad>"), tgt_pad=None)
    sections = narrate.build(tape)
    s = by_id(sections)
    mask = s["encoder.0.self_attn.head.0.masked"]
    assert mask.equation[0].cols[-1] == "<pad>"
    assert np.isinf(mask.equation[0].value[:, -1]).all()
    assert "D8" in [c.code for c in mask.callouts]


@pytest.mark.parametrize("overrides", [
    dict(src="the storm", tgt="he brings the storm"),
    dict(layers=2),
    dict(heads=3, d_model=6, d_k=2),
    dict(preset="small", heads=8, final_norm=False, attn_bias=False),
    dict(preset="small", ffn="single", scale_embeddings=False),
    dict(src="i", tgt="die"),
])
def test_any_config_narrates_in_both_languages(overrides):
    from handformer.render.terminal.screen import render_text

    tape = api.walk(backward=True, **overrides)
    en, zh = narrate.build(tape, "en"), narrate.build(tape, "zh")
    assert [s.id for s in en] == [s.id for s in zh]
    assert len({s.id for s in en}) == len(en)  # ids are unique anchors
    heads = tape["encoder.0.self_attn.q"].shape[0]
    ids = {s.id for s in en}
    assert {f"encoder.0.self_attn.head.{h}.z" for h in range(min(heads, 4))} <= ids
    chosen = narrate.select(zh, "12-16")
    update = next(s for s in chosen if s.phase == "update")
    assert f"第 {update.panel} 步 · " in render_text(chosen, width=80)


def test_the_decoder_positional_claim_holds(tape):
    # the narration says the decoder's PE rows equal the encoder's first rows: check it
    n = tape["tgt_embed.pos"].shape[0]
    np.testing.assert_array_equal(tape["tgt_embed.pos"], tape["src_embed.pos"][:n])
    text = " ".join(by_id(narrate.build(tape))["tgt_embed.pos"].paragraphs)
    assert f"the source's first {n} rows" in text
