"""An independent reference of the encoder-decoder Transformer, for the tests only: plain NumPy
written from the formulas of the tutorial's steps 4-16 as the project's specification states
them (sinusoidal positions by pair index, Q Kᵀ/√d_k per head, post-norm LN(x + Sublayer(x))
with ε inside the root, cross-entropy over the target positions, SGD), sharing no code with
handformer. Torch cannot build the tutorial's configuration (d_k 4 with d_model 6, one encoder
head and two decoder heads, one linear layer as FFN), so this is what checks it.

One sentence pair at a time: a sequence is an (n, d) matrix, rows are tokens, weights apply
as X W + b. Every step keeps its value under the name the tape gives that step and, on the
way back, its gradient under the same name, so a test can hold the two side by side. A head's
Q, K, V, scores, pattern and Z are stacked on a first axis (h, n, ·), head h owning columns
h·d_k … (h+1)·d_k − 1 of W^Q, W^K and h·d_v … of W^V.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Sizes:
    """The shape of the model, named as in the SPEC."""

    d_model: int
    enc_heads: int
    dec_heads: int
    d_k: int
    d_v: int
    enc_layers: int = 1
    dec_layers: int = 1
    ffn: str = "single"  # "single": ReLU(X W + b); "paper": ReLU(X W1 + b1) W2 + b2
    attn_bias: bool = False
    scale_embeddings: bool = False  # X_tok · √d_model
    final_norm: bool = False  # one more LayerNorm after each stack (torch's)
    eps: float = 1e-5
    smoothing: float = 0.0  # label smoothing ε
    dropout: float = 0.0  # p; applied only where a mask is given


def positional_encoding(n: int, d: int) -> np.ndarray:
    """PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(same); i the pair index."""
    pe = np.zeros((n, d))
    for pos in range(n):
        for i in range(d // 2):
            angle = pos / 10000.0 ** (2 * i / d)
            pe[pos, 2 * i], pe[pos, 2 * i + 1] = math.sin(angle), math.cos(angle)
    return pe


def softmax_rows(s: np.ndarray) -> np.ndarray:
    """e^{s_ij} / Σ_k e^{s_ik}, computed as e^{s_ij − max_k s_ik} (the same quotient)."""
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


class Reference:
    """Forward values and gradients of one sentence pair; ``masks``: dropout keep-masks by the
    tape's step name (a step without a mask is not dropped)."""

    def __init__(self, sizes: Sizes, params: dict, masks: dict | None = None):
        self.s, self.p, self.masks = sizes, params, masks or {}
        self.values: dict[str, np.ndarray] = {}
        self.grads: dict[str, np.ndarray] = {}
        self._backs: list = []  # (name, function of ∂L/∂name), run last to first

    # --- bookkeeping ------------------------------------------------------------------------

    def put(self, name: str, value, back=None) -> str:
        self.values[name] = value
        if back is not None:
            self._backs.append((name, back))
        return name

    def acc(self, name: str, g) -> None:
        self.grads[name] = self.grads[name] + g if name in self.grads else g

    def v(self, name: str) -> np.ndarray:
        return self.values[name] if name in self.values else self.p[name]

    # --- the whole model --------------------------------------------------------------------

    def run(self, src_ids, tgt_ids, targets) -> float:
        """Encoder, decoder, generator and the loss; returns L."""
        s, self.targets = self.s, np.asarray(targets)
        x = self.embed("src", src_ids)
        for i in range(s.enc_layers):
            p = f"encoder.{i}"
            x = self.add_norm(p, "ln1", x, self.attention(f"{p}.self_attn", x, x, s.enc_heads))
            x = self.add_norm(p, "ln2", x, self.ffn(f"{p}.ffn", x))
            x = self.identity(f"{p}.out", x)
        memory = self.layer_norm("encoder.norm", x) if s.final_norm else x
        y = self.embed("tgt", tgt_ids)
        for i in range(s.dec_layers):
            p = f"decoder.{i}"
            y = self.add_norm(p, "ln1", y, self.attention(f"{p}.self_attn", y, y, s.dec_heads,
                                                          causal=True))
            y = self.add_norm(p, "ln2", y, self.attention(f"{p}.cross_attn", y, memory,
                                                          s.dec_heads))
            y = self.add_norm(p, "ln3", y, self.ffn(f"{p}.ffn", y))
            y = self.identity(f"{p}.out", y)
        if s.final_norm:
            y = self.layer_norm("decoder.norm", y)
        logits = self.linear("generator.logits", y, "generator.w", "generator.b")
        self.put("generator.probs", softmax_rows(self.v(logits)))
        return self.cross_entropy(logits, np.asarray(targets))

    def backward(self) -> dict[str, np.ndarray]:
        """∂L/∂(every step and parameter), the chain rule from the loss back to the ids."""
        self.grads = {"loss": np.float64(1.0)}
        for name, back in reversed(self._backs):
            if name in self.grads:
                back(self.grads[name])
        return self.grads

    # --- steps 4-6: embedding + positional encoding -----------------------------------------

    def embed(self, side: str, ids) -> str:
        ids = np.asarray(ids)
        table = f"{side}_embed.weight"
        self.put(f"{side}.ids", ids)

        def back_tok(g):
            grad = np.zeros_like(self.p[table])
            for t, w in enumerate(ids):
                grad[w] += g[t]
            self.acc(table, grad)

        x = self.put(f"{side}_embed.tok", self.p[table][ids], back_tok)
        if self.s.scale_embeddings:
            root = math.sqrt(self.s.d_model)
            x = self.put(f"{side}_embed.scaled", self.v(x) * root,
                         lambda g, x=x: self.acc(x, g * root))
        pos = self.put(f"{side}_embed.pos", positional_encoding(len(ids), self.s.d_model))
        return self.dropout(f"{side}_embed.dropout", self.add(f"{side}_embed.out", x, pos))

    # --- steps 7-12: attention, add & norm, feed-forward ------------------------------------

    def attention(self, p: str, x: str, kv: str, heads: int, causal: bool = False) -> str:
        s = self.s
        q = self.project(p, "q", x, heads, s.d_k)
        k = self.project(p, "k", kv, heads, s.d_k)
        v = self.project(p, "v", kv, heads, s.d_v)
        Q, K = self.v(q), self.v(k)
        root = math.sqrt(s.d_k)

        def back_scores(g):
            self.acc(q, g @ K / root)
            self.acc(k, np.transpose(g, (0, 2, 1)) @ Q / root)

        scores = self.put(f"{p}.scores", Q @ np.transpose(K, (0, 2, 1)) / root, back_scores)
        if causal:
            n = Q.shape[1]
            seen = np.array([[j <= i for j in range(n)] for i in range(n)])
            scores = self.put(f"{p}.masked", np.where(seen, self.v(scores), -np.inf),
                              lambda g, s_=scores: self.acc(s_, np.where(seen, g, 0.0)))
        A = softmax_rows(self.v(scores))

        def back_softmax(g):
            self.acc(scores, A * (g - (g * A).sum(axis=-1, keepdims=True)))

        a = self.dropout(f"{p}.pattern_dropout", self.put(f"{p}.pattern", A, back_softmax))
        A_used, V = self.v(a), self.v(v)

        def back_z(g):
            self.acc(a, g @ np.transpose(V, (0, 2, 1)))
            self.acc(v, np.transpose(A_used, (0, 2, 1)) @ g)

        z = self.put(f"{p}.z", A_used @ V, back_z)
        Z = self.v(z)
        concat = self.put(f"{p}.concat", np.concatenate(list(Z), axis=1),
                          lambda g: self.acc(z, np.stack(np.split(g, heads, axis=1))))
        bias = f"{p}.b_o" if s.attn_bias else None
        return self.dropout(f"{p}.dropout", self.linear(f"{p}.out", concat, f"{p}.w_o", bias))

    def project(self, p: str, which: str, x: str, heads: int, width: int) -> str:
        """X W^{(h)} (+ b^{(h)}) for every head h, stacked (h, n, width)."""
        w = f"{p}.w_{which}"
        b = f"{p}.b_{which}" if self.s.attn_bias else None
        full = self.v(x) @ self.p[w] + (self.p[b] if b else 0.0)
        stacked = np.stack([full[:, h * width:(h + 1) * width] for h in range(heads)])

        def back(g):
            side_by_side = np.concatenate(list(g), axis=1)
            self.acc(x, side_by_side @ self.p[w].T)
            self.acc(w, self.v(x).T @ side_by_side)
            if b:
                self.acc(b, side_by_side.sum(axis=0))

        return self.put(f"{p}.{which}", stacked, back)

    def add_norm(self, p: str, ln: str, x: str, sub: str) -> str:
        """LN(x + Sublayer(x))."""
        return self.layer_norm(f"{p}.{ln}", self.add(f"{p}.{ln}.resid", x, sub))

    def layer_norm(self, p: str, x: str) -> str:
        """γ ⊙ (x − μ) / √(σ² + ε) + β per row, σ² the biased variance."""
        X, gamma, beta = self.v(x), self.p[f"{p}.gamma"], self.p[f"{p}.beta"]
        d = X.shape[1]
        mu = X.sum(axis=1, keepdims=True) / d
        sigma = np.sqrt(((X - mu) ** 2).sum(axis=1, keepdims=True) / d + self.s.eps)
        xhat = (X - mu) / sigma

        def back(g):
            gh = g * gamma  # ∂L/∂x̂
            self.acc(x, (gh - gh.mean(axis=1, keepdims=True)
                         - xhat * (gh * xhat).mean(axis=1, keepdims=True)) / sigma)
            self.acc(f"{p}.gamma", (g * xhat).sum(axis=0))
            self.acc(f"{p}.beta", g.sum(axis=0))

        return self.put(f"{p}.out", gamma * xhat + beta, back)

    def ffn(self, p: str, x: str) -> str:
        """Tutorial: ReLU(X W + b). Paper: ReLU(X W1 + b1) W2 + b2."""
        hidden = self.linear(f"{p}.pre", x, f"{p}.w_1", f"{p}.b_1")
        if self.s.ffn == "single":
            return self.dropout(f"{p}.dropout", self.relu(f"{p}.out", hidden))
        act = self.relu(f"{p}.act", hidden)
        return self.dropout(f"{p}.dropout", self.linear(f"{p}.out", act, f"{p}.w_2", f"{p}.b_2"))

    # --- the small steps ---------------------------------------------------------------------

    def linear(self, name: str, x: str, w: str, b: str | None) -> str:
        X, W = self.v(x), self.p[w]

        def back(g):
            self.acc(x, g @ W.T)
            self.acc(w, X.T @ g)
            if b:
                self.acc(b, g.sum(axis=0))

        return self.put(name, X @ W + (self.p[b] if b else 0.0), back)

    def relu(self, name: str, x: str) -> str:
        X = self.v(x)
        return self.put(name, np.where(X > 0, X, 0.0),
                        lambda g: self.acc(x, np.where(X > 0, g, 0.0)))

    def add(self, name: str, a: str, b: str) -> str:
        def back(g):
            self.acc(a, g)
            self.acc(b, g)

        return self.put(name, self.v(a) + self.v(b), back)

    def identity(self, name: str, x: str) -> str:
        return self.put(name, self.v(x), lambda g: self.acc(x, g))

    def dropout(self, name: str, x: str) -> str:
        """m ⊙ x / (1 − p), m the step's keep-mask; no mask: no dropout here."""
        if name not in self.masks:
            return x
        factor = self.masks[name] / (1.0 - self.s.dropout)
        return self.put(name, self.v(x) * factor, lambda g: self.acc(x, g * factor))

    # --- steps 13-14: the loss -----------------------------------------------------------------

    def cross_entropy(self, logits: str, targets: np.ndarray) -> float:
        """L = −(1/T) Σ_t Σ_w q_tw log p_tw, q = (1 − ε)·onehot(target) + ε/V."""
        z = self.v(logits)
        n, vocab = z.shape
        log_p = z - z.max(axis=1, keepdims=True)
        log_p = log_p - np.log(np.exp(log_p).sum(axis=1, keepdims=True))
        q = np.full((n, vocab), self.s.smoothing / vocab)
        q[np.arange(n), targets] += 1.0 - self.s.smoothing
        loss = -(q * log_p).sum() / n
        self.put("loss", np.float64(loss),
                 lambda g: self.acc(logits, g * (np.exp(log_p) - q) / n))
        return float(loss)


def sgd(params: dict, grads: dict, lr: float) -> dict:
    """θ ← θ − η g for every parameter (a parameter without a gradient stays)."""
    return {name: value - lr * grads[name] if name in grads else value
            for name, value in params.items()}
