"""The decoder-only model with the parts of today's LLMs, written again with torch's own
functions for checking (`handformer verify --family gpt` when a part is switched on):
torch.nn.functional.rms_norm / layer_norm, F.silu, F.scaled_dot_product_attention with
``enable_gqa`` (each key/value head shared by its group of query heads) and ``is_causal``,
and rotary positions written out here with torch's complex numbers (adjacent pairs) or its
``rotate_half`` form (half pairs). float64; our parameters are torch's leaves under our names,
in our layouts, so their gradients compare name by name. Torch is imported only here."""

from __future__ import annotations

import numpy as np

from ...interop.torch_ref import import_torch
from .config import GptConfig

torch = import_torch()
F = torch.nn.functional


def rotary(x, base: float, pairs: str):
    """x (heads, n, d) with each pair of columns turned by position · base^(−2i/d)."""
    n, d = x.shape[-2], x.shape[-1]
    inv = base ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
    angles = torch.outer(torch.arange(n, dtype=torch.float64), inv)  # (n, d/2)
    if pairs == "adjacent":  # (x_2i + i x_2i+1) e^{i m θ}
        z = torch.view_as_complex(x.reshape(*x.shape[:-1], d // 2, 2).contiguous())
        return torch.view_as_real(z * torch.polar(torch.ones_like(angles), angles)).flatten(-2)
    cos, sin = torch.cat([angles.cos()] * 2, -1), torch.cat([angles.sin()] * 2, -1)
    rotated_half = torch.cat([-x[..., d // 2:], x[..., : d // 2]], -1)
    return x * cos + rotated_half * sin


class TorchModern:
    """The model's forward in torch functions; ``params``: our names → torch leaves."""

    def __init__(self, cfg: GptConfig, params: dict):
        self.cfg, self.stages = cfg, {}
        self.params = {k: torch.tensor(v, dtype=torch.float64, requires_grad=True)
                       for k, v in params.items()}

    def norm(self, x, p: str):
        c, w = self.cfg, self.params
        if c.norm_kind == "rms":
            return F.rms_norm(x, (c.d_model,), w[f"{p}.gamma"], eps=c.ln_eps)
        return F.layer_norm(x, (c.d_model,), w[f"{p}.gamma"], w[f"{p}.beta"], eps=c.ln_eps)

    def attention(self, x, p: str):
        c, w = self.cfg, self.params
        n = x.shape[0]

        def heads(name: str, count: int, width: int):
            y = x @ w[f"{p}.w_{name}"]
            if c.attn_bias:
                y = y + w[f"{p}.b_{name}"]
            return y.reshape(n, count, width).transpose(0, 1)

        q, k, v = heads("q", c.heads, c.d_k), heads("k", c.kv_heads, c.d_k), heads("v", c.kv_heads, c.d_v)
        if c.pos == "rope":
            q, k = rotary(q, c.rope_base, c.rope_pairs), rotary(k, c.rope_base, c.rope_pairs)
            self.stages |= {f"{p}.q_rot": q, f"{p}.k_rot": k}
        z = F.scaled_dot_product_attention(q[None], k[None], v[None], is_causal=True,
                                           enable_gqa=c.kv_heads != c.heads)[0]
        self.stages[f"{p}.z"] = z
        out = z.transpose(0, 1).reshape(n, c.heads * c.d_v) @ w[f"{p}.w_o"]
        out = self.stages[f"{p}.out"] = out + w[f"{p}.b_o"] if c.attn_bias else out
        return out

    def ffn(self, x, p: str):
        w = self.params
        if self.cfg.ffn == "swiglu":
            h = self.stages[f"{p}.act"] = F.silu(x @ w[f"{p}.w_gate"]) * (x @ w[f"{p}.w_up"])
            out = h @ w[f"{p}.w_down"]
        else:
            out = F.relu(x @ w[f"{p}.w_1"] + w[f"{p}.b_1"]) @ w[f"{p}.w_2"] + w[f"{p}.b_2"]
        self.stages[f"{p}.out"] = out
        return out

    def sublayer(self, x, p: str, ln: str, part):
        if self.cfg.norm == "pre":
            normed = self.stages[f"{p}.{ln}.out"] = self.norm(x, f"{p}.{ln}")
            return x + part(normed)
        out = self.stages[f"{p}.{ln}.out"] = self.norm(x + part(x), f"{p}.{ln}")
        return out

    def forward(self, ids: list[int]) -> dict:
        c, w = self.cfg, self.params
        x = w["embed.weight"][torch.tensor(ids)]
        if c.pos == "sinusoidal":
            from .torch_ref import positional

            x = x + positional(len(ids), c.d_model)
        stages = self.stages
        stages["embed.out"] = x
        for i in range(c.layers):
            p = f"decoder.{i}"
            x = self.sublayer(x, p, "ln1", lambda h, p=p: self.attention(h, f"{p}.self_attn"))
            x = stages[f"decoder.{i}.out"] = self.sublayer(
                x, p, "ln2", lambda h, p=p: self.ffn(h, f"{p}.ffn"))
        if c.final_norm:
            x = stages["decoder.norm.out"] = self.norm(x, "decoder.norm")
        w_out = w["embed.weight"].T if c.tie_embeddings else w["generator.w"]
        stages["generator.logits"] = x @ w_out
        return dict(stages)


def compare(cfg: GptConfig, params: dict, ids: list[int], targets: list[int]):
    """Our tape and torch on one text: every stage (each norm's output, RoPE's turned Q and K,
    each head's attention output, each sublayer's output, each layer's), the loss and every
    parameter's gradient, as (name, shape, largest |ours − torch|) rows."""
    from .torch_ref import ours, stage_rows

    tape, grads = ours(cfg, params, ids, targets)
    ref = TorchModern(cfg, params)
    rows = stage_rows(tape, ref.forward(ids), targets)
    rows += [(f"∂L/∂{name}", tuple(p.shape), float(np.max(np.abs(grads[name] - p.grad.numpy()))))
             for name, p in ref.params.items()]
    return rows
