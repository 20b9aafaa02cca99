"""Holding the tape beside the reference: every forward step, every gradient, the SGD update,
each to 1e-12 (relative to the largest number of the array when that is above 1)."""

from __future__ import annotations

import numpy as np

from handformer.families.transformer import run as engine
from handformer.families.transformer.config import Config

from .model import Reference, Sizes, sgd

TOLERANCE = 1e-12


def close(actual, expected, what: str) -> None:
    actual, expected = np.asarray(actual, dtype=float), np.asarray(expected, dtype=float)
    assert actual.shape == expected.shape, (what, actual.shape, expected.shape)
    infinite = np.isinf(expected)
    assert (np.isinf(actual) == infinite).all() and (actual[infinite] == expected[infinite]).all(), what
    finite = expected[~infinite]
    scale = max(1.0, float(np.abs(finite).max())) if finite.size else 1.0
    gap = float(np.abs(actual[~infinite] - finite).max()) if finite.size else 0.0
    assert gap <= TOLERANCE * scale, f"{what}: off by {gap:.3g} (scale {scale:.3g})"


def sizes_of(cfg: Config) -> Sizes:
    """The reference's sizes for an engine config, field by field."""
    return Sizes(d_model=cfg.d_model, enc_heads=cfg.heads, dec_heads=cfg.decoder_heads,
                 d_k=cfg.d_k, d_v=cfg.d_v, enc_layers=cfg.encoder_layers,
                 dec_layers=cfg.decoder_layers, ffn=cfg.ffn, attn_bias=cfg.attn_bias,
                 scale_embeddings=cfg.scale_embeddings, final_norm=cfg.final_norm,
                 eps=cfg.ln_eps, smoothing=cfg.label_smoothing, dropout=cfg.dropout)


def engine_walk(cfg: Config, src: str, tgt: str, lr: float, change=None):
    """The engine's walk of one pair with one SGD step; ``change`` edits the fresh weights."""
    s = engine.setup(cfg)
    if change is not None:
        s.params = change(s.params)
    tape = engine.run_forward(s, src, tgt)
    engine.run_backward(tape, lr)
    return tape


def reference_of(tape, sizes: Sizes) -> Reference:
    """The reference run on the tape's own weights and ids (the ids are checked elsewhere)."""
    ref = Reference(sizes, {k: v.copy() for k, v in tape.params.items()})
    ref.run(tape.meta["src"]["ids"], tape.meta["tgt"]["ids"], tape.meta["target"]["ids"])
    ref.backward()
    return ref


def assert_tape_is_reference(tape, sizes: Sizes, lr: float) -> Reference:
    """Every non-view step, every gradient, the update and the loss after it."""
    ref = reference_of(tape, sizes)
    steps = [s for s in tape.steps if not s.view]
    assert sorted(s.name for s in steps) == sorted(ref.values)
    for step in steps:
        close(step.value, ref.values[step.name], step.name)
    grads = {n for n in tape.grads if n in tape.params or not tape.index[n].view}
    assert grads == set(ref.grads)
    for name in grads:
        close(tape.grads[name], ref.grads[name], f"∂L/∂{name}")
    after = sgd(ref.p, ref.grads, lr)
    assert set(tape.updates) == set(ref.p)
    for name, (before, grad, new) in tape.updates.items():
        close(before, ref.p[name], f"{name} before the update")
        close(grad, ref.grads[name], f"the update's ∂L/∂{name}")
        close(new, after[name], f"{name} after the update")
    again = Reference(sizes, after)
    loss_after = again.run(tape.meta["src"]["ids"], tape.meta["tgt"]["ids"],
                           tape.meta["target"]["ids"])
    close(tape.meta["update"]["loss_after"], loss_after, "the loss after the update")
    return ref
