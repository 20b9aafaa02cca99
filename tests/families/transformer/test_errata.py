"""The errata pass: the model computes only the model; errata.annotate marks the tutorial's
numbers on a finished encoder-decoder tape; a BERT tape carries none; JSON keeps them."""

import math

import numpy as np

from handformer import api, narrate
from handformer.engine.tape import Tape
from handformer.families.bert.model import BertConfig
from handformer.families.bert.model import forward as bert_forward
from handformer.families.bert.model import param_shapes as bert_shapes
from handformer.families.transformer import errata
from handformer.families.transformer.config import preset
from handformer.families.transformer.model import forward, init_params
from handformer.files.tape_json import dumps, loads
from handformer.text import TUTORIAL_DATASET, Vocab


def tutorial_tape():
    return api.walk()


def test_the_model_alone_computes_no_tutorial_numbers():
    cfg = preset("tutorial")
    vocab = Vocab.from_corpus(list(TUTORIAL_DATASET))
    tape = Tape(init_params(cfg, len(vocab)))
    forward(tape, cfg, [5, 6, 7], [23, 6])
    assert not any("tutorial" in s.extras for s in tape.steps)
    assert "errata" not in tape.meta


def test_a_bert_tape_carries_no_tutorial_numbers():
    cfg = BertConfig(vocab_size=7, d_model=4, heads=2, layers=2, d_ff=6, max_positions=8)
    rng = np.random.default_rng(0)
    params = {n: rng.normal(size=shape) for n, shape in bert_shapes(cfg).items()}
    tape = Tape(params)
    bert_forward(tape, cfg, [2, 4, 5, 3])
    assert [s.name for s in tape.steps if "tutorial" in s.extras] == []
    assert "errata" not in tape.meta


def test_every_place_is_recorded_with_its_code():
    tape = tutorial_tape()
    codes = {}
    for record in tape.meta["errata"]:
        codes.setdefault(record["code"], []).append(record["step"])
        assert record["tutorial_step"] == errata.TABLE[record["code"]].tutorial_step
    assert codes["D1"] == ["encoder.0.self_attn.scores", "decoder.0.self_attn.scores",
                           "decoder.0.cross_attn.scores"]
    assert codes["D5"] == ["encoder.0.ln1.out", "encoder.0.ln2.out", "decoder.0.ln1.out",
                           "decoder.0.ln2.out", "decoder.0.ln3.out"]
    assert codes["D6"] == ["src_embed.pos", "tgt_embed.pos"]
    assert codes["D17"] == ["tgt.ids"]


def test_the_tutorial_numbers_by_hand():
    tape = tutorial_tape()
    q, k = tape["encoder.0.self_attn.q"][0], tape["encoder.0.self_attn.k"][0]
    d1 = tape.index["encoder.0.self_attn.scores"].extras["tutorial"][0]
    by_hand = sum(q[1, c] * k[2, c] for c in range(4)) / 6  # divided by d_model, not √d_k
    assert math.isclose(d1[1, 2], by_hand, rel_tol=1e-12)
    pe = tape.index["src_embed.pos"].extras["tutorial"]
    assert math.isclose(pe[1, 1], math.cos(1 / 10000 ** (2 * 1 / 6)), rel_tol=1e-12)  # ≈ 0.999
    r = tape["encoder.0.ln1.resid"][3]
    mu = sum(r) / 6
    sigma = math.sqrt(sum((x - mu) ** 2 for x in r) / 6)
    d5 = tape.index["encoder.0.ln1.out"].extras["tutorial"][3]
    assert math.isclose(d5[0], (r[0] - mu) / (sigma + 1e-5), rel_tol=1e-12)


def test_d17_only_for_the_tutorial_sentence():
    tape = api.walk(src="the storm", tgt="he brings the storm")
    assert "D17" not in {r["code"] for r in tape.meta["errata"]}
    record = next(r for r in tutorial_tape().meta["errata"] if r["code"] == "D17")
    assert (record["tutorial"], record["ours"]) == (6, 7)


def test_a_saved_tape_shows_the_same_errata():
    tape = tutorial_tape()
    loaded = loads(dumps(tape))
    assert loaded.meta["errata"] == tape.meta["errata"]
    for lang in ("en", "zh"):
        before = [(c.code, c.text) for s in narrate.build(tape, lang) for c in s.callouts]
        after = [(c.code, c.text) for s in narrate.build(loaded, lang) for c in s.callouts]
        assert after == before
        assert {"D1", "D5", "D6", "D17"} <= {code for code, _ in after}


def test_the_table_covers_every_code_the_narration_tells():
    told = {c.code for s in narrate.build(api.walk(backward=True)) for c in s.callouts}
    assert told <= set(errata.TABLE)


def test_a_tape_saved_before_the_errata_pass_still_shows_them():
    import json

    tape = tutorial_tape()
    data = json.loads(dumps(tape))
    del data["errata"], data["family"]  # the layout of a tape saved by an older handformer
    old = loads(json.dumps(data))
    before = [(c.code, c.text) for s in narrate.build(tape) for c in s.callouts]
    assert [(c.code, c.text) for s in narrate.build(old) for c in s.callouts] == before
    assert errata.records(old) == tape.meta["errata"]
