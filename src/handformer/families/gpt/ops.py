"""The one operation a decoder-only model with tied embeddings needs beyond the shared ones:
the embedding table transposed into the output layer's weights, W_out = Eᵀ (§3.4 of the paper,
GPT-2's ``lm_head``).

On the tape it is its own step, so the two uses of E stay visible: its gradient is the sum of
what the embedding lookup sends back and of this step's (∂L/∂W_out)ᵀ, added by the reverse
pass like any value read twice.
"""

from __future__ import annotations

from ...engine.ops import op


def transpose_forward(x):
    return x.T, None


@op("transpose", transpose_forward,
    r"$out = $x^\top",
    r"\dL{$x} = \left(\dL{$out}\right)^\top",
    out="W", x="E")
def transpose(g, out, args, cache, attrs):
    return (g.T,)
