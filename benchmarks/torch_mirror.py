"""The torch side of benchmarks/train_step.py: the same model and step in torch eager.

Where torch.nn.Transformer can express the config, it is used (through
families.transformer.torch_ref.TorchReference, with our weights). The tutorial preset it cannot express;
there families.transformer.torch_mirror.TorchMirror (what `handformer verify` uses, held against
nn.Transformer by the tests) computes the same ops with torch functions (per-head projections
with d_k 4, 1 encoder head and 2 decoder heads, single-linear FFN, no biases in attention).
"""

from __future__ import annotations

import math

import numpy as np
import torch
import torch.nn.functional as F

from handformer.engine.ops.basic import positional_forward
from handformer.families.transformer.torch_mirror import TorchMirror
from handformer.families.transformer.torch_ref import TorchReference, torch_unsupported


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
            self.model = TorchMirror(params, cfg, dtype=dtype)
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
        return self.model.logits(self.src, self.tgt)
