"""walk --backward --shards N: one step's gradient of the corpus's pairs, whole and as N data
shards; the token-weighted sum of the shards' gradients is the whole batch's gradient, and the
whole batch's gradient is checked against central finite differences of a loss written here
(each pair walked alone, unpadded, weighted by its target tokens by hand)."""

import json
import re

import numpy as np
import pytest
from click.testing import CliRunner

import handformer
from handformer import i18n, narrate
from handformer.cli import main
from handformer.families.transformer.config import preset
from handformer.families.transformer.run import run_forward, setup
from handformer.render import markdown
from handformer.render.terminal import screen as terminal
from handformer.train.data import default_pairs
from support.marked import document_words, marked, unmarked

H = 1e-6
# The tutorial's three pairs (cut at the first comma, "." and "," dropped), counted by hand:
# "i drink and i know things" 6 words, "you win or you die" 5, "he brings the storm" 4; each
# target also predicts <end>.
TOKENS = [7, 6, 5]


@pytest.fixture(scope="module")
def told():
    return handformer.walk(backward=True, shards=3).meta["shards"]


def test_weighted_sum_of_the_shards_is_the_whole_batch_gradient(told):
    assert told["param"] == "generator.b" and told["shard_pairs"] == 1
    assert told["shard_tokens"] == TOKENS and told["tokens"] == sum(TOKENS)
    whole, average = np.array(told["whole"]), np.array(told["average"])
    by_hand = sum(n / sum(TOKENS) * np.array(g)
                  for n, g in zip(TOKENS, told["shard_grads"], strict=True))
    assert np.abs(by_hand - whole).max() < 1e-12
    assert np.abs(average - whole).max() < 1e-12 and told["max_difference"] < 1e-12
    plain = np.mean(told["shard_grads"], axis=0)  # unequal counts: the plain mean misses
    assert np.abs(plain - whole).max() > 1e-3
    assert told["plain_difference"] == pytest.approx(np.abs(plain - whole).max(), abs=1e-15)


def _batch_loss(s, params) -> float:
    """Σ_i (n_i / n) L_i: each pair walked alone (no padding), its mean loss weighted by its
    tokens; the mean over all the batch's target tokens."""
    s.params = params
    losses = [float(run_forward(s, src, tgt, record=False)["loss"]) for src, tgt in default_pairs()]
    return sum(n * loss for n, loss in zip(TOKENS, losses, strict=True)) / sum(TOKENS)


def test_the_whole_batch_gradient_equals_central_differences(told):
    s = setup(preset("tutorial"))
    whole = np.array(told["whole"])
    for word in ("i", "storm", "<end>"):
        j = s.vocab.tokens.index(word)
        up, down = ({**s.params, "generator.b": s.params["generator.b"].copy()} for _ in "ud")
        up["generator.b"][j] += H
        down["generator.b"][j] -= H
        numeric = (_batch_loss(s, up) - _batch_loss(s, down)) / (2 * H)
        assert abs(whole[j]) > 1e-4 and numeric == pytest.approx(whole[j], abs=1e-8)


def test_walk_shows_the_section_in_english_and_chinese():
    en = CliRunner().invoke(main, ["walk", "--backward", "--shards", "3", "--width", "400"])
    assert en.exit_code == 0, en.output
    assert "Many machines: the gradient of shards" in en.output
    assert "nₖ = 7, 6, 5 target tokens" in en.output and "DistributedDataParallel" in en.output
    zh = CliRunner().invoke(main, ["walk", "--backward", "--shards", "3", "--lang", "zh"])
    assert zh.exit_code == 0 and "多台机器：分片的梯度" in zh.output and "7、6、5" in zh.output
    plain = CliRunner().invoke(main, ["walk", "--backward", "--steps", "15"])
    assert "Many machines" not in plain.output


def test_equal_token_counts_make_the_plain_mean(tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_text("a b, c d\nc d, a b\nb a, d c\nd c, b a\n")
    out = CliRunner().invoke(main, ["walk", "--corpus", str(corpus), "--src", "a b", "--tgt",
                                    "c d", "--backward", "--shards", "2", "--width", "200"])
    assert out.exit_code == 0, out.output
    assert "every weight is 1/N" in out.output and "first 4 sentence pairs" in out.output


@pytest.mark.parametrize("args, says", [
    (["--backward", "--shards", "2"], "--shards 2: the batch holds 3 sentence pairs"),
    (["--backward", "--shards", "1"], "--shards 1: the batch holds 3 sentence pairs"),
    (["--shards", "3"], "--shards shows gradients: add --backward"),
])
def test_a_shard_count_that_does_not_fit_is_one_line_and_exit_2(args, says):
    out = CliRunner().invoke(main, ["walk", *args])
    assert out.exit_code == 2 and out.output.startswith(f"error: {says}")
    assert len(out.output.strip().splitlines()) == 1


def test_the_json_tape_keeps_the_shards_and_a_damaged_field_is_refused(tmp_path):
    path = tmp_path / "t.json"
    out = CliRunner().invoke(main, ["walk", "--backward", "--shards", "3", "--format", "json",
                                    "-o", str(path)])
    assert out.exit_code == 0, out.output
    again = CliRunner().invoke(main, ["render", str(path), "--width", "120"])
    assert again.exit_code == 0 and "Many machines: the gradient of shards" in again.output
    data = json.loads(path.read_text())
    data["shards"]["shard_grads"][1] = data["shards"]["shard_grads"][1][:-1]
    path.write_text(json.dumps(data))
    bad = CliRunner().invoke(main, ["render", str(path)])
    assert bad.exit_code == 2 and "every gradient must have the shape" in bad.output


def test_every_sentence_of_the_section_comes_from_the_language_table():
    tape = handformer.walk(backward=True, shards=3)
    i18n.register("xx", marked(i18n.table("en")))
    try:
        sections = [s for s in narrate.build(tape, "xx") if s.id == "grad.shards"]
        allowed = document_words(sections)
        assert len(sections) == 1 and unmarked(terminal.render_text(sections, width=400),
                                                allowed) == set()
        page = markdown.render_sections(sections, lang="xx").split("$$")[0]
        assert unmarked(re.sub(r"<[^>]*>|`[^`]*`", " ", page), allowed) == set()  # text only
    finally:
        i18n.unregister("xx")
