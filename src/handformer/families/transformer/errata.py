"""Where the seed tutorial is wrong or loose (D1–D18), and a pass that marks its numbers on a tape.

The model never computes the tutorial's variants. After an encoder-decoder tape is finished,
``annotate(tape)`` adds, beside a step, what the tutorial would have printed there (its number)
and records the erratum in ``tape.meta["errata"]``: ``{"code", "step", "tutorial_step"}``, where
``step`` is our step (ours is its value) and the tutorial's number is the step's
``extras["tutorial"]`` (D1, D5, D6) or the record's ``"tutorial"``/``"ours"`` counts (D17).
docs/errata.md is the same table for readers (tests/narrate/test_errata_wording.py checks
that its rows are these, word for word).
"""

from __future__ import annotations

import numpy as np

from ...text import TUTORIAL_SRC


class Erratum:
    """One place the tutorial parts from the paper: its step, what it does, what is right
    (a plain class: a dataclass compiles its methods from source text at every start-up)."""

    __slots__ = ("code", "tutorial_step", "tutorial", "correct")

    def __init__(self, code: str, tutorial_step: str, tutorial: str, correct: str):
        self.code, self.tutorial_step, self.tutorial, self.correct = \
            code, tutorial_step, tutorial, correct


TABLE = {e.code: e for e in (
    Erratum("D1", "7", "divides Q Kᵀ by the embedding size 6, in its text (a figure's caption "
            "even says 5); its matrices are images, so its numbers shown are our reconstruction",
            "divides by √d_k, the width of one head's keys: here √4 = 2"),
    Erratum("D2", "10, 11", "feeds the encoder output to cross-attention as query and key, the "
            "value from the decoder", "query from the decoder, key and value from the encoder "
            "output; the tutorial's wiring only works when both sentences have the same length"),
    Erratum("D3", "13", "flattens the last decoder matrix into one vector before one linear "
            "layer", "one linear layer applied to every position's row"),
    Erratum("D4", "9", "a feed-forward network of one linear layer and ReLU",
            "two linear layers with ReLU between (`--ffn paper`, the `small` and `paper` "
            "presets; the paper's d_ff is 4·d_model, 2048); the tutorial preset keeps the "
            "tutorial's single layer, and `--ffn paper` on it keeps the preset's d_ff, 6, unless "
            "`--d-ff` says otherwise"),
    Erratum("D5", "8, 10", "(x − μ)/(σ + ε): ε outside the root, a common variant (7.8e-6 "
            "away here), and no γ, β",
            "(x − μ)/√(σ² + ε), then γ ⊙ · + β with learned γ, β"),
    Erratum("D6", "5", "its text counts i over the six columns (“i 从 0 到 5”), not over pairs, "
            "in 10000^(2i/d); its table is an image, so its numbers shown are our reconstruction", "i is the pair index; at position 1, column 2: cos(1) = 0.540, "
            "not 0.999"),
    Erratum("D7", "7", "multiplies the transpose of a words-as-columns matrix",
            "tokens as rows from the start: Q = X W^Q"),
    Erratum("D8", "7", "calls the mask optional", "encoder: the padding mask only; decoder "
            "self-attention: the causal mask always"),
    Erratum("D9", "11", "the decoder takes one token at a time in training",
            "teacher forcing: the whole shifted target at once under the causal mask; one token "
            "at a time only at inference (`handformer translate`)"),
    Erratum("D10", "12", "says masking helps against overfitting",
            "masking enforces left-to-right causality; it is not a regularizer"),
    Erratum("D11", "7", "\"LLaMA uses 32 heads in its encoder\"", "LLaMA is decoder-only"),
    Erratum("D14", "4, 7", "every weight uniform in [0, 1), no embedding scale",
            "Xavier-type initialization and embeddings × √d_model: all-positive weights "
            "saturate the softmax (the tutorial preset keeps the tutorial's choice)"),
    Erratum("D16", "13", "the output layer scores only the 23 dataset words, yet decoding stops "
            "at `<end>`", "the output vocabulary must contain `<end>`: 25 words"),
    Erratum("D17", "11", "one figure (an image) shows the encoder input without \"the\"; its "
            "text keeps it", "7 tokens throughout"),
    Erratum("D18", "4", "n > 8.33·log N for the embedding size n, the logarithm unnamed",
            "a rule of thumb, not the paper's; read as ln it asks n > 26.1, as log₁₀ n > 11.3: "
            "either way the tutorial's own 6 breaks it"),
)}


# --- the tutorial's numbers, computed from ours -------------------------------------------


def tutorial_scores(q: np.ndarray, k: np.ndarray, d_model: int) -> np.ndarray:
    """D1: Q Kᵀ divided by the embedding size d_model instead of √d_k."""
    return (q @ np.swapaxes(k, -1, -2)) / d_model


def tutorial_layer_norm(x: np.ndarray, eps: float) -> np.ndarray:
    """D5: (x − μ) / (σ + ε), with ε outside the root and no γ, β."""
    mu = x.mean(axis=-1, keepdims=True)
    sigma = x.std(axis=-1, keepdims=True)
    return (x - mu) / (sigma + eps)


def tutorial_positional(n: int, d: int) -> np.ndarray:
    """D6: the column index c, not the pair index i, in 10000^(2i/d)."""
    pos = np.arange(n, dtype=np.float64)[:, None]
    col = np.arange(d, dtype=np.float64)[None, :]
    angle = pos / np.power(10000.0, 2 * col / d)
    return np.where(np.arange(d) % 2 == 0, np.sin(angle), np.cos(angle))


# --- the pass -----------------------------------------------------------------------------


def annotate(tape) -> None:
    """Mark the tutorial's numbers on a finished, recorded encoder-decoder tape (in place).

    Needs the step values (``tape.record``) and ``tape.meta["config"]``; a tape already
    annotated is left as it is.
    """
    if "errata" in tape.meta or not tape.record:
        return
    cfg = tape.meta.get("config") or {}
    records = []
    for step in tape.steps:
        tutorial = _tutorial_number(tape, step, cfg)
        if tutorial is not None:
            code, value = tutorial
            step.extras["tutorial"] = value
            records.append(_record(code, step.name))
    records += _sentence_errata(tape)
    tape.meta["errata"] = records


def _tutorial_number(tape, step, cfg: dict):
    """(code, what the tutorial prints) for a step the tutorial computes differently."""
    if step.view:
        return None
    if step.op == "scores":
        q, k = (tape.value(name) for name in step.inputs)
        return "D1", tutorial_scores(q, k, int(cfg["d_model"]))
    if step.op == "positional":
        return "D6", tutorial_positional(step.value.shape[-2], step.value.shape[-1])
    if step.op == "layer_norm" and step.inputs[0].endswith(".resid"):
        return "D5", tutorial_layer_norm(tape.value(step.inputs[0]), float(cfg["ln_eps"]))
    return None


def _sentence_errata(tape) -> list[dict]:
    """D17: the tutorial's own sentence keeps all its tokens here, one fewer there."""
    src = (tape.meta.get("src") or {}).get("tokens") or []
    if " ".join(map(str, src)) != TUTORIAL_SRC or "tgt.ids" not in tape.index:
        return []
    return [_record("D17", "tgt.ids") | {"tutorial": len(src) - 1, "ours": len(src)}]


# A tape saved before the errata pass existed kept the tutorial's numbers without records.
CODE_OF_OP = {"scores": "D1", "layer_norm": "D5", "positional": "D6"}


def records(tape) -> list[dict]:
    """The errata marked on ``tape``: meta["errata"], or, for a tape saved before the pass
    existed, the same records read off its steps' ``extras["tutorial"]`` and its sentence."""
    if "errata" in tape.meta:
        return tape.meta["errata"]
    found = [_record(CODE_OF_OP[s.op], s.name) for s in tape.steps
             if "tutorial" in s.extras and s.op in CODE_OF_OP]
    return found + _sentence_errata(tape) if found else []


def _record(code: str, step: str) -> dict:
    return {"code": code, "step": step, "tutorial_step": TABLE[code].tutorial_step}
