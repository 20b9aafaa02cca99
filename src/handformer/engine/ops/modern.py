"""The parts of today's decoder-only models (Llama and its kin): RMSNorm, rotary position
embeddings (RoPE), SiLU and the element-wise product of SwiGLU, and the key/value heads shared
by groups of query heads (grouped-query attention); each forward with its backward right below.

RoPE rotates each head's query and key rows in pairs of columns by an angle proportional to
the row's position; two pairings exist: ``half`` pairs column i with i + d/2 (Hugging Face's
``rotate_half``, the weights people download), ``adjacent`` pairs 2i with 2i + 1 (the RoFormer
paper, GGUF files). The angles are θ_i = base^(−2i/d) for i = 0 … d/2 − 1.
"""

from __future__ import annotations

import functools

import numpy as np

from ..formula import clauses
from .basic import column_sum
from .registry import op

# --- RMSNorm: γ ⊙ x / √(mean(x²) + ε) -----------------------------------------------------


def rms_norm_forward(x, gamma, *, eps):
    rows = x.reshape(-1, x.shape[-1])
    inv_rms = np.mean(rows * rows, axis=-1, keepdims=True)
    inv_rms += eps
    np.sqrt(inv_rms, out=inv_rms)
    np.reciprocal(inv_rms, out=inv_rms)
    xhat = rows * inv_rms
    return (xhat * gamma).reshape(x.shape), (xhat, inv_rms)


@op("rms_norm", rms_norm_forward,
    clauses(r"$out = \gamma \odot \frac{$x}{\mathrm{RMS}($x)}",
            r"\mathrm{RMS}($x) = \sqrt{\tfrac{1}{d}\textstyle\sum_j $x_{j}^2 + \varepsilon}"),
    r"\dL{$x} = \frac{1}{\mathrm{RMS}($x)}\left(\hat g - \hat x\, \overline{\hat g \odot \hat x}"
    r"\right),\ \hat g = \gamma \odot \dL{$out};\quad \dL{\gamma} = \sum_t \dL{$out_{t}} "
    r"\odot \hat x_t",
    out="Y", x="X")
def rms_norm(g, out, args, cache, attrs):
    gamma = args[1]
    xhat, inv_rms = cache
    rows = g.reshape(xhat.shape)
    ghat = rows * gamma
    dx = ghat - xhat * np.mean(ghat * xhat, axis=-1, keepdims=True)
    dx *= inv_rms
    return dx.reshape(g.shape), column_sum(rows * xhat)


# --- rotary position embedding ----------------------------------------------------------------


def rope_thetas(d: int, base: float) -> np.ndarray:
    """θ_i = base^(−2i/d) for i = 0 … d/2 − 1: one angle per pair of columns."""
    return 1.0 / np.power(float(base), np.arange(0, d, 2, dtype=np.float64) / d)


@functools.lru_cache(maxsize=64)
def _cos_sin(n: int, d: int, base: float, start: int,
             dtype=np.float64) -> tuple[np.ndarray, np.ndarray]:
    """cos(m θ_i) and sin(m θ_i), (n, d/2), for the positions m = start … start + n − 1,
    computed in float64 and given in the dtype of the numbers they turn (a float32 model's
    queries stay float32: float64 tables would promote every later product to float64);
    shared between calls, so read-only."""
    angles = np.arange(start, start + n, dtype=np.float64)[:, None] * rope_thetas(d, base)
    cos, sin = np.cos(angles).astype(dtype, copy=False), np.sin(angles).astype(dtype, copy=False)
    cos.flags.writeable = sin.flags.writeable = False
    return cos, sin


def _float(x: np.ndarray):
    """x's dtype when it is a float (float32, float64), else float64."""
    return x.dtype if np.issubdtype(x.dtype, np.floating) else np.float64


def rope_angles(n: int, d: int, base: float, start: int = 0) -> np.ndarray:
    """The angles m θ_i, (n, d/2), for showing."""
    return np.arange(start, start + n, dtype=np.float64)[:, None] * rope_thetas(d, base)


def _halves(x: np.ndarray, pairs: str) -> tuple[np.ndarray, np.ndarray]:
    """The two members of every pair of columns: (x_i, x_{i+d/2}) or (x_{2i}, x_{2i+1})."""
    if pairs == "adjacent":
        return x[..., 0::2], x[..., 1::2]
    half = x.shape[-1] // 2
    return x[..., :half], x[..., half:]


def _joined(first: np.ndarray, second: np.ndarray, pairs: str) -> np.ndarray:
    out = np.empty((*first.shape[:-1], 2 * first.shape[-1]), dtype=np.result_type(first, second))
    a, b = _halves(out, pairs)
    a[...], b[...] = first, second
    return out


def rope_forward(x, *, base, pairs, start=0):
    cos, sin = _cos_sin(x.shape[-2], x.shape[-1], float(base), int(start), _float(x))
    a, b = _halves(x, pairs)
    return _joined(a * cos - b * sin, b * cos + a * sin, pairs), None


@op("rope", rope_forward,
    clauses(r"$out_{m,a} = $x_{m,a} \cos m\theta_i - $x_{m,b} \sin m\theta_i",
            r"$out_{m,b} = $x_{m,b} \cos m\theta_i + $x_{m,a} \sin m\theta_i",
            r"\theta_i = \mathrm{base}^{-2i/d_k}"),
    clauses(r"\dL{$x_{m,a}} = \dL{$out_{m,a}} \cos m\theta_i + \dL{$out_{m,b}} \sin m\theta_i",
            r"\dL{$x_{m,b}} = \dL{$out_{m,b}} \cos m\theta_i - \dL{$out_{m,a}} \sin m\theta_i"),
    out=r"\tilde{Q}", x="Q")
def rope(g, out, args, cache, attrs):
    cos, sin = _cos_sin(g.shape[-2], g.shape[-1], float(attrs["base"]), int(attrs.get("start", 0)),
                        _float(g))
    ga, gb = _halves(g, attrs["pairs"])
    return (_joined(ga * cos + gb * sin, gb * cos - ga * sin, attrs["pairs"]),)


# --- grouped-query attention: each key/value head shared by a group of query heads -----------


def repeat_kv_forward(x, *, groups):
    return np.repeat(x, groups, axis=-3), None


@op("repeat_kv", repeat_kv_forward,
    r"$out^{(i)} = $x^{(\lceil i / g \rceil)}",
    r"\dL{$x^{(j)}} = \sum_{i:\ \lceil i/g \rceil = j} \dL{$out^{(i)}}",
    out="K", x="K")
def repeat_kv(g, out, args, cache, attrs):
    groups = attrs["groups"]
    *lead, heads, n, d = g.shape
    return (g.reshape(*lead, heads // groups, groups, n, d).sum(axis=-3),)


# --- the key/value cache: one new row appended -------------------------------------------------


def append_rows_forward(past, new):
    return np.concatenate([past, new], axis=-2), None


@op("append_rows", append_rows_forward,
    r"$out = [\,$past\,;\ $new\,]",
    r"\dL{$past} = \left(\dL{$out}\right)_{1..t},\ \dL{$new} = \left(\dL{$out}\right)_{t+1}",
    out="K", past=r"K_{\mathrm{cache}}", new="k")
def append_rows(g, out, args, cache, attrs):
    t = args[0].shape[-2]
    return g[..., :t, :], g[..., t:, :]


# --- SiLU and the element-wise product (SwiGLU) ---------------------------------------------


def sigmoid(x: np.ndarray) -> np.ndarray:
    """σ(x) = 1 / (1 + e^(−x)), computed without overflow for large |x|."""
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def silu_forward(x):
    s = sigmoid(x)
    return x * s, s


@op("silu", silu_forward,
    r"$out = $x \odot \sigma($x),\ \sigma(z) = \frac{1}{1 + e^{-z}}",
    r"\dL{$x} = \dL{$out} \odot \sigma($x) \odot \left(1 + $x \odot (1 - \sigma($x))\right)",
    out="A", x="G")
def silu(g, out, args, cache, attrs):
    (x,), s = args, cache
    return (g * s * (1.0 + x * (1.0 - s)),)


def mul_forward(a, b):
    return a * b, None


@op("mul", mul_forward,
    r"$out = $a \odot $b",
    clauses(r"\dL{$a} = \dL{$out} \odot $b", r"\dL{$b} = \dL{$out} \odot $a"))
def mul(g, out, args, cache, attrs):
    a, b = args
    return g * b, g * a
