"""`walk --pretrained all-minilm-l6-v2 --beside-trained`: the pretrained weights beside the same
architecture with random initial weights, on the walk's sentence.

The random copy is drawn as transformers' BertModel draws a fresh model (its ``_init_weights``):
every Linear weight and embedding table from N(0, 0.02²) (the [PAD] row of the word table zero),
biases 0, layer norms γ = 1, β = 0; numpy's generator seeded with ``SEED``, in the order of
``model.param_shapes``. Only what the comparison shows is kept (``tape.meta["beside_random"]``):
head 1's pattern in the first and the last layer, the sentence embedding, and how far the layers
moved it from the embedding layer's own mean (the cosine of e and the normalized mean of H⁽⁰⁾).
"""

from __future__ import annotations

import numpy as np

from ...engine.tape import Tape
from .model import BertConfig, forward, param_shapes

SEED = 0
STD = 0.02  # BERT's initializer_range


def random_params(cfg: BertConfig, seed: int = SEED) -> dict[str, np.ndarray]:
    """Fresh weights for ``cfg``, drawn as a new BertModel draws them (see the module note)."""
    rng = np.random.default_rng(seed)
    params = {}
    for name, shape in param_shapes(cfg).items():
        if name.endswith(".gamma"):
            params[name] = np.ones(shape)
        elif name.endswith((".beta",)) or ".b_" in name:
            params[name] = np.zeros(shape)
        else:
            params[name] = rng.normal(0.0, STD, shape)
    params["embeddings.word.weight"][cfg.pad_id] = 0.0
    return params


def patterns_shown(cfg: BertConfig) -> list[str]:
    """The steps compared: head 1 of the first layer and of the last."""
    return [f"layer.{i}.self_attn.head.0.pattern" for i in sorted({0, cfg.layers - 1})]


def view(params: dict, cfg: BertConfig, ids) -> dict:
    """What the comparison shows of one set of weights on the sentence's ids."""
    tape = Tape(params)
    forward(tape, cfg, np.asarray(ids))
    return view_of(tape, cfg)


def view_of(tape: Tape, cfg: BertConfig) -> dict:
    """What the comparison shows, read off a recorded tape of one sentence."""
    e = np.asarray(tape["pooling.normalized"], dtype=float)
    start = np.asarray(tape["embeddings.ln.out"], dtype=float).mean(axis=0)
    return {"patterns": {step: np.asarray(tape[step]).tolist() for step in patterns_shown(cfg)},
            "embedding": e.tolist(),
            "moved": float(e @ start / np.linalg.norm(start))}


def random_beside(pretrained, tape: Tape) -> dict:
    """The walk's sentence (``tape``) under random initial weights: its view, and how drawn."""
    cfg = pretrained.config
    return {"label": "random", "seed": SEED, "std": STD,
            **view(random_params(cfg), cfg, tape.meta["src"]["ids"])}
