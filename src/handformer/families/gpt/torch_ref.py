"""The decoder-only model rebuilt from torch's own parts, for checking (`handformer verify
--family gpt` and the tests): nn.TransformerEncoderLayer with a causal mask (norm_first for
pre-norm), nn.LayerNorm, and the logits through the embedding table itself when tied; float64,
our weights copied in. Torch is imported only here, only when verifying."""

from __future__ import annotations

import math

import numpy as np

from ...interop.torch_ref import import_torch
from .config import GptConfig

torch = import_torch()


def positional(n: int, d: int) -> torch.Tensor:
    """The paper's sinusoids, written out again: PE(pos, 2i) = sin, PE(pos, 2i+1) = cos."""
    pe = torch.zeros(n, d, dtype=torch.float64)
    for pos in range(n):
        for i in range(0, d, 2):
            angle = pos / 10000 ** (i / d)
            pe[pos, i], pe[pos, i + 1] = math.sin(angle), math.cos(angle)
    return pe


class TorchGpt(torch.nn.Module):
    """A GPT from torch's parts, loaded with our parameters."""

    def __init__(self, cfg: GptConfig, params: dict):
        super().__init__()
        ours = {k: torch.tensor(v, dtype=torch.float64) for k, v in params.items()}
        self.cfg = cfg
        self.embed = torch.nn.Parameter(ours["embed.weight"].clone())
        self.layers = torch.nn.ModuleList()
        for i in range(cfg.layers):
            p = f"decoder.{i}"
            layer = torch.nn.TransformerEncoderLayer(
                cfg.d_model, cfg.heads, cfg.d_ff, dropout=0.0, activation="relu",
                layer_norm_eps=cfg.ln_eps, batch_first=True, norm_first=cfg.norm == "pre",
                dtype=torch.float64)
            with torch.no_grad():
                attn = layer.self_attn
                attn.in_proj_weight.copy_(torch.cat([ours[f"{p}.self_attn.w_{x}"].T for x in "qkv"]))
                attn.out_proj.weight.copy_(ours[f"{p}.self_attn.w_o"].T)
                if cfg.attn_bias:
                    attn.in_proj_bias.copy_(torch.cat([ours[f"{p}.self_attn.b_{x}"] for x in "qkv"]))
                    attn.out_proj.bias.copy_(ours[f"{p}.self_attn.b_o"])
                else:
                    attn.in_proj_bias.zero_()
                    attn.out_proj.bias.zero_()
                layer.linear1.weight.copy_(ours[f"{p}.ffn.w_1"].T)
                layer.linear1.bias.copy_(ours[f"{p}.ffn.b_1"])
                layer.linear2.weight.copy_(ours[f"{p}.ffn.w_2"].T)
                layer.linear2.bias.copy_(ours[f"{p}.ffn.b_2"])
                for ln, norm in (("ln1", layer.norm1), ("ln2", layer.norm2)):
                    norm.weight.copy_(ours[f"{p}.{ln}.gamma"])
                    norm.bias.copy_(ours[f"{p}.{ln}.beta"])
            self.layers.append(layer)
        self.final = None
        if cfg.final_norm:
            self.final = torch.nn.LayerNorm(cfg.d_model, eps=cfg.ln_eps, dtype=torch.float64)
            with torch.no_grad():
                self.final.weight.copy_(ours["decoder.norm.gamma"])
                self.final.bias.copy_(ours["decoder.norm.beta"])
        self.w_out = None if cfg.tie_embeddings else torch.nn.Parameter(ours["generator.w"].clone())

    def forward(self, ids: list[int]) -> dict:
        n = len(ids)
        stages = {"embed.out": self.embed[torch.tensor(ids)] + positional(n, self.cfg.d_model)}
        x = stages["embed.out"]
        causal = torch.nn.Transformer.generate_square_subsequent_mask(n, dtype=torch.float64)
        for i, layer in enumerate(self.layers):
            x = layer(x[None], src_mask=causal, is_causal=True)[0]
            stages[f"decoder.{i}.out"] = x
        if self.final is not None:
            x = stages["decoder.norm.out"] = self.final(x)
        w = self.embed.T if self.w_out is None else self.w_out
        stages["generator.logits"] = x @ w
        for value in stages.values():
            value.retain_grad()
        return stages

    def named(self) -> dict:
        """torch's parameters under our names (the attention's packed in_proj split back)."""
        out = {"embed.weight": self.embed}
        if self.w_out is not None:
            out["generator.w"] = self.w_out
        if self.final is not None:
            out |= {"decoder.norm.gamma": self.final.weight, "decoder.norm.beta": self.final.bias}
        for i, layer in enumerate(self.layers):
            p = f"decoder.{i}"
            out |= {f"{p}.self_attn.in_proj": layer.self_attn.in_proj_weight,
                    f"{p}.self_attn.w_o": layer.self_attn.out_proj.weight,
                    f"{p}.ffn.w_1": layer.linear1.weight, f"{p}.ffn.b_1": layer.linear1.bias,
                    f"{p}.ffn.w_2": layer.linear2.weight, f"{p}.ffn.b_2": layer.linear2.bias,
                    f"{p}.ln1.gamma": layer.norm1.weight, f"{p}.ln1.beta": layer.norm1.bias,
                    f"{p}.ln2.gamma": layer.norm2.weight, f"{p}.ln2.beta": layer.norm2.bias}
            if self.cfg.attn_bias:
                out |= {f"{p}.self_attn.in_bias": layer.self_attn.in_proj_bias,
                        f"{p}.self_attn.b_o": layer.self_attn.out_proj.bias}
        return out


def torch_grad_as_ours(name: str, grads: dict, cfg: GptConfig) -> dict:
    """Our parameters' gradients read off torch's: transposed where torch stores Wᵀ, the
    packed in_proj split into W^Q, W^K, W^V."""
    g = grads[name].numpy()
    if name.endswith("in_proj"):
        p = name.rsplit(".", 1)[0]
        q, k, v = np.split(g, [cfg.heads * cfg.d_k, 2 * cfg.heads * cfg.d_k])
        return {f"{p}.w_q": q.T, f"{p}.w_k": k.T, f"{p}.w_v": v.T}
    if name.endswith("in_bias"):
        p = name.rsplit(".", 1)[0]
        return dict(zip((f"{p}.b_q", f"{p}.b_k", f"{p}.b_v"), np.split(g, 3), strict=True))
    if name.endswith(("w_o", "w_1", "w_2")):
        return {name: g.T}
    return {name: g}




def ours(cfg: GptConfig, params: dict, ids: list[int], targets: list[int]):
    """Our tape of one text with its next-token loss, and every gradient (checked finite)."""
    from ...engine import finite
    from ...engine.tape import Tape
    from .model import forward

    tape = Tape(params, record=False)
    with finite.quiet():
        logits = forward(tape, cfg, ids)
        tape.run("loss", "cross_entropy", [logits],
                 {"targets": np.asarray(targets), "weights": np.ones(len(ids))})
        grads = tape.backward("loss")
    finite.check(tape)
    return tape, grads


def stage_rows(tape, stages: dict, targets: list[int]) -> list:
    """Each torch stage against our tape's step of that name, then the loss, as (name, shape,
    largest |ours − torch|) rows; torch's backward pass is run from that loss."""
    import torch.nn.functional as F

    loss = F.cross_entropy(stages["generator.logits"], torch.tensor(targets))
    loss.backward()
    rows = [(name, tuple(v.shape), float(np.max(np.abs(tape[name] - v.detach().numpy()))))
            for name, v in stages.items()]
    rows.append(("loss", (), abs(float(tape["loss"]) - loss.item())))
    return rows


def compare(cfg: GptConfig, params: dict, ids: list[int], targets: list[int]):
    """Our tape and torch on one text: every stage's and every parameter's gradient's largest
    |ours − torch|, as (name, shape, difference) rows, stages first."""
    tape, grads = ours(cfg, params, ids, targets)
    ref = TorchGpt(cfg, params)
    rows = stage_rows(tape, ref(ids), targets)
    theirs = {n: p.grad for n, p in ref.named().items()}
    for name in theirs:
        for ours_name, g in torch_grad_as_ours(name, theirs, cfg).items():
            rows.append((f"∂L/∂{ours_name}", g.shape, float(np.max(np.abs(grads[ours_name] - g)))))
    return rows
