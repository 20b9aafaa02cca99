"""The same model in PyTorch (torch.nn.Transformer), built from our weights, for checking.

Imported only by ``handformer verify`` and the tests: the walkthrough never loads torch.
"""

from __future__ import annotations

import math

import numpy as np

from ..config import Config, HandformerError
from .weights import to_state_dict


class TorchMissing(HandformerError):
    """torch is an optional extra."""


def import_torch():
    try:
        import torch
    except ImportError:
        raise TorchMissing(
            "PyTorch is not installed; it is needed only for verification. "
            "Install it with: pip install 'handformer[torch]'") from None
    return torch


def torch_unsupported(cfg: Config) -> list[str]:
    """What in this config torch.nn.Transformer cannot express (empty: it can)."""
    reasons = []
    if cfg.heads * cfg.d_k != cfg.d_model or cfg.d_v != cfg.d_k:
        reasons.append(f"d_k {cfg.d_k} × heads {cfg.heads} ≠ d_model {cfg.d_model} "
                       f"(torch splits d_model evenly across heads)")
    if cfg.decoder_heads != cfg.heads:
        reasons.append(f"decoder heads {cfg.decoder_heads} ≠ encoder heads {cfg.heads} "
                       f"(torch uses one nhead)")
    elif cfg.decoder_heads * cfg.d_k != cfg.d_model:
        reasons.append("decoder heads × d_k ≠ d_model")
    if cfg.ffn != "paper":
        reasons.append("single-linear FFN (torch's layer has two linears)")
    if not cfg.attn_bias:
        reasons.append("attention without biases (torch's bias=False drops every bias)")
    return reasons


class TorchReference:
    """Embeddings + positional encoding + nn.Transformer + generator, float64, dropout off."""

    def __init__(self, params: dict[str, np.ndarray], cfg: Config, dtype="float64"):
        torch = import_torch()
        reasons = torch_unsupported(cfg)
        if reasons:
            raise HandformerError("torch cannot express this model: " + "; ".join(reasons))
        self.torch, self.cfg = torch, cfg
        self.dtype = getattr(torch, dtype)
        vocab_size = params["src_embed.weight"].shape[0]
        nn = torch.nn
        self.src_embed = nn.Embedding(vocab_size, cfg.d_model)
        self.tgt_embed = nn.Embedding(vocab_size, cfg.d_model)
        self.transformer = self._transformer(nn)
        self.generator = nn.Linear(cfg.d_model, vocab_size)
        self.modules = nn.ModuleDict({"src_embed": self.src_embed, "tgt_embed": self.tgt_embed,
                                      "generator": self.generator}).to(self.dtype)
        self.transformer.to(self.dtype)
        self._load(to_state_dict(params, cfg))

    def _transformer(self, nn):
        c = self.cfg
        kw = dict(d_model=c.d_model, nhead=c.heads, dim_feedforward=c.d_ff, dropout=0.0,
                  batch_first=True, layer_norm_eps=c.ln_eps)
        enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(**kw), c.encoder_layers,
                                    norm=nn.LayerNorm(c.d_model, eps=c.ln_eps) if c.final_norm else None,
                                    enable_nested_tensor=False)
        dec = nn.TransformerDecoder(nn.TransformerDecoderLayer(**kw), c.decoder_layers,
                                    norm=nn.LayerNorm(c.d_model, eps=c.ln_eps) if c.final_norm else None)
        model = nn.Transformer(custom_encoder=enc, custom_decoder=dec, batch_first=True, **{
            k: v for k, v in kw.items() if k in ("d_model", "nhead", "dropout")})
        return model.train()  # train mode keeps torch off its fused fast path; dropout is 0

    def _load(self, state: dict[str, np.ndarray]) -> None:
        t = self.torch
        tensors = {k: t.from_numpy(np.array(v)).to(self.dtype) for k, v in state.items()}
        trans = {k: v for k, v in tensors.items() if k.startswith(("encoder.", "decoder."))}
        self.transformer.load_state_dict(trans, strict=True)
        rest = {k: v for k, v in tensors.items() if k not in trans}
        self.modules.load_state_dict(rest, strict=True)

    def positional(self, n: int):
        t, d = self.torch, self.cfg.d_model
        pos = t.arange(n, dtype=self.dtype)[:, None]
        div = t.pow(t.tensor(10000.0, dtype=self.dtype), t.arange(0, d, 2, dtype=self.dtype) / d)
        pe = t.zeros(n, d, dtype=self.dtype)
        pe[:, 0::2] = t.sin(pos / div)
        pe[:, 1::2] = t.cos(pos / div)
        return pe

    def embed(self, table, ids):
        x = table(ids)
        if self.cfg.scale_embeddings:
            x = x * math.sqrt(self.cfg.d_model)
        return x + self.positional(ids.shape[-1])

    def stages(self, src_ids, tgt_ids, src_pad=None, tgt_pad=None) -> dict[str, np.ndarray]:
        """Output of every stage: embeddings, each layer, each final norm, logits."""
        t = self.torch
        src = t.as_tensor(np.atleast_2d(src_ids))
        tgt = t.as_tensor(np.atleast_2d(tgt_ids))
        sp = None if src_pad is None else t.as_tensor(np.atleast_2d(src_pad))
        tp = None if tgt_pad is None else t.as_tensor(np.atleast_2d(tgt_pad))
        causal = self.transformer.generate_square_subsequent_mask(tgt.shape[1], dtype=self.dtype)
        out = {}
        with t.no_grad():
            x = out["src_embed.out"] = self.embed(self.src_embed, src)
            for i, layer in enumerate(self.transformer.encoder.layers):
                x = out[f"encoder.{i}.out"] = layer(x, src_key_padding_mask=sp)
            if self.transformer.encoder.norm is not None:
                x = out["encoder.norm.out"] = self.transformer.encoder.norm(x)
            y = out["tgt_embed.out"] = self.embed(self.tgt_embed, tgt)
            for i, layer in enumerate(self.transformer.decoder.layers):
                y = out[f"decoder.{i}.out"] = layer(y, x, tgt_mask=causal,
                                                    tgt_key_padding_mask=tp,
                                                    memory_key_padding_mask=sp)
            if self.transformer.decoder.norm is not None:
                y = out["decoder.norm.out"] = self.transformer.decoder.norm(y)
            out["generator.logits"] = self.generator(y)
        squeeze = np.ndim(src_ids) == 1
        return {k: (v[0] if squeeze else v).numpy() for k, v in out.items()}
