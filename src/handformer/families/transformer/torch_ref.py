"""The encoder-decoder in PyTorch (torch.nn.Transformer), built from our weights, for checking.

Imported only by ``handformer verify`` and the tests: the walkthrough never loads torch.
"""

from __future__ import annotations

import math

import numpy as np

from ...errors import HandformerError, TorchMissing, TorchUnsupported  # noqa: F401  (raised here)
from ...interop.torch_ref import import_torch
from .config import Config
from .weights import _params_from_torch, table_sizes, to_state_dict


def torch_unsupported(cfg: Config) -> list[str]:
    """What in this config torch.nn.Transformer cannot express (empty: it can)."""
    reasons = []
    if cfg.heads * cfg.d_k != cfg.d_model:
        reasons.append(f"d_k {cfg.d_k} × heads {cfg.heads} = {cfg.heads * cfg.d_k} ≠ d_model "
                       f"{cfg.d_model} (torch splits d_model evenly across the heads)")
    if cfg.d_v != cfg.d_k:
        reasons.append(f"d_v {cfg.d_v} ≠ d_k {cfg.d_k} (torch uses d_model / heads for both)")
    if cfg.decoder_heads != cfg.heads:
        reasons.append(f"decoder heads {cfg.decoder_heads} ≠ encoder heads {cfg.heads} "
                       f"(torch has one nhead for both stacks)")
    if cfg.ffn != "paper":
        reasons.append("single-linear FFN, --ffn single (torch's layer has two linears)")
    if not cfg.attn_bias:
        reasons.append("attention without biases, --no-attn-bias (torch's bias=False also "
                       "drops the feed-forward and layer-norm biases)")
    return reasons


def check_expressible(cfg: Config) -> None:
    """Raise TorchUnsupported naming every option torch.nn.Transformer cannot express."""
    reasons = torch_unsupported(cfg)
    if reasons:
        raise TorchUnsupported(
            f"torch.nn.Transformer cannot express this model (preset {cfg.preset}): "
            + "; ".join(reasons)
            + ". `handformer verify` without --reference nn checks it against the same model "
              "written with torch's functions; nn.Transformer can build e.g. --preset small, "
              "--preset paper or --preset small --d-model 16 --heads 2.")


class TorchModel:
    """What both torch models of the encoder-decoder answer (this one and torch_mirror's):
    every stage's output, and the loss, from their ``_run``."""

    def stages(self, src_ids, tgt_ids, src_pad=None, tgt_pad=None) -> dict[str, np.ndarray]:
        """Output of every stage: embeddings, each layer, each final norm, logits."""
        with self.torch.no_grad():
            out = self._run(src_ids, tgt_ids, src_pad, tgt_pad)
        squeeze = np.ndim(src_ids) == 1
        return {k: (v[0] if squeeze else v).numpy() for k, v in out.items()}

    def logits(self, src_ids, tgt_ids, src_pad=None, tgt_pad=None):
        """The last stage alone, with its graph (for a loss or a training step)."""
        return self._run(src_ids, tgt_ids, src_pad, tgt_pad)["generator.logits"]

    def loss(self, src_ids, tgt_ids, targets, weights, smoothing=0.0, src_pad=None,
             tgt_pad=None):
        """Cross-entropy with label smoothing, the mean over weighted positions (a tensor)."""
        t = self.torch
        logits = self.logits(src_ids, tgt_ids, src_pad, tgt_pad)
        per = t.nn.functional.cross_entropy(
            logits.reshape(-1, logits.shape[-1]), t.as_tensor(np.asarray(targets).reshape(-1)),
            reduction="none", label_smoothing=smoothing)
        w = t.as_tensor(np.asarray(weights, dtype=np.float64).reshape(-1)).to(self.dtype)
        return (per * w).sum() / w.sum()


class TorchReference(TorchModel):
    """Embeddings + positional encoding + nn.Transformer + generator, float64, dropout off."""

    def __init__(self, params: dict[str, np.ndarray], cfg: Config, dtype="float64"):
        torch = import_torch()
        check_expressible(cfg)
        self.torch, self.cfg = torch, cfg
        self.dtype = getattr(torch, dtype)
        self.device = "cpu"  # see to()
        n_src, n_tgt = table_sizes(params, cfg)
        nn = torch.nn
        # The stacks are built on the meta device: no memory and no random init (seconds, not
        # minutes, for `paper`); the real tensors arrive with load_state_dict(assign=True). The
        # small tables stay on the CPU: a meta normal_() would import torch._refs (~3 s).
        kw = dict(device="cpu", dtype=self.dtype)
        self.src_embed = nn.Embedding(n_src, cfg.d_model, **kw)
        self.tgt_embed = nn.Embedding(n_tgt, cfg.d_model, **kw)
        self.generator = nn.Linear(cfg.d_model, n_tgt, **kw)
        self.transformer = self._transformer(nn, dict(device="meta", dtype=self.dtype))
        self.modules = nn.ModuleDict({"src_embed": self.src_embed, "tgt_embed": self.tgt_embed,
                                      "generator": self.generator, "transformer": self.transformer})
        self._load(to_state_dict(params, cfg))
        if cfg.tie_embeddings:  # one Parameter in three places: autograd adds its three uses
            self.tgt_embed.weight = self.generator.weight = self.src_embed.weight

    def to(self, device: str) -> None:
        """Move every parameter to ``device`` (e.g. "cuda:1"); the inputs follow."""
        self.modules.to(device)
        self.device = device

    def _transformer(self, nn, factory: dict):
        c = self.cfg
        kw = dict(d_model=c.d_model, nhead=c.heads, dim_feedforward=c.d_ff, dropout=0.0,
                  batch_first=True, layer_norm_eps=c.ln_eps, norm_first=c.norm == "pre",
                  **factory)
        norm = (lambda: nn.LayerNorm(c.d_model, eps=c.ln_eps, **factory)) if c.final_norm else (
            lambda: None)
        enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(**kw), c.encoder_layers,
                                    norm=norm(), enable_nested_tensor=False)
        dec = nn.TransformerDecoder(nn.TransformerDecoderLayer(**kw), c.decoder_layers,
                                    norm=norm())
        model = nn.Transformer(custom_encoder=enc, custom_decoder=dec, **kw)
        return model.train()  # train mode keeps torch off its fused fast path; dropout is 0

    def _load(self, state: dict[str, np.ndarray]) -> None:
        t = self.torch
        # Shares memory with the (fresh, contiguous) arrays of to_state_dict: nothing here
        # writes to parameters, and a second copy of `paper` costs 350 MB and a second.
        tensors = {k: t.as_tensor(np.asarray(v, dtype=np.float64)).to(self.dtype)
                   for k, v in state.items()}
        named = {(k if k.startswith(("src_embed.", "tgt_embed.", "generator.")) else
                  f"transformer.{k}"): v for k, v in tensors.items()}
        self.modules.load_state_dict(named, strict=True, assign=True)

    def positional(self, n: int):
        t, d = self.torch, self.cfg.d_model
        kw = dict(dtype=self.dtype, device=self.device)
        pos = t.arange(n, **kw)[:, None]
        div = t.pow(t.tensor(10000.0, **kw), t.arange(0, d, 2, **kw) / d)
        pe = t.zeros(n, d, **kw)
        pe[:, 0::2] = t.sin(pos / div)
        pe[:, 1::2] = t.cos(pos / div)
        return pe

    def embed(self, table, ids):
        x = table(ids)
        if self.cfg.scale_embeddings:
            x = x * math.sqrt(self.cfg.d_model)
        return x + self.positional(ids.shape[-1])

    def _run(self, src_ids, tgt_ids, src_pad=None, tgt_pad=None) -> dict:
        """Every stage as torch tensors (batch axis always present)."""
        t = self.torch
        src = t.as_tensor(np.atleast_2d(src_ids), device=self.device)
        tgt = t.as_tensor(np.atleast_2d(tgt_ids), device=self.device)
        sp, tp = self._float_mask(src_pad), self._float_mask(tgt_pad)
        causal = self.transformer.generate_square_subsequent_mask(tgt.shape[1], dtype=self.dtype,
                                                                  device=self.device)
        out = {}
        x = out["src_embed.out"] = self.embed(self.src_embed, src)
        for i, layer in enumerate(self.transformer.encoder.layers):
            x = out[f"encoder.{i}.out"] = layer(x, src_key_padding_mask=sp)
        if self.transformer.encoder.norm is not None:
            x = out["encoder.norm.out"] = self.transformer.encoder.norm(x)
        y = out["tgt_embed.out"] = self.embed(self.tgt_embed, tgt)
        for i, layer in enumerate(self.transformer.decoder.layers):
            y = out[f"decoder.{i}.out"] = layer(y, x, tgt_mask=causal, tgt_key_padding_mask=tp,
                                                memory_key_padding_mask=sp)
        if self.transformer.decoder.norm is not None:
            y = out["decoder.norm.out"] = self.transformer.decoder.norm(y)
        out["generator.logits"] = self.generator(y)
        return out

    def _float_mask(self, pad):
        """True (pad) → −∞, as an additive mask of the same kind as the causal one."""
        if pad is None:
            return None
        t = self.torch
        pad = t.as_tensor(np.atleast_2d(pad), device=self.device)
        return t.zeros(pad.shape, dtype=self.dtype, device=self.device).masked_fill(
            pad, float("-inf"))

    def loss_grads(self, src_ids, tgt_ids, targets, weights, smoothing=0.0, src_pad=None,
                   tgt_pad=None) -> tuple[float, dict[str, np.ndarray]]:
        """Cross-entropy (mean over weighted positions) and ∂L/∂θ under our parameter names."""
        self.modules.zero_grad(set_to_none=True)
        loss = self.loss(src_ids, tgt_ids, targets, weights, smoothing, src_pad, tgt_pad)
        loss.backward()
        grads = {self._torch_name(k): p.grad.detach().numpy()
                 for k, p in self.modules.named_parameters()}
        sizes = (self.src_embed.weight.shape[0], self.tgt_embed.weight.shape[0])
        return float(loss.detach()), _params_from_torch(grads, self.cfg, sizes)

    @staticmethod
    def _torch_name(name: str) -> str:
        return name.removeprefix("transformer.")
