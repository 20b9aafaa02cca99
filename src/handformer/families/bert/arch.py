"""BERT drawn as the overview draws every model: embeddings, a stack of encoder layers (each
self-attention, add & norm, feed-forward, add & norm), mean pooling to one sentence vector."""

from __future__ import annotations

import numpy as np

from ...narrate.context import Ctx
from ...narrate.document import Architecture, Block
from ...narrate.overview import with_flow


def architecture(ctx: Ctx) -> Architecture:
    c = ctx.tape.meta["config"]
    d, heads, layers = int(c["d_model"]), int(c["heads"]), int(c["layers"])
    n = int(np.shape(ctx.tape.index["src.ids"].value)[-1])
    parts = [("self_attn", ctx.t("arch.self_attn"), "attention",
              ctx.t("arch.heads", h=heads, dk=d // heads)),
             ("ln1", ctx.t("arch.norm"), "norm", ""),
             ("ffn", ctx.t("arch.ffn.label"), "ffn", ctx.t("arch.ffn", d=d, dff=int(c["d_ff"]))),
             ("ln2", ctx.t("arch.norm"), "norm", "")]
    stack = [Block(f"layer.{i}", ctx.t("arch.layer", i=i + 1), "stack",
                   children=[Block(f"layer.{i}.{leaf}", label, kind, detail=detail)
                             for leaf, label, kind, detail in parts])
             for i in range(layers)]
    blocks = [Block("embeddings", ctx.t("bert.arch.embed"), "embed",
                    detail=ctx.t("arch.shape", n=n, d=d)),
              Block("layer", ctx.t("arch.encoder", n=layers), "stack", children=stack),
              Block("pooling", ctx.t("bert.arch.pooling"), "output", detail=str(d))]
    sizes = {"d_model": d, "heads": heads, "d_ff": int(c["d_ff"]), "layers": layers}
    return with_flow(ctx, Architecture(blocks, sizes))
