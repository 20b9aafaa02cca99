"""The encoder-decoder written again with torch's functions, for configs torch.nn.Transformer
cannot build (the tutorial's d_k 4 with d_model 6, one encoder head and two decoder heads, the
single-linear FFN, attention without biases).

Nothing here comes from the engine: embeddings with F.embedding, the positional encoding from
its formula, per-head projections, torch.softmax, F.layer_norm, torch.relu and F.cross_entropy
with autograd for every gradient; only the parameter names (row-vector weights, x W + b) are
ours, so the same dictionary loads both sides. Imported only by ``handformer verify`` and the
tests.
"""

from __future__ import annotations

import math

import numpy as np

from ...interop.torch_ref import import_torch
from .config import Config
from .torch_ref import TorchModel


class TorchMirror(TorchModel):
    """The same stages and loss gradients as ``TorchReference``, for any config."""

    def __init__(self, params: dict[str, np.ndarray], cfg: Config, dtype="float64"):
        self.torch = torch = import_torch()
        self.cfg, self.dtype = cfg, getattr(torch, dtype)
        self.params = {k: torch.tensor(np.asarray(v, dtype=np.float64)).to(self.dtype)
                       .requires_grad_() for k, v in params.items()}
        self._pe: dict = {}

    # --- the model --------------------------------------------------------------------------

    def positional(self, n: int):
        """PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(the same); computed once
        per length (a training step's benchmark should not time it every step)."""
        if n not in self._pe:
            self._pe[n] = self._positional(n)
        return self._pe[n]

    def _positional(self, n: int):
        t, d = self.torch, self.cfg.d_model
        pos = t.arange(n, dtype=self.dtype)[:, None]
        angle = pos / t.pow(t.tensor(10000.0, dtype=self.dtype),
                            t.arange(0, d, 2, dtype=self.dtype) / d)
        pe = t.zeros(n, d, dtype=self.dtype)
        pe[:, 0::2] = t.sin(angle)
        pe[:, 1::2] = t.cos(angle)[:, : d // 2]
        return pe

    def embed(self, side: str, ids):
        table = self.params["embed.weight" if self.cfg.tie_embeddings else f"{side}.weight"]
        x = self.torch.nn.functional.embedding(ids, table)
        if self.cfg.scale_embeddings:
            x = x * math.sqrt(self.cfg.d_model)
        return x + self.positional(ids.shape[-1])

    def linear(self, x, w: str, b: str):
        y = x @ self.params[w]
        return y + self.params[b] if b in self.params else y

    def attention(self, name: str, x, kv, heads: int, blocked):
        """Multi-head attention; ``blocked`` (None, or batch × n × m, or batch × 1 × m: padded
        keys) is True where a query may not look."""
        c, t = self.cfg, self.torch
        b, n, m = x.shape[0], x.shape[1], kv.shape[1]

        def split(y, length, width):
            return y.view(b, length, heads, width).transpose(1, 2)

        q = split(self.linear(x, f"{name}.w_q", f"{name}.b_q"), n, c.d_k)
        k = split(self.linear(kv, f"{name}.w_k", f"{name}.b_k"), m, c.d_k)
        v = split(self.linear(kv, f"{name}.w_v", f"{name}.b_v"), m, c.d_v)
        scores = q @ k.transpose(-1, -2) / math.sqrt(c.d_k)
        if blocked is not None:
            scores = scores.masked_fill(blocked[:, None], float("-inf"))
        z = (t.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(b, n, heads * c.d_v)
        return self.linear(z, f"{name}.w_o", f"{name}.b_o")

    def ffn(self, name: str, x):
        h = self.torch.relu(self.linear(x, f"{name}.w_1", f"{name}.b_1"))
        return h if self.cfg.ffn == "single" else self.linear(h, f"{name}.w_2", f"{name}.b_2")

    def norm(self, x, name: str):
        p = self.params
        return self.torch.nn.functional.layer_norm(
            x, (x.shape[-1],), p[f"{name}.gamma"], p[f"{name}.beta"], self.cfg.ln_eps)

    def sublayer(self, x, ln: str, make):
        """Post-norm LN(x + f(x)) (the paper) or pre-norm x + f(LN(x))."""
        if self.cfg.norm == "pre":
            return x + make(self.norm(x, ln))
        return self.norm(x + make(x), ln)

    def _run(self, src_ids, tgt_ids, src_pad=None, tgt_pad=None) -> dict:
        t, c = self.torch, self.cfg
        src, tgt = self._ids(src_ids), self._ids(tgt_ids)
        n_tgt = tgt.shape[1]
        src_blocked = None if src_pad is None else t.as_tensor(np.atleast_2d(src_pad))[:, None]
        tgt_blocked = t.ones(n_tgt, n_tgt, dtype=t.bool).triu(1)[None]  # the future
        if tgt_pad is not None:
            tgt_blocked = tgt_blocked | t.as_tensor(np.atleast_2d(tgt_pad))[:, None]
        out = {}
        x = out["src_embed.out"] = self.embed("src_embed", src)
        for i in range(c.encoder_layers):
            p = f"encoder.{i}"
            x = self.sublayer(x, f"{p}.ln1", lambda h, p=p: self.attention(
                f"{p}.self_attn", h, h, c.heads, src_blocked))
            x = self.sublayer(x, f"{p}.ln2", lambda h, p=p: self.ffn(f"{p}.ffn", h))
            out[f"{p}.out"] = x
        if c.final_norm:
            x = out["encoder.norm.out"] = self.norm(x, "encoder.norm")
        y = out["tgt_embed.out"] = self.embed("tgt_embed", tgt)
        for i in range(c.decoder_layers):
            p = f"decoder.{i}"
            y = self.sublayer(y, f"{p}.ln1", lambda h, p=p: self.attention(
                f"{p}.self_attn", h, h, c.decoder_heads, tgt_blocked))
            y = self.sublayer(y, f"{p}.ln2", lambda h, p=p: self.attention(
                f"{p}.cross_attn", h, x, c.decoder_heads, src_blocked))
            y = self.sublayer(y, f"{p}.ln3", lambda h, p=p: self.ffn(f"{p}.ffn", h))
            out[f"{p}.out"] = y
        if c.final_norm:
            y = out["decoder.norm.out"] = self.norm(y, "decoder.norm")
        w = self.params["embed.weight"].T if c.tie_embeddings else self.params["generator.w"]
        out["generator.logits"] = y @ w + self.params["generator.b"]
        return out

    def _ids(self, ids):
        """A batch of ids as a tensor (a tensor of ids, from a training step, is used as is)."""
        t = self.torch
        return ids if isinstance(ids, t.Tensor) and ids.dim() == 2 else t.as_tensor(
            np.atleast_2d(ids))

    def loss_grads(self, src_ids, tgt_ids, targets, weights, smoothing=0.0, src_pad=None,
                   tgt_pad=None) -> tuple[float, dict[str, np.ndarray]]:
        """Cross-entropy (weighted mean over positions) and ∂L/∂θ for every parameter."""
        for p in self.params.values():
            p.grad = None
        loss = self.loss(src_ids, tgt_ids, targets, weights, smoothing, src_pad, tgt_pad)
        loss.backward()
        return float(loss.detach()), {k: p.grad.numpy() for k, p in self.params.items()}
