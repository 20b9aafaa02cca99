"""The torch side of benchmarks/train_step.py: the same model and step in torch eager.

Where torch.nn.Transformer can express the config, it is used (through
interop.torch_ref.TorchReference, with our weights). The tutorial preset it cannot express;
there ``FunctionalMirror`` computes the same ops with torch functions (per-head projections
with d_k 4, 1 encoder head and 2 decoder heads, single-linear FFN, no biases in attention).
"""

from __future__ import annotations

import math

import numpy as np
import torch
import torch.nn.functional as F

from handformer.engine.ops.basic import positional_forward
from handformer.interop.torch_ref import TorchReference, torch_unsupported


class TorchStep:
    """zero_grad → forward → cross-entropy → backward → SGD step, as one call."""

    def __init__(self, cfg, params, data, dtype: str, lr: float):
        self.dtype = getattr(torch, dtype)
        src, tgt, out = (torch.as_tensor(np.atleast_2d(a)) for a in data)
        self.src, self.tgt, self.out = src, tgt, out.reshape(-1)
        pe = positional_forward(n=max(src.shape[1], tgt.shape[1]), d=cfg.d_model)[0]
        self.pe = torch.tensor(pe).to(self.dtype)
        self.scale = math.sqrt(cfg.d_model) if cfg.scale_embeddings else 1.0
        self.mirror = bool(torch_unsupported(cfg))
        if self.mirror:
            self.model = FunctionalMirror(cfg, params, self.dtype)
            parameters = list(self.model.params.values())
        else:
            self.model = TorchReference(params, cfg, dtype=dtype)
            self.causal = self.model.transformer.generate_square_subsequent_mask(
                tgt.shape[1], dtype=self.dtype)
            parameters = list(self.model.transformer.parameters()) + [
                p for m in (self.model.src_embed, self.model.tgt_embed, self.model.generator)
                for p in m.parameters()]
        self.opt = torch.optim.SGD(parameters, lr=lr)

    def __call__(self) -> float:
        self.opt.zero_grad(set_to_none=True)
        logits = self.mirror_logits() if self.mirror else self.transformer_logits()
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), self.out)
        loss.backward()
        self.opt.step()
        return loss.item()

    def transformer_logits(self):
        m = self.model
        x = m.src_embed(self.src) * self.scale + self.pe[: self.src.shape[1]]
        y = m.tgt_embed(self.tgt) * self.scale + self.pe[: self.tgt.shape[1]]
        return m.generator(m.transformer(x, y, tgt_mask=self.causal))

    def mirror_logits(self):
        return self.model(self.src, self.tgt, self.pe, self.scale)


class FunctionalMirror:
    """handformer's model written with torch functions (any config, row-vector weights)."""

    def __init__(self, cfg, params, dtype):
        self.cfg = cfg
        self.params = {k: torch.tensor(np.asarray(v, dtype=np.float64)).to(dtype)
                       .requires_grad_() for k, v in params.items()}
        n = 64
        self.causal = torch.ones(n, n, dtype=torch.bool).tril()

    def __call__(self, src, tgt, pe, scale):
        p, c = self.params, self.cfg
        x = F.embedding(src, p["src_embed.weight"]) * scale + pe[: src.shape[1]]
        for i in range(c.encoder_layers):
            x = self.norm(x + self.attention(f"encoder.{i}.self_attn", x, x, c.heads, None),
                          f"encoder.{i}.ln1")
            x = self.norm(x + self.ffn(f"encoder.{i}.ffn", x), f"encoder.{i}.ln2")
        if c.final_norm:
            x = self.norm(x, "encoder.norm")
        y = F.embedding(tgt, p["tgt_embed.weight"]) * scale + pe[: tgt.shape[1]]
        mask = self.causal[: tgt.shape[1], : tgt.shape[1]]
        for i in range(c.decoder_layers):
            q = f"decoder.{i}"
            y = self.norm(y + self.attention(f"{q}.self_attn", y, y, c.decoder_heads, mask),
                          f"{q}.ln1")
            y = self.norm(y + self.attention(f"{q}.cross_attn", y, x, c.decoder_heads, None),
                          f"{q}.ln2")
            y = self.norm(y + self.ffn(f"{q}.ffn", y), f"{q}.ln3")
        if c.final_norm:
            y = self.norm(y, "decoder.norm")
        return y @ p["generator.w"] + p["generator.b"]

    def linear(self, x, w, b=None):
        y = x @ self.params[w]
        return y + self.params[b] if b in self.params else y

    def attention(self, name, x, kv, heads, mask):
        c = self.cfg
        b, n, m = x.shape[0], x.shape[1], kv.shape[1]
        q = self.linear(x, f"{name}.w_q", f"{name}.b_q").view(b, n, heads, c.d_k).transpose(1, 2)
        k = self.linear(kv, f"{name}.w_k", f"{name}.b_k").view(b, m, heads, c.d_k).transpose(1, 2)
        v = self.linear(kv, f"{name}.w_v", f"{name}.b_v").view(b, m, heads, c.d_v).transpose(1, 2)
        s = q @ k.transpose(-1, -2) / math.sqrt(c.d_k)
        if mask is not None:
            s = s.masked_fill(~mask, float("-inf"))
        z = (torch.softmax(s, dim=-1) @ v).transpose(1, 2).reshape(b, n, heads * c.d_v)
        return self.linear(z, f"{name}.w_o", f"{name}.b_o")

    def ffn(self, name, x):
        h = torch.relu(self.linear(x, f"{name}.w_1", f"{name}.b_1"))
        return h if self.cfg.ffn == "single" else self.linear(h, f"{name}.w_2", f"{name}.b_2")

    def norm(self, x, name):
        p = self.params
        return F.layer_norm(x, (x.shape[-1],), p[f"{name}.gamma"], p[f"{name}.beta"],
                            self.cfg.ln_eps)
