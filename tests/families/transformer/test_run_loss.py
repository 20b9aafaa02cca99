"""walk's loss is the loss the config trains: label smoothing included."""

import math

import numpy as np

from handformer import api


def smoothed_loss_by_hand(probs, targets, eps):
    """Mean over positions of (1 − ε)(−log p_target) + ε · mean_w(−log p_w)."""
    total = 0.0
    for row, t in zip(probs, targets, strict=True):
        nll = [-math.log(p) for p in row]
        total += (1 - eps) * nll[t] + eps * sum(nll) / len(nll)
    return total / len(targets)


def test_walk_honours_label_smoothing():
    tape = api.walk(preset="small", label_smoothing=0.1)
    probs, targets = tape["generator.probs"], tape.meta["target"]["ids"]
    plain = smoothed_loss_by_hand(probs, targets, 0.0)
    smoothed = smoothed_loss_by_hand(probs, targets, 0.1)
    assert not math.isclose(plain, smoothed, rel_tol=1e-6)
    assert math.isclose(float(np.asarray(tape["loss"])), smoothed, rel_tol=1e-9)


def test_walk_without_smoothing_is_plain_cross_entropy():
    tape = api.walk(preset="small")
    probs, targets = tape["generator.probs"], tape.meta["target"]["ids"]
    assert math.isclose(float(np.asarray(tape["loss"])),
                        smoothed_loss_by_hand(probs, targets, 0.0), rel_tol=1e-9)
