"""The operations a real BERT-family encoder needs beyond the tutorial's: GELU, the sum of three
embeddings, mean pooling over the real (non-pad) tokens, L2 normalization, the dot product of
every pair of sentence embeddings (their cosine similarity), and the loss of one fine-tuning step
that pulls two sentences' embeddings together (1 − their cosine).

They register in the same ``OPS`` registry as the tutorial's operations (import this module
before running a BERT model). Learned position and token-type embeddings reuse ``embed``; the
padding mask reuses ``mask``.
"""

from __future__ import annotations

import math

import numpy as np

from ...engine.formula import clauses
from ...engine.ops import op, unbroadcast

# --- erf, vectorized, to float64 round-off ----------------------------------------------------
# NumPy has no erf. erf is expanded in a Taylor series around the nearest point a of a 1/32 grid:
# erf(a + h) = erf(a) + (2/√π) e^{−a²} Σ_{n≥0} (−1)^n H_n(a) h^{n+1} / (n+1)!, H_n the Hermite
# polynomials (H_{n+1} = 2a H_n − 2n H_{n−1}). erf(a) comes from math.erf. With |h| ≤ 1/64 the
# terms after n = 7 are below 1e-16; beyond 6, erf is 1 in float64.

_GRID = 32
_LIMIT = 6.0
_TERMS = 9  # coefficients of h^0 … h^8


def _erf_table() -> np.ndarray:
    """Row n: the coefficient of h^n in erf's Taylor series around every grid point a = k/32."""
    a = np.arange(int(_LIMIT * _GRID) + 1) / _GRID
    table = np.empty((_TERMS, a.size))
    table[0] = [math.erf(v) for v in a]
    weight = 2.0 / math.sqrt(math.pi) * np.exp(-a * a)
    h_prev, h_cur = np.zeros_like(a), np.ones_like(a)  # H_{-1} (unused), H_0
    for n in range(_TERMS - 1):
        table[n + 1] = weight * (-1) ** n * h_cur / math.factorial(n + 1)
        h_prev, h_cur = h_cur, 2 * a * h_cur - 2 * n * h_prev
    return table


_ERF_TABLES = {np.dtype(np.float64): _erf_table()}
_ERF_TABLES[np.dtype(np.float32)] = _ERF_TABLES[np.dtype(np.float64)].astype(np.float32)


def erf(z: np.ndarray) -> np.ndarray:
    """erf(z) = (2/√π) ∫₀^z e^{−t²} dt, element-wise, for float64 or float32 arrays."""
    z = np.asarray(z)
    if z.dtype not in _ERF_TABLES:
        z = z.astype(np.float64)
    mag = np.minimum(np.abs(z), _LIMIT)
    k = np.rint(mag * _GRID).astype(np.intp)
    h = mag - k.astype(mag.dtype) * mag.dtype.type(1.0 / _GRID)  # exact: k/32 is dyadic
    table = _ERF_TABLES[z.dtype]
    terms = _TERMS if z.dtype == np.float64 else 5  # float32 needs fewer terms
    acc = table[terms - 1].take(k)
    for n in range(terms - 2, -1, -1):
        acc *= h
        acc += table[n].take(k)
    return np.copysign(acc, z)


# --- GELU, exact (erf) form -----------------------------------------------------------------


def gelu_forward(x):
    cdf = 0.5 * (1.0 + erf(x * (1.0 / math.sqrt(2.0))))
    return x * cdf, cdf


@op("gelu", gelu_forward,
    r"$out = $x \, \Phi($x) = "
    r"\tfrac{1}{2} $x \left(1 + \operatorname{erf}\!\left(\tfrac{$x}{\sqrt{2}}\right)\right)",
    clauses(r"\dL{$x} = \dL{$out} \odot \left(\Phi($x) + $x \, \varphi($x)\right)",
            r"\varphi(x) = \tfrac{1}{\sqrt{2\pi}} e^{-x^2/2}"),
    out="H", x="X")
def gelu(g, out, args, cache, attrs):
    (x,) = args
    pdf = np.exp(-0.5 * x * x) * (1.0 / math.sqrt(2.0 * math.pi))
    return (g * (cache + x * pdf),)


# --- sum of the three embeddings ------------------------------------------------------------


def add3_forward(a, b, c):
    return a + b + c, None


@op("add3", add3_forward,
    r"$out = $a + $b + $c",
    r"\dL{$a} = \dL{$b} = \dL{$c} = \dL{$out}",
    out="X", a="A", b="B", c="C")
def add3(g, out, args, cache, attrs):
    return tuple(unbroadcast(g, a.shape) for a in args)


# --- mean pooling over the real tokens ------------------------------------------------------


def mean_pool_forward(x, *, weights):
    w = weights[..., None].astype(x.dtype)
    count = np.maximum(w.sum(axis=-2), 1e-9)  # as sentence-transformers: never divide by 0
    return (x * w).sum(axis=-2) / count, count


@op("mean_pool", mean_pool_forward,
    clauses(r"$out = \frac{\sum_{t} m_t \, $x_{t}}{\sum_{t} m_t}",
            r"m_t = 1 \text{ for a real token, } 0 \text{ for [PAD]}"),
    r"\dL{$x_{t}} = \frac{m_t}{\sum_{s} m_s} \dL{$out}",
    out="u", x="H")
def mean_pool(g, out, args, cache, attrs):
    (x,) = args
    w = attrs["weights"][..., None].astype(x.dtype)
    return ((g / cache)[..., None, :] * w,)


# --- L2 normalization -----------------------------------------------------------------------


def l2_normalize_forward(x, *, eps=1e-12):
    norm = np.sqrt((x * x).sum(axis=-1, keepdims=True))
    return x / np.maximum(norm, eps), norm


@op("l2_normalize", l2_normalize_forward,
    clauses(r"$out = \frac{$x}{r}",
            r"r = \sqrt{\textstyle\sum_j $x_{j}^2}"),
    r"\dL{$x} = \frac{1}{r}\left(\dL{$out} - $out \left($out \cdot \dL{$out}\right)\right)",
    out="e", x="u")
def l2_normalize(g, out, args, cache, attrs):
    eps = attrs.get("eps", 1e-12)
    norm = cache
    # Below eps the output is x / eps, a plain scaling (as torch.nn.functional.normalize).
    along = np.where(norm > eps, (out * g).sum(axis=-1, keepdims=True), 0.0)
    return ((g - out * along) / np.maximum(norm, eps),)


# --- every pair's dot product (cosine similarity of unit vectors) ---------------------------


def gram_forward(x):
    return x @ np.swapaxes(x, -1, -2), None


@op("gram", gram_forward,
    r"$out_{ab} = $x_{a} \cdot $x_{b}",
    r"\dL{$x} = \left(\dL{$out} + \dL{$out}^{\!\top}\right) $x",
    out=r"\cos", x="e")
def gram(g, out, args, cache, attrs):
    (x,) = args
    return ((g + np.swapaxes(g, -1, -2)) @ x,)


# --- the fine-tuning loss: 1 − cosine of two sentence embeddings ----------------------------


def cosine_loss_forward(e):
    return np.asarray(1.0 - e[0] @ e[1], dtype=e.dtype), None


@op("cosine_loss", cosine_loss_forward,
    clauses(r"$out = 1 - $x_{A} \cdot $x_{B}",
            r"$x_{A} \cdot $x_{B} = \cos(u_A, u_B)"),
    r"\dL{$x_{A}} = -$x_{B},\quad \dL{$x_{B}} = -$x_{A}",
    out="L", x="e")
def cosine_loss(g, out, args, cache, attrs):
    (e,) = args
    return (-g * e[::-1],)
