"""POST /api/walk answers exactly what `handformer walk --format json` writes, and its numbers
are the attention formula's (recomputed here by hand from the tape's own Q and K)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from click.testing import CliRunner

from handformer.cli import main

CORPUS = "the storm brings the rain\nwe wait out the rain, the storm wins\n"
CASES = [
    ({}, []),
    ({"config": {"heads": 2, "d_model": 8}}, ["--heads", "2", "--d-model", "8"]),
    ({"preset": "small", "config": {"d_model": 16, "layers": 1, "seed": 3}},
     ["--preset", "small", "--d-model", "16", "--layers", "1", "--seed", "3"]),
    ({"config": {"ffn": "paper", "d_ff": 12, "scale_embeddings": True, "d_k": 3}},
     ["--ffn", "paper", "--d-ff", "12", "--scale-embeddings", "--d-k", "3"]),
    ({"src": "the storm brings the rain", "tgt": "we wait out the rain", "corpus": CORPUS},
     ["--src", "the storm brings the rain", "--tgt", "we wait out the rain", "--corpus", None]),
    ({"backward": True, "lr": 0.05, "config": {"decoder_heads": 1}},
     ["--backward", "--lr", "0.05", "--decoder-heads", "1"]),
    ({"config": {"norm": "pre", "tie_embeddings": True}, "backward": True},
     ["--norm", "pre", "--tie-embeddings", "--backward"]),
    ({"family": "gpt"}, ["--family", "gpt"]),
    ({"family": "gpt", "preset": "llama", "backward": True},
     ["--family", "gpt", "--preset", "llama", "--backward"]),
    ({"family": "gpt", "tokenizer": "bpe", "src": "when you play", "tgt": "the game"},
     ["--family", "gpt", "--tokenizer", "bpe", "--src", "when you play", "--tgt", "the game"]),
    ({"family": "gpt", "config": {"pos": "rope", "d_model": 8, "rope_pairs": "adjacent",
                                  "rope_base": 500.0, "norm_kind": "rms", "kv_heads": 1}},
     ["--family", "gpt", "--pos", "rope", "--d-model", "8", "--rope-pairs", "adjacent",
      "--rope-base", "500", "--norm-kind", "rms", "--kv-heads", "1"]),
    ({"family": "gpt", "preset": "small", "config": {"norm": "post", "tie_embeddings": False},
      "backward": True, "src": "the storm", "tgt": "brings the rain", "corpus": CORPUS},
     ["--family", "gpt", "--preset", "small", "--norm", "post", "--no-tie-embeddings",
      "--backward", "--src", "the storm", "--tgt", "brings the rain", "--corpus", None]),
    # the next token after the whole text: `--generate 1` with the same sampling switches
    ({"family": "gpt", "src": "when you play", "tgt": "the game",
      "sample": {"temperature": 0.7, "top_k": 4, "top_p": 0.9}},
     ["--family", "gpt", "--src", "when you play the game", "--generate", "1",
      "--temperature", "0.7", "--top-k", "4", "--top-p", "0.9"]),
]


def cli_json(args: list, tmp_path) -> str:
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(CORPUS, encoding="utf-8")
    args = [str(corpus) if a is None else a for a in args]
    result = CliRunner().invoke(main, ["walk", "--format", "json", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize(("body", "args"), CASES, ids=[str(i) for i in range(len(CASES))])
def test_walk_is_byte_for_byte_the_cli_json(client, body, args, tmp_path):
    status, headers, data = client.request("POST", "/api/walk", body)
    assert status == 200, data[:300]
    assert headers["content-type"].startswith("application/json")
    assert data.decode("utf-8") == cli_json(args, tmp_path)


def test_the_next_tokens_probabilities_are_the_softmax_of_the_logits_over_t(client):
    """p = softmax(z / T) of the last position's logits, recomputed here from the tape's own."""
    status, tape = client.json("POST", "/api/walk", {"family": "gpt", "sample": {"temperature": 0.5}})
    assert status == 200
    steps = {s["name"]: s for s in tape["steps"]}
    z = np.array(steps["generator.logits"]["value"])[-1] / 0.5
    by_hand = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
    np.testing.assert_allclose(np.ravel(steps["gen.0.sample.p"]["value"]), by_hand, rtol=1e-12)


def test_scores_are_q_times_k_over_root_dk(client):
    """Two heads of width 4: every score is q·k / 2, recomputed from the tape's Q and K."""
    status, tape = client.json("POST", "/api/walk", {"config": {"heads": 2, "d_model": 8}})
    assert status == 200 and tape["format"] == "handformer.tape/1"
    steps = {s["name"]: s for s in tape["steps"]}
    for head in (0, 1):
        p = f"encoder.0.self_attn.head.{head}"
        q, k = np.array(steps[f"{p}.q"]["value"]), np.array(steps[f"{p}.k"]["value"])
        assert q.shape == (7, 4)
        expected = [[sum(q[i, c] * k[j, c] for c in range(4)) / 2.0 for j in range(7)]
                    for i in range(7)]
        np.testing.assert_allclose(steps[f"{p}.scores"]["value"], expected, rtol=1e-13)


def test_panels_carry_both_languages(client):
    status, data = client.json("POST", "/api/panels", {"src": "the game", "tgt": "you die"})
    assert status == 200
    assert "定义数据集" in data["panels"].replace("<wbr>", "") and "Define the dataset" in data["panels"]
    assert data["panels"].count('<section class="panel') == data["toc"].count("<li>")
    assert set(data) == {"panels", "toc", "params"}
    assert isinstance(data["panels"], str) and isinstance(data["toc"], str)
    # the weight-edit list: every parameter's shape, the tutorial's sizes (d_model 6, d_k 4,
    # one encoder head, two decoder heads, 25 tokens)
    shapes = data["params"]
    assert (shapes["src_embed.weight"], shapes["generator.w"]) == ([25, 6], [6, 25])
    assert shapes["encoder.0.self_attn.w_q"] == [6, 4]
    assert shapes["decoder.0.cross_attn.w_q"] == shapes["decoder.0.self_attn.w_v"] == [6, 8]
    assert shapes["decoder.0.self_attn.w_o"] == [8, 6] and len(shapes) == 30


def test_contents_nest_like_the_export_and_number_as_the_panels_do(client):
    status, data = client.json("POST", "/api/panels", {"src": "the game", "tgt": "you die"})
    assert status == 200
    numbers = re.findall(r'<li><a href="#[^"]+"><span class="num">(\d+)</span>', data["toc"])
    assert numbers == [str(k) for k in range(1, len(numbers) + 1)]  # no repeats, no jumps
    zh = r'</span><span class="l-zh" lang="zh-CN">(?:[^<]|<wbr>)*</span></summary>'
    assert re.search(rf"Encoder{zh}.*?Layer 1{zh}.*?Self-attention{zh}", data["toc"], re.S)


@pytest.mark.parametrize(("body", "field", "words"), [
    ({"family": "bert"}, "family", "family must be one of gpt, transformer"),
    ({"family": "gpt", "preset": "paper"}, "preset", "presets tutorial, small, llama"),
    ({"family": "gpt", "config": {"ffn": "single"}}, "config.ffn", "ffn must be 'paper'"),
    ({"config": {"pos": "rope"}}, "config.pos", "transformer family does not take --pos"),
    ({"family": "gpt", "config": {"pos": "spiral"}}, "config.pos", "pos must be one of"),
    ({"family": "gpt", "config": {"kv_heads": 3}}, "config.kv_heads", "choose one of 1, 2"),
    ({"family": "gpt", "config": {"pos": "rope"}}, "config.d_k", "d_k must be even"),
    ({"tokenizer": "bpe"}, "tokenizer", "transformer family does not learn byte-level BPE"),
    ({"config": {"norm": "middle"}}, "config.norm", "norm must be 'post'"),
    ({"sample": {"temperature": 1}}, "sample", "transformer family writes no tokens"),
    ({"family": "gpt", "sample": {}, "backward": True}, "sample", "turn the backward walk off"),
    ({"family": "gpt", "sample": {"temperature": -1}}, "sample.temperature", "from 0 (greedy)"),
    ({"family": "gpt", "sample": {"top_k": 0}}, "sample.top_k", "1 or more"),
    ({"family": "gpt", "sample": {"top_p": 1.5}}, "sample.top_p", "in (0, 1]"),
    ({"family": "gpt", "sample": {"top_q": 1}}, "sample.top_q", "unknown field"),
])
def test_a_family_or_switch_it_cannot_build_is_refused_by_field(client, body, field, words):
    status, answer = client.json("POST", "/api/walk", body)
    assert status == 422 and answer["field"] == field and words in answer["error"], answer


def test_the_form_is_offered_each_familys_switches_and_presets_from_its_declarations(client):
    """The page's bundle lists what families/<name>/options.py declares: the form's fields
    come from there, with no family named in the page's code."""
    from handformer.families.gpt import config, options

    status, bundle = client.json("GET", "/static/ui_text.json")
    assert status == 200
    gpt = {o["name"]: o for o in bundle["family_options"]["gpt"]}
    assert set(gpt) == {o.name for o in options.OPTIONS}
    assert gpt["pos"]["choices"] == ["sinusoidal", "rope"] and gpt["kv_heads"]["kind"] == "int"
    assert "transformer" not in bundle["family_options"]
    assert bundle["family_presets"]["gpt"] == list(config.PRESETS) == list(options.PRESETS)
    for lang in ("en", "zh"):  # every field and choice has the page's words
        words = bundle["text"][lang]
        for o in gpt.values():
            assert f"opt.{o['name']}" in words
            assert all(f"opt.{o['name']}.{c}" in words for c in o["choices"])
