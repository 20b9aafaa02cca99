"""What the seed tutorial computed where it is wrong (SPEC.md D1, D5, D6), for showing beside ours.

These never feed the model; the walkthrough puts them next to the correct numbers.
"""

from __future__ import annotations

import numpy as np


def tutorial_scores(q: np.ndarray, k: np.ndarray, d_model: int) -> np.ndarray:
    """D1: the tutorial divides Q Kᵀ by the embedding size d_model instead of √d_k."""
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


def row_stats(x: np.ndarray, eps: float) -> dict[str, np.ndarray]:
    """Each row's mean and standard deviation, shown in the add & norm step."""
    mu = x.mean(axis=-1)
    return {"mean": mu, "std": np.sqrt(x.var(axis=-1) + eps)}
