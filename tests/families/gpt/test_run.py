"""The GPT family through the pipeline: its tape's names in order, the text shifted by one, the
options it refuses, central finite differences on a few parameters, and the walk in every
format (terminal, Markdown, HTML, JSON and back, figures; the workbook refused by name when the
embeddings are tied)."""

import numpy as np
import pytest
from click.testing import CliRunner

import handformer
from handformer import narrate
from handformer.cli import main
from handformer.engine.tape import Tape
from handformer.errors import HandformerError
from handformer.families.gpt.config import GptConfig
from handformer.families.gpt.model import forward
from handformer.files import tape_json

NAMES = [  # pre-norm, one layer, tied (view steps of the heads left out)
    "ids", "embed.tok", "embed.pos", "embed.out", "decoder.0.ln1.out",
    "decoder.0.self_attn.q", "decoder.0.self_attn.k", "decoder.0.self_attn.v",
    "decoder.0.self_attn.scores", "decoder.0.self_attn.masked", "decoder.0.self_attn.pattern",
    "decoder.0.self_attn.z", "decoder.0.self_attn.concat", "decoder.0.self_attn.out",
    "decoder.0.self_attn.resid", "decoder.0.ln2.out", "decoder.0.ffn.pre", "decoder.0.ffn.act",
    "decoder.0.ffn.out", "decoder.0.ffn.resid", "decoder.0.out", "decoder.norm.out",
    "generator.w", "generator.logits", "generator.probs", "loss"]
POST_NAMES = [
    "decoder.0.self_attn.out", "decoder.0.ln1.resid", "decoder.0.ln1.out", "decoder.0.ffn.pre",
    "decoder.0.ffn.act", "decoder.0.ffn.out", "decoder.0.ln2.resid", "decoder.0.ln2.out",
    "decoder.0.out", "generator.logits", "generator.probs", "loss"]


@pytest.fixture(scope="module")
def walked():
    return handformer.walk(family="gpt", backward=True)


def test_the_tape_names_every_step_in_order(walked):
    assert [s.name for s in walked.steps if not s.view] == NAMES
    post = handformer.walk(family="gpt", norm="post", tie_embeddings=False)
    assert [s.name for s in post.steps if not s.view][-len(POST_NAMES):] == POST_NAMES
    assert "decoder.norm.out" not in post.index and "generator.w" in post.params


def test_the_target_is_the_text_shifted_by_one(walked):
    words = "when you play the game of thrones you win or you die".split()
    assert walked.meta["family"] == "gpt"
    assert walked.meta["tgt"]["tokens"] == ["<start>", *words]
    assert walked.meta["target"]["tokens"] == [*words, "<end>"]
    assert walked.meta["target"]["ids"][:-1] == walked.meta["tgt"]["ids"][1:]
    p = walked["generator.probs"]
    by_hand = -np.mean(np.log(p[np.arange(13), walked.meta["target"]["ids"]]))
    assert abs(float(walked["loss"]) - by_hand) < 1e-12


def test_one_sgd_step_lowers_the_loss(walked):
    before, after = float(walked["loss"]), walked.meta["update"]["loss_after"]
    assert after < before
    name = "decoder.0.self_attn.w_q"
    old, g, new = walked.updates[name]
    np.testing.assert_array_equal(new, old - 0.1 * g)


def loss_of(params, cfg, ids, targets):
    tape = Tape(params, record=False)
    logits = forward(tape, cfg, ids)
    tape.run("loss", "cross_entropy", [logits], {"targets": np.asarray(targets),
                                                 "weights": np.ones(len(ids))})
    return float(tape["loss"])


@pytest.mark.parametrize("norm", ["pre", "post"])
@pytest.mark.parametrize("name, at", [("embed.weight", (6, 2)), ("embed.weight", (20, 0)),
                                      ("decoder.0.self_attn.w_k", (1, 4)),
                                      ("decoder.0.ln1.gamma", (3,)), ("decoder.0.ffn.b_1", (5,))])
def test_central_differences_agree_with_the_reverse_pass(walked, norm, name, at):
    """(L(θ + h) − L(θ − h)) / 2h for entries of a few parameters; (20, 0) is "storm", a row of
    E that only the output layer uses."""
    cfg = GptConfig(norm=norm)
    ids, targets = walked.meta["tgt"]["ids"], walked.meta["target"]["ids"]
    params = {k: v.copy() for k, v in walked.params.items()}
    tape = Tape(params)
    logits = forward(tape, cfg, ids)
    tape.run("loss", "cross_entropy", [logits], {"targets": np.asarray(targets),
                                                 "weights": np.ones(len(ids))})
    tape.backward("loss")
    h = 1e-6
    plus, minus = ({k: v.copy() for k, v in params.items()} for _ in range(2))
    plus[name][at] += h
    minus[name][at] -= h
    numeric = (loss_of(plus, cfg, ids, targets) - loss_of(minus, cfg, ids, targets)) / (2 * h)
    assert abs(numeric - tape.grads[name][at]) < 1e-8


def test_options_the_family_does_not_take_are_refused_by_name():
    with pytest.raises(HandformerError, match="--encoder-layers: it has no encoder"):
        handformer.walk(family="gpt", encoder_layers=2)
    with pytest.raises(HandformerError, match="presets tutorial, small, llama, not 'paper'"):
        handformer.walk(family="gpt", preset="paper")
    with pytest.raises(HandformerError, match="norm must be 'pre'"):
        handformer.walk(family="gpt", norm="middle")
    with pytest.raises(HandformerError, match="text is empty"):
        handformer.walk(family="gpt", src="", tgt="")


def test_the_story_tells_what_changed_and_the_tied_gradient(walked):
    for lang, words in (("en", ("no memory M", "causal mask does all the work")),
                        ("zh", ("没有记忆 M", "因果掩码"))):
        sections = narrate.build(walked, lang)
        text = " ".join(" ".join(s.paragraphs) for s in sections)
        assert all(w in text for w in words)
        tied = next(s for s in sections if s.id == "grad.embed.weight.tied")
        # the worked entry: the lookup's share + the output layer's = the table's gradient
        g_x, g_w, g_e = (walked.grads[n] for n in ("embed.tok", "generator.w", "embed.weight"))
        t, w = 1, walked.meta["tgt"]["ids"][1]  # "when", used once
        j = int(np.argmax(np.abs(g_x[t])))  # the column where the lookup's share is largest
        assert abs(g_x[t, j] + g_w[j, w] - g_e[w, j]) < 1e-12
        assert f"{g_e[w, j]:.3f}" in tied.paragraphs[1]


@pytest.mark.parametrize("fmt", ["terminal", "markdown", "html", "json", "svg"])
def test_walk_in_every_format(tmp_path, fmt):
    out = tmp_path / f"gpt.{fmt}"
    args = ["walk", "--family", "gpt", "--backward", "--format", fmt, "-o", str(out)]
    if fmt == "svg":
        args += ["--step", "decoder.0.self_attn.head.0.pattern"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    if fmt == "json":
        again = tape_json.loads(text)
        assert again.meta["family"] == "gpt" and "generator.w" in again.grads
    elif fmt != "svg":
        assert "decoder-only" in text


def test_the_workbook_is_refused_by_name_when_tied(tmp_path):
    pytest.importorskip("xlsxwriter")
    result = CliRunner().invoke(main, ["walk", "--family", "gpt", "--format", "xlsx", "-o",
                                       str(tmp_path / "g.xlsx")])
    assert result.exit_code == 2 and "'generator.w' (op 'transpose')" in result.output
