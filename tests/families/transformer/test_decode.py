"""Greedy and beam search: on a trained tiny model, against full forward passes, and by hand."""

import math

import numpy as np
import pytest

from handformer.engine.tape import Tape
from handformer.errors import HandformerError
from handformer.families.transformer import decode
from handformer.families.transformer.config import preset
from handformer.families.transformer.model import forward, init_params
from handformer.text import END, START, Vocab, tokenize
from handformer.train import loop
from handformer.train.data import default_pairs


@pytest.fixture(scope="module")
def trained():
    run = loop.fit(loop.start(preset("tutorial"), default_pairs(), loop.Options(epochs=200)))
    return run.params, run.config, run.vocab


@pytest.mark.parametrize("beam", [1, 4])
def test_trained_model_translates_every_pair(trained, beam):
    params, cfg, vocab = trained
    for src, tgt in default_pairs():
        result = decode.translate(params, cfg, vocab, src, beam=beam, alpha=0.6)
        assert result.tokens == tokenize(tgt)


def full_forward_probs(params, cfg, src_ids, prefix):
    tape = Tape(params, record=False)
    forward(tape, cfg, np.array(src_ids), np.array(prefix))
    return tape["generator.probs"]


def test_each_step_equals_a_full_forward_pass(trained):
    params, cfg, vocab = trained
    src = "when you play the game of thrones"
    result = decode.translate(params, cfg, vocab, src, record=True, k=3)
    src_ids = vocab.encode(src)
    log_p = 0.0
    for step in result.steps:
        (prefix,), (top,), ((_, chosen, score),) = step.prefixes, step.top, step.chosen
        p = full_forward_probs(params, cfg, src_ids, prefix)[-1]
        assert chosen == int(np.argmax(p)) == top[0][0]
        np.testing.assert_allclose([q for _, q in top], np.sort(p)[::-1][:3], rtol=1e-12)
        log_p += math.log(p[chosen])
        assert score == pytest.approx(log_p, rel=1e-12)
    assert [t for t in vocab.decode([s.chosen[0][1] for s in result.steps])] == \
        "you win or you die <end>".split()
    assert "decoder.0.self_attn.head.1.pattern" in result.steps[0].tape  # recorded for --explain


def test_beam_one_is_greedy(trained):
    params, cfg, vocab = trained
    src = "the true enemy won't wait out the storm"
    greedy = decode.translate(params, cfg, vocab, src, beam=1)
    encoder, memory = decode.run_encoder(params, cfg, vocab.encode(src), False)
    for stepper in (decode.Cached, decode.Recompute):
        search = stepper(params, cfg, encoder[memory], memory, False)
        ids, score, _, _ = decode._beam(search, vocab, 1, 0.0, 20, 3)
        assert ids == greedy.ids and score == pytest.approx(greedy.score, rel=1e-12)


# A hand-made model: after <start>, "a" 0.5 "b" 0.4; after "a" nothing is sure; after "b" <end>
# is almost certain. Greedy takes "a" and ends with P = 0.5·0.35·0.9 = 0.1575; beam 2 keeps "b"
# and finds P("b <end>") = 0.4·0.9 = 0.36.
TABLE = {("<start>",): [0.5, 0.4, 0.0, 0.1], ("<start>", "a"): [0.35, 0.35, 0.0, 0.3],
         ("<start>", "b"): [0.05, 0.05, 0.0, 0.9]}
OTHER = [0.05, 0.05, 0.0, 0.9]


@pytest.fixture
def hand_model(monkeypatch):
    vocab = Vocab(("a", "b"), (START, END))

    def step(params, cfg, memory, memory_name, prefixes, record):
        rows = [TABLE.get(tuple(vocab.decode(p)), OTHER) for p in prefixes]
        return None, np.array(rows)

    monkeypatch.setattr(decode, "decoder_step", step)
    monkeypatch.setattr(decode, "run_encoder", lambda *a: ({"m": np.zeros((1, 2))}, "m"))
    return vocab


def test_greedy_and_beam_by_hand(hand_model):
    cfg = preset("tutorial")
    greedy = decode.translate({}, cfg, hand_model, "a", beam=1, cache=False)
    assert greedy.tokens == ["a", "a"]
    assert greedy.score == pytest.approx(math.log(0.5 * 0.35 * 0.9))
    beam = decode.translate({}, cfg, hand_model, "a", beam=2, alpha=0.6, cache=False)
    assert beam.tokens == ["b"]
    # GNMT: log P / ((5 + |Y|) / 6)^α with |Y| = 2 ("b", <end>)
    assert beam.score == pytest.approx(math.log(0.4 * 0.9) / (7 / 6) ** 0.6)


def test_length_penalty_formula():
    assert decode.length_penalty(1, 0.6) == 1.0
    assert decode.length_penalty(7, 0.6) == pytest.approx(2 ** 0.6)
    assert decode.length_penalty(30, 0.0) == 1.0


def test_stops_at_the_length_limit():
    cfg = preset("tutorial")
    vocab = Vocab.from_corpus(["the storm"], specials=(START, END))
    params = init_params(cfg, len(vocab))
    params["generator.b"] = params["generator.b"].copy()
    params["generator.b"][vocab.id(END)] = -1e9  # <end> is never chosen: only the limit stops it
    for beam in (1, 3):
        for cache in (True, False):
            result = decode.translate(params, cfg, vocab, "the storm", beam=beam, max_length=3,
                                      cache=cache)
            assert len(result.steps) == 3 and len(result.ids) == 3 and not result.finished


def test_bad_input_is_a_clear_error(trained):
    params, cfg, vocab = trained
    with pytest.raises(HandformerError, match="dragons"):
        decode.translate(params, cfg, vocab, "dragons")
    with pytest.raises(HandformerError, match="beam"):
        decode.translate(params, cfg, vocab, "the storm", beam=0)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_explain_sections_read_the_tapes(trained, lang):
    from handformer.families.transformer.explain import build
    from handformer.render.terminal.screen import render_text

    params, cfg, vocab = trained
    result = decode.translate(params, cfg, vocab, "when you play the game of thrones",
                              record=True, k=3)
    sections = build(result, vocab, lang)
    assert [s.id for s in sections] == ["decode.encoder", *[f"decode.{i}" for i in range(1, 7)],
                                        "decode.result"]
    step = sections[2]  # word 2 = "win", chosen after "<start> you"
    probs = step.equation[1]
    assert probs.cols[0] == "win" and probs.value[0] == result.steps[1].top[0][0][1]
    pattern = step.equation[0].value
    np.testing.assert_allclose(pattern.sum(axis=-1), 1.0)  # each head's row is a distribution
    text = render_text(sections, width=120)
    assert "you win or you die" in text and ("<end>" in text)
    assert ("the most probable word" in text.lower()) == (lang == "en")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_beam_explanation_is_a_table_that_never_wraps_an_item(trained, lang):
    from handformer.families.transformer.explain import build
    from handformer.render.terminal.screen import render_text

    params, cfg, vocab = trained
    result = decode.translate(params, cfg, vocab, "when you play the game of thrones",
                              record=True, beam=3)
    sections = build(result, vocab, lang)
    step = sections[2]
    table = step.equation[-1]
    kept = result.steps[1].chosen
    assert table.value.shape == (len(kept), 1)
    for row, (h, word_id, score) in zip(table.rows, kept, strict=True):
        words = " ".join(vocab.decode(result.steps[1].prefixes[h][1:] + [word_id]))
        assert row.startswith(words) and table.value[kept.index((h, word_id, score)), 0] == score
    text = render_text(sections, width=60)
    for row, (_, _, score) in zip(table.rows, kept, strict=True):  # each item on one line
        assert any(row in line and f"{score:.3f}" in line for line in text.splitlines()), row
    assert "token(s)" not in text and "log P =\n" not in text
    first = " ".join(sections[1].paragraphs)
    assert ("position, 0 (counted from 0" in first) if lang == "en" else ("位置 0" in first)
