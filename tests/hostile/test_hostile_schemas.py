"""Class "schemas": files that parse but hold the wrong types, shapes, keys or nesting.

Tapes (render), checkpoint metadata (translate, train --resume), weights metadata (walk
--weights) and model-folder configs (walk --pretrained): each damaged field is refused on
load with one line that names it.

Every case calls ``main(argv)`` in-process (support.clirun.run_here): the process boundary is
not what these cases test.
"""

import json

import pytest

from support.clirun import bert_folder, edit_checkpoint, read_safetensors, safetensors_with
from support.clirun import refused_unchanged_here as refused_unchanged

DEEP = "[" * 100_000 + "]" * 100_000


def _step(i, **fields):
    return lambda t: t["steps"][i].update(fields)


TAPES = {
    "steps not a list": (lambda t: t.update(steps={}), "steps"),
    "steps missing": (lambda t: t.pop("steps"), "steps"),
    "value a word": (_step(3, value="abc"), "src_embed.out"),
    "value null inside": (_step(3, value=[[None] * 6] * 7), "not a number"),
    "value shape disagrees": (_step(3, shape=[99, 1]), "shape"),
    "value ragged": (_step(3, value=[[1.0, 2.0], [3.0]], shape=[2, 2]), "rectangular"),
    "value nested 20 deep": (_step(3, value=json.loads("[" * 20 + "1" + "]" * 20),
                                   shape=[1] * 20), "nested deeper"),
    "name a number": (_step(0, name=7), "name"),
    "inputs a string": (_step(1, inputs="src.ids"), "inputs"),
    "symbols hold a list": (_step(1, symbols={"out": [1]}), "symbols.out"),
    "view a string": (_step(1, view="yes"), "view"),
    "extras hold an object": (_step(1, extras={"k": {"a": 1}}), "extras.k"),
    "config d_model a string": (lambda t: t["config"].update(d_model="6"), "d_model"),
    "config unknown field": (lambda t: t["config"].update(bogus=1), "bogus"),
    "config zero heads": (lambda t: t["config"].update(heads=0), "heads"),
    "config negative eps": (lambda t: t["config"].update(ln_eps=-1.0), "ln_eps"),
    "vocab a number": (lambda t: t.update(vocab=5), "vocab"),
    "src ids words": (lambda t: t["src"].update(ids=["a"]), "src.ids"),
    "params hold a word": (lambda t: t["params"].update({"src_embed.weight": "abc"}),
                           "src_embed.weight"),
    "grads an object": (lambda t: t.update(grads={"a": 1}), "grads"),
    "update lacks its gradient": (lambda t: t.update(updates={"x": {"before": 1}}), "updates"),
    "a step the narration reads is gone": (lambda t: t.update(steps=t["steps"][:3]),
                                           "narration"),
    "src ids outside the vocabulary": (lambda t: t["src"].update(ids=[10**6]), "src.ids[0]"),
}


@pytest.mark.parametrize("case", TAPES)
def test_damaged_tape(tape, tmp_path, case):
    damage, word = TAPES[case]
    damage(tape)
    (tmp_path / "t.json").write_text(json.dumps(tape), encoding="utf-8")
    refused_unchanged(tmp_path, "render", "t.json", words=[word])


@pytest.mark.parametrize("text,word", [(DEEP, "nested"), ("[1, 2]", "not a handformer tape"),
                                       ('{"format": "handformer.tape/1", "steps": ' + DEEP + "}",
                                        "nested")])
def test_tape_text_that_is_no_tape_object(tmp_path, text, word):
    (tmp_path / "t.json").write_text(text, encoding="utf-8")
    refused_unchanged(tmp_path, "render", "t.json", words=[word])


def _meta(path, value):
    def edit(meta):
        *parents, last = path.split(".")
        node = meta
        for p in parents:
            node = node[p]
        node[last] = value
    return edit


CHECKPOINTS = {
    "epoch a word": ("epoch", "x", "epoch"), "epoch negative": ("epoch", -1, "epoch"),
    "words a number": ("vocab.words", 5, "vocab.words"),
    "words numbers": ("vocab.words", [1, 2], "vocab.words[0]"),
    "specials missing": ("vocab.specials", None, "vocab.specials"),
    "no start token": ("vocab.specials", ["<end>", "<pad>"], "<start>"),
    "optimizer step negative": ("optimizer.step", -1, "optimizer.step"),
    "optimizer unknown": ("optimizer.name", "rmsprop", "optimizer.name"),
    "optimizer a word": ("optimizer", "adam", "optimizer"),
    "rng state garbage": ("rng_state", {"bit_generator": "PCG64", "state": "x"}, "rng_state"),
    "history a word": ("history", "x", "history"),
    "history loss a word": ("history", [{"loss": "x"}], "history[0].loss"),
    "config zero heads": ("config.heads", 0, "heads"),
    "config d_model a string": ("config.d_model", "6", "d_model"),
    "config unknown field": ("config.bogus", 1, "bogus"),
    "config negative eps": ("config.ln_eps", -1.0, "ln_eps"),
    "run a list": ("run", [], "run"),
}


@pytest.mark.parametrize("case", CHECKPOINTS)
def test_crafted_checkpoint_metadata(made, tmp_path, case):
    path, value, word = CHECKPOINTS[case]
    edit_checkpoint(made / "c.ckpt", tmp_path / "c.ckpt", edit_meta=_meta(path, value))
    refused_unchanged(tmp_path, "translate", "--checkpoint", "c.ckpt", "you win", words=[word])


@pytest.mark.parametrize("path,value,word", [
    ("run.options.lr", "fast", "lr"), ("run.options.bogus", 1, "bogus"),
    ("run.options.optimizer", "rmsprop", "rmsprop"), ("run.options.epochs", 1.5, "epochs")])
def test_crafted_training_options_on_resume(made, tmp_path, path, value, word):
    edit_checkpoint(made / "c.ckpt", tmp_path / "c.ckpt", edit_meta=_meta(path, value))
    refused_unchanged(tmp_path, "train", "--resume", "c.ckpt", "--epochs", "3", words=[word])


def test_optimizer_state_of_the_wrong_shape(made, tmp_path):
    def wrong(tensors):
        name = next(k for k in tensors if k.startswith("optim.m."))
        tensors[name] = tensors[name].reshape(-1)[:1].copy()
    edit_checkpoint(made / "c.ckpt", tmp_path / "c.ckpt", edit_tensors=wrong)
    refused_unchanged(tmp_path, "train", "--resume", "c.ckpt", "--epochs", "3",
                      words=["optimizer state"])


WEIGHTS = {
    "config not JSON": ({"config": "{"}, "unreadable"),
    "config a list": ({"config": "[1]"}, "config"),
    "config nested deep": ({"config": DEEP}, "unreadable"),
    "config zero heads": ({"config": "__heads0"}, "heads"),
    "config d_model a string": ({"config": "__dmodelstr"}, "d_model"),
    "vocab a number": ({"vocab": "5"}, "vocab"),
    "vocab numbers": ({"vocab": "[1, 2]"}, "vocab[0]"),
    "vocab repeats a word": ({"vocab": "__dup"}, "once"),
    "specials a word": ({"specials": '"x"'}, "specials"),
    "no start token": ({"specials": '["<end>"]'}, "<start>"),
}


@pytest.mark.parametrize("case", WEIGHTS)
def test_crafted_weights_metadata(made, tmp_path, case):
    change, word = WEIGHTS[case]
    tensors, meta = read_safetensors(made / "w.safetensors")
    config, vocab = json.loads(meta["config"]), json.loads(meta["vocab"])
    special = {"__heads0": json.dumps(config | {"heads": 0}),
               "__dmodelstr": json.dumps(config | {"d_model": "6"}),
               "__dup": json.dumps([vocab[0]] + vocab)}
    meta = meta | {k: special.get(v, v) for k, v in change.items()}
    safetensors_with(tmp_path / "w.safetensors", tensors, meta)
    refused_unchanged(tmp_path, "walk", "--weights", "w.safetensors", "--steps", "1",
                      words=[word])


FOLDERS = {
    "zero heads": ({"num_attention_heads": 0}, "num_attention_heads"),
    "string size": ({"hidden_size": "4"}, "hidden_size"),
    "negative eps": ({"layer_norm_eps": -1e-12}, "layer_norm_eps"),
    "eps a word": ({"layer_norm_eps": "small"}, "layer_norm_eps"),
    "fractional layers": ({"num_hidden_layers": 1.5}, "num_hidden_layers"),
    "boolean vocabulary": ({"vocab_size": True}, "vocab_size"),
    "pad id outside the vocabulary": ({"pad_token_id": 99}, "pad_token_id"),
    "no positions": ({"max_position_embeddings": 0}, "max_position_embeddings"),
    "no token types": ({"type_vocab_size": 0}, "type_vocab_size"),
}


@pytest.mark.parametrize("case", FOLDERS)
def test_crafted_model_folder_config(tmp_path, case):
    change, word = FOLDERS[case]
    bert_folder(tmp_path / "m", change)
    refused_unchanged(tmp_path, "embed", "--pretrained", "m", "hello", words=[word])


@pytest.mark.parametrize("text,word", [("[1, 2]", "not a JSON object"), (DEEP, "cannot read")])
def test_model_folder_config_that_is_no_object(tmp_path, text, word):
    bert_folder(tmp_path / "m")
    (tmp_path / "m" / "config.json").write_text(text, encoding="utf-8")
    refused_unchanged(tmp_path, "embed", "--pretrained", "m", "hello", words=[word])


def test_a_good_tiny_model_folder_runs(tmp_path):
    """The folder the cases above damage is itself good: embed runs on it."""
    from support.clirun import run_here as run

    bert_folder(tmp_path / "m")
    result = run("embed", "--pretrained", "m", "hello world", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert b"[CLS] hello world [SEP]" in result.stdout


def test_a_model_folder_is_read_again_from_another_folder_or_once_changed(tmp_path):
    """A long-lived process (the app, the Python API, these in-process cases) keeps read models:
    the same relative name in another folder, or a folder whose weights were replaced, is
    another model and is read (and checked) again."""
    from support.clirun import run_here as run

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    bert_folder(tmp_path / "a" / "m")
    bert_folder(tmp_path / "b" / "m", nan_in="encoder.layer.0.output.dense.bias")
    assert run("embed", "--pretrained", "m", "hello", cwd=tmp_path / "a").returncode == 0
    refused_unchanged(tmp_path / "b", "embed", "--pretrained", "m", "hello",
                      words=["encoder.layer.0.output.dense.bias"])
    bert_folder(tmp_path / "a" / "m", nan_in="encoder.layer.0.output.dense.bias")
    refused_unchanged(tmp_path / "a", "embed", "--pretrained", "m", "hello",
                      words=["encoder.layer.0.output.dense.bias"])
