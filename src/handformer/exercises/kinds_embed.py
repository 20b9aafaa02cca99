"""Questions on the way in: a token's id, a positional-encoding value, the input sum."""

from __future__ import annotations

import numpy as np

from . import pick
from .question import Given, Question, tolerance

TUTORIAL_VOCAB = 40  # up to this size the learner numbers the words from the dataset itself
WINDOW = 8  # otherwise: this many words of the vocabulary around the one asked


def token_id(tape, rng) -> Question | None:
    """A word of the input → its id: numbered in order of first appearance in the dataset."""
    step = pick.one(rng, [s for s in pick.steps(tape, "input", "ids") if s.value.ndim == 1])
    if step is None:
        return None
    # the source's ids index its own vocabulary when each side has one (tape.meta src_vocab)
    own = tape.meta.get("src_vocab") if step.name.startswith("src") else None
    vocab = list(own or tape.meta.get("vocab") or [])
    if not vocab:
        return None
    ids = np.asarray(step.value, dtype=int)
    plain_words = [p for p, i in enumerate(ids) if not vocab[i].startswith("<")]
    counted = tape.meta.get("tokenizer") == "tutorial" and len(vocab) <= TUTORIAL_VOCAB
    if counted and plain_words and tape.meta.get("dataset"):
        position = plain_words[int(rng.integers(len(plain_words)))]
        given = (Given("ex.given.dataset", "", list(tape.meta["dataset"])),)
        ask, first = "ex.ask.token_id", f"{vocab[0]} → 0"
    else:
        position = int(rng.integers(len(ids)))
        start = max(0, min(int(ids[position]) - int(rng.integers(WINDOW)), len(vocab) - WINDOW))
        given = (Given("ex.given.first_id", vocab[start], start),
                 Given("ex.given.words", "", vocab[start:start + WINDOW]))
        ask, first = "ex.ask.token_id_window", f"{vocab[start]} → {start}"
    word = vocab[int(ids[position])]
    return Question("token_id", step.name, "value", (position,), given, float(ids[position]),
                    0.0, "w ↦ id(w) ∈ {0, 1, …, N − 1}", ask,
                    "ex.hint.token_id", {"word": word, "pos": position,
                                         "first": first}, "embedding")


def positional(tape, rng) -> Question | None:
    """PE(pos, j) from pos, j and d_model, with i = ⌊j/2⌋ the pair index."""
    step = pick.one(rng, pick.steps(tape, "positional"))
    if step is None:
        return None
    pos, j = pick.cell(rng, step.shape)
    d_model = step.shape[-1]
    given = (Given("ex.given.pos", "pos", pos), Given("ex.given.column", "j", j),
             Given("ex.given.d_model", "d_model", d_model))
    answer = float(step.value[pos, j])
    pair = j // 2
    first = f"i = ⌊{j}/2⌋ = {pair}, {pos} / 10000^({2 * pair}/{d_model})"
    return Question("positional", step.name, "value", (pos, j), given, answer, tolerance(answer),
                    "PE(pos, 2i) = sin(pos / 10000^(2i/d_model)), "
                    "PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model))",
                    "ex.ask.positional", "ex.hint.positional",
                    {"pos": pos, "j": j, "first": first}, "embedding")


def input_sum(tape, rng) -> Question | None:
    """X = X_tok + PE at one cell (BERT's three embeddings: word + position + token type)."""
    if pick.steps(tape, "add3"):
        return _sum(tape, rng, "embeddings.sum", "input", "ex.ask.input", "embedding",
                    "X = word + position + token type", ("word", "position", "token type"), "add3")
    return _sum(tape, rng, "embed.out", "input", "ex.ask.input", "embedding",
                "X = X_tok + PE", ("X_tok", "PE"))


def residual(tape, rng) -> Question | None:
    """The residual sum x + Sublayer(x) at one cell."""
    return _sum(tape, rng, "resid", "residual", "ex.ask.residual", "norm",
                "x + Sublayer(x)", ("x", "Sublayer(x)"))


def _sum(tape, rng, name_end, kind, ask, part, formula, symbols, op="add") -> Question | None:
    step = pick.one(rng, pick.steps(tape, op, name_end))
    if step is None:
        return None
    at = pick.cell(rng, step.shape)
    terms = [float(np.broadcast_to(tape.value(name), step.shape)[at]) for name in step.inputs]
    given = tuple(Given("ex.given.term", symbol, term) for symbol, term in zip(symbols, terms,
                                                                               strict=True))
    answer = float(step.value[at])
    return Question(kind, step.name, "value", at, given, answer, tolerance(answer), formula,
                    ask, "ex.hint.sum", {"cell": list(at), "first": f"{terms[0]:.5g}"}, part)
