"""Two runs side by side: for every step both tapes have, how much its numbers moved.

A step "parts" when any of its numbers differ (exactly: float64 values, no tolerance, since the
engine is deterministic); the first such step, in the pinned run's order, is where the runs
part. Steps of different shapes are reported as reshaped; names only one run has are listed.
Both runs' numbers of a changed step are sent for its side-by-side detail (a 3-D step, one
matrix per head, whole); word ids also as the words of each run's vocabulary.
"""

from __future__ import annotations

import numpy as np

from .pages import json_array

DELTA_CELLS = 4096  # per-cell differences are sent for steps up to this many numbers


def compare(a, b) -> dict:
    """The step-by-step diff of tapes ``a`` (pinned) and ``b`` (current)."""
    b_names = {s.name for s in b.steps}
    steps, first = [], None
    for step in a.steps:
        if step.name not in b_names:
            continue
        row = _step_diff(step.name, step.value, b[step.name])
        if row.get("a") is not None and np.asarray(step.value).dtype.kind in "iu":
            row["words_a"], row["words_b"] = _words(step.value, a), _words(b[step.name], b)
        steps.append(row)
        if first is None and row["changed"]:
            first = step.name
    a_names = {s.name for s in a.steps}
    return {"first_difference": first, "steps": steps,
            "changed_steps": sum(1 for r in steps if r["changed"]),
            "only_a": [s.name for s in a.steps if s.name not in b_names],
            "only_b": [s.name for s in b.steps if s.name not in a_names],
            "loss": _loss(a, b, a_names & b_names)}


def _loss(a, b, both: set) -> dict | None:
    """Both runs' loss L (the "loss" step) and its change b − a, or None without one."""
    if "loss" not in both:
        return None
    la, lb = (float(np.asarray(t["loss"]).reshape(-1)[0]) for t in (a, b))
    return {"a": _json_number(la), "b": _json_number(lb), "delta": _json_number(lb - la)}


def _step_diff(name: str, va, vb) -> dict:
    va, vb = np.asarray(va), np.asarray(vb)
    row = {"name": name, "shape_a": list(va.shape), "shape_b": list(vb.shape)}
    if va.shape != vb.shape:
        return row | {"changed": True, "reshaped": True, "max_abs_diff": None, "cells": None}
    fa, fb = va.astype(np.float64), vb.astype(np.float64)
    same = (fa == fb) | (np.isnan(fa) & np.isnan(fb))
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.where(same, 0.0, np.abs(fb - fa))
    diff = np.where(np.isnan(diff), np.inf, diff)  # -inf against a number: infinitely apart
    changed = int((~same).sum())
    row |= {"changed": changed > 0, "reshaped": False, "cells": changed,
            "max_abs_diff": _json_number(float(diff.max()) if diff.size else 0.0)}
    if changed and va.size <= DELTA_CELLS and va.ndim <= 3:
        row["a"], row["b"] = json_array(fa), json_array(fb)
    return row


def _words(ids, tape) -> list | None:
    """Word ids as the words of the run's vocabulary (None when the run has none)."""
    vocab = tape.meta.get("vocab") if isinstance(tape.meta, dict) else None
    if not vocab:
        return None
    return [vocab[int(i)] if 0 <= int(i) < len(vocab) else str(int(i))
            for i in np.asarray(ids).ravel()]


def _json_number(x: float):
    return x if np.isfinite(x) else "inf"
