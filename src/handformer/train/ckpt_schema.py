"""What a checkpoint's metadata must hold, checked field by field before anything uses it.

A checkpoint is a file someone else may have made: its JSON metadata can claim any vocabulary,
optimizer step or random state. Each field is checked for type and range here, so a crafted
one is refused with the field's name instead of failing (or allocating) later.
"""

from __future__ import annotations

import numpy as np

from ..limits import limit
from ..schema import SchemaError, integer, mapping, number, string, strings
from ..text import END, START
from ..tokenize import TOKENIZERS

OPTIMIZERS = ("adam", "sgd")
NEEDED_SPECIALS = (START, END)


def check_meta(meta: dict) -> None:
    """Types and ranges of every metadata field that load and resume read."""
    mapping(meta.get("config"), "config")
    _check_vocab(meta.get("vocab"), "vocab")
    if "target_vocab" in meta:  # one vocabulary per side: "vocab" is the source's
        _check_vocab(meta["target_vocab"], "target_vocab")
        target = meta["target_vocab"].get("tokenizer", "tutorial")
        if target not in ("bpe", meta["vocab"].get("tokenizer", "tutorial")):
            raise SchemaError("vocab and target_vocab must have the same tokenizer (or a "
                              "byte-level BPE target)")
    optimizer = mapping(meta.get("optimizer", {}), "optimizer")
    if "name" in optimizer and optimizer["name"] not in OPTIMIZERS:
        raise SchemaError(f"optimizer.name must be one of {OPTIMIZERS}, got "
                          f"{string(optimizer['name'], 'optimizer.name')!r}")
    integer(optimizer.get("step", 0), "optimizer.step", 0)
    integer(meta.get("epoch", 0), "epoch", 0)
    _check_history(meta.get("history", []))
    run = mapping(meta.get("run", {}), "run")
    string(run.get("pairs", "default"), "run.pairs")
    mapping(run.get("options", {}), "run.options")
    _check_rng(meta.get("rng_state"))


def _check_vocab(told, field: str) -> None:
    vocab = mapping(told, field)
    words = strings(vocab.get("words"), f"{field}.words", limit("vocab"))
    specials = strings(vocab.get("specials"), f"{field}.specials", 16)
    if vocab.get("tokenizer", "tutorial") not in TOKENIZERS:
        raise SchemaError(f"{field}.tokenizer must be one of {', '.join(TOKENIZERS)}")
    if vocab.get("tokenizer") == "bpe":
        _check_merges(vocab.get("merges"), field, len(words))
    if "cases" in vocab:
        _check_cases(vocab["cases"], field)
    if len(set(words) | set(specials)) != len(words) + len(specials):
        raise SchemaError(f"{field} lists a token twice")
    if not set(NEEDED_SPECIALS) <= set(specials):
        raise SchemaError(f"{field}.specials must hold {', '.join(NEEDED_SPECIALS)} (decoding "
                          f"starts and stops at them), got {specials[:4]}")


def _check_merges(merges, field: str, words: int) -> None:
    """Byte-level BPE's merges: pairs of tokens, no more than the vocabulary has tokens (their
    tokens being in it is BpeVocab's own check)."""
    if not isinstance(merges, list) or len(merges) > words:
        raise SchemaError(f"{field}.merges must be a list of at most {words} pairs")
    for i, pair in enumerate(merges):
        if len(strings(pair, f"{field}.merges[{i}]", 2)) != 2:
            raise SchemaError(f"{field}.merges[{i}] must be a pair of tokens")


def _check_cases(cases, field: str) -> None:
    """A truecaser (handformer.truecase): (lower-case word, written form) pairs."""
    if not isinstance(cases, list) or len(cases) > limit("vocab"):
        raise SchemaError(f"{field}.cases must be a list of at most {limit('vocab'):,} pairs")
    for i, pair in enumerate(cases):
        pair = strings(pair, f"{field}.cases[{i}]", 2)
        if len(pair) != 2 or pair[1].lower() != pair[0]:
            raise SchemaError(f"{field}.cases[{i}] must be a word and the same word recased")


def _check_history(history) -> None:
    if not isinstance(history, list):
        raise SchemaError("history must be a list of epochs")
    for i, epoch in enumerate(history):
        for key, value in mapping(epoch, f"history[{i}]").items():
            number(value, f"history[{i}].{key}")


def _check_rng(state) -> None:
    """The saved generator state must be one NumPy accepts (it is set again on resume)."""
    if state is None:
        return
    try:
        np.random.default_rng().bit_generator.state = mapping(state, "rng_state")
    except (TypeError, ValueError, KeyError, OverflowError) as err:
        raise SchemaError(f"rng_state is not a NumPy generator state ({err})") from None


def check_optimizer_state(name: str, state: dict, params: dict) -> None:
    """Adam keeps m.NAME and v.NAME, SGD with momentum NAME, each shaped like its parameter."""
    prefixes = ("m.", "v.") if name == "adam" else ("",)
    for key, value in state.items():
        prefix = next((p for p in prefixes if key.startswith(p) and key[len(p):] in params),
                      None)
        if prefix is None:
            raise SchemaError(f"optimizer state {key!r} belongs to no parameter")
        if value.shape != params[key[len(prefix):]].shape:
            raise SchemaError(f"optimizer state {key!r} has shape {value.shape}, its "
                              f"parameter {params[key[len(prefix):]].shape}")
