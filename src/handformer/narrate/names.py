"""A tape name in the lesson's own words: "decoder.0.cross_attn.scores" is S, "attention
scores", in "decoder layer 1, cross-attention", so the backward pass and the update read like
the forward pass (never "∂L/∂decoder.0.ffn.pre" or an underscore turned into a subscript)."""

from __future__ import annotations

from ..engine.formula import sub, sup
from .context import Ctx
from .unicode_math import to_text

# The last part of a step's or parameter's name → its symbol (LaTeX) and, for steps that get
# their own section, the words that say what it is (an i18n key).
LEAVES = {
    "logits": (r"\mathrm{logits}", "name.logits"), "probs": ("p", "name.probs"),
    "out.attn": (r"\mathrm{MHA}", "name.attn_out"), "concat": ("Z", "name.concat"),
    "z": ("Z", "name.z"), "pattern": ("A", "name.pattern"), "scores": ("S", "name.scores"),
    "masked": ("S'", "name.scores"), "q": ("Q", "name.q"), "k": ("K", "name.k"),
    "v": ("V", "name.v"), "out.norm": (r"\mathrm{LN}(R)", "name.norm"),
    "resid": ("R", "name.resid"), "pre": ("H", "name.ffn_pre"),
    "act": (r"\max(0, H)", "name.ffn_act"), "out.ffn": (r"\mathrm{FFN}", "name.ffn_out"),
    "out.layer": (r"\mathrm{out}", "name.layer_out"), "out.embed": ("X", "name.input"),
    "tok": (sub("X", "tok"), "name.tok"), "scaled": (sub("X", "tok") + "'", "name.tok"),
    "gamma": (r"\gamma", ""), "beta": (r"\beta", ""), "weight": ("E", ""),
    "w": (sub("W", "out"), ""), "b": (sub("b", "out"), ""),
    "w_1": (sub("W", "1"), ""), "b_1": (sub("b", "1"), ""), "w_2": (sub("W", "2"), ""),
    "b_2": (sub("b", "2"), ""),
    **{f"w_{x}": (sup("W", x.upper()), "") for x in "qkvo"},
    **{f"b_{x}": (sup("b", x.upper()), "") for x in "qkvo"},
    # the parts of today's LLMs: RoPE's turned Q and K, grouped K/V repeated, SwiGLU
    "q_rot": (r"\tilde{Q}", "name.q_rot"), "k_rot": (r"\tilde{K}", "name.k_rot"),
    "k_shared": (r"\tilde{K}", "name.k_shared"), "v_shared": ("V", "name.v_shared"),
    "gate": ("G", "name.gate"), "up": ("U", "name.up"), "silu": (r"\mathrm{SiLU}(G)", "name.silu"),
    "w_gate": (sub("W", "gate"), ""), "w_up": (sub("W", "up"), ""), "w_down": (sub("W", "down"), ""),
}
# Ops whose steps share a last name part with an older op's (a norm's "out", the FFN's "act")
# but not its symbol and words: RMSNorm, SwiGLU's product.
OP_LEAVES = {"rms_norm": (r"\mathrm{RMSNorm}(R)", "name.rms"), "mul": ("H", "name.swiglu_act")}
# A parameter's last name part → the i18n key of its words ("the query weights W^Q").
PARAM_KEYS = {"weight": "param.embed", "w": "param.w_out", "b": "param.b_out",
              "w_1": "param.w_ffn", "b_1": "param.b_ffn", "w_2": "param.w_ffn",
              "b_2": "param.b_ffn", "w_q": "param.w_q", "w_k": "param.w_k", "w_v": "param.w_v",
              "w_o": "param.w_o", "b_q": "param.b_qkv", "b_k": "param.b_qkv",
              "b_v": "param.b_qkv", "b_o": "param.b_qkv", "gamma": "param.gamma",
              "beta": "param.beta", "w_gate": "param.w_ffn", "w_up": "param.w_ffn",
              "w_down": "param.w_ffn"}
EMBED_KEYS = {"src_embed.weight": "param.embed.src", "tgt_embed.weight": "param.embed.tgt"}
KIND_PLACE = {"self_attn": "place.self_attn", "cross_attn": "place.cross_attn",
              "ffn": "place.ffn"}
STACK_PLACE = {"encoder": "where.encoder", "decoder": "where.decoder"}


def _leaf(name: str) -> str:
    parts = name.split(".")
    leaf = parts[-1]
    if leaf != "out" or len(parts) < 2:
        return leaf
    if parts[-2] in ("self_attn", "cross_attn"):
        return "out.attn"
    if parts[-2].startswith("ln") or parts[-2] == "norm":
        return "out.norm"
    if parts[-2] == "ffn":
        return "out.ffn"
    if parts[-2] in ("src_embed", "tgt_embed", "embed"):
        return "out.embed"
    return "out.layer"


def symbol(name: str, op: str = "") -> str:
    """The lesson's symbol for a step or parameter (LaTeX): S, W^Q, LN(R), ...; ``op``, the
    step's op where the caller has the tape, tells RMSNorm's and SwiGLU's steps apart."""
    if op in OP_LEAVES:
        return OP_LEAVES[op][0]
    sym = LEAVES.get(_leaf(name), (r"\mathrm{" + name.rsplit(".", 1)[-1].replace("_", r"\_")
                                   + "}", ""))[0]
    if name.endswith("_embed.weight"):  # two tables: the source's and the target's
        return sub("E", name.split("_", 1)[0])
    if name.startswith("tgt_embed") and sym.startswith("X"):
        return "Y" + sym[1:]
    return sym


def words(ctx: Ctx, name: str) -> str:
    """What the step is, then where it sits: "the attention scores (decoder layer 1,
    cross-attention)"; a parameter by its words and symbol: "the query weights W^Q (encoder
    layer 1, self-attention)"."""
    key = LEAVES.get(_leaf(name), ("", ""))[1]
    step = ctx.tape.index.get(name)
    if step is not None and step.op in OP_LEAVES:
        key = OP_LEAVES[step.op][1]
    if step is not None and step.op == "embed" and key == "name.input":
        key = "name.input.lookup"  # rotary positions: the lookup is the whole input
    if name in ctx.tape.params:  # a parameter: its words, then its symbol
        key = EMBED_KEYS.get(name) or PARAM_KEYS.get(name.rsplit(".", 1)[-1], "")
        what = ctx.t(key, sym=to_text(symbol(name))) if key else to_text(symbol(name))
    else:
        what = ctx.t(key) if key and name in ctx.tape.index else to_text(symbol(name, op_of(ctx, name)))
    where = place(ctx, name)
    return ctx.t("name.at", what=what, where=where) if where else what


def op_of(ctx: Ctx, name: str) -> str:
    """The op of step ``name`` ("" for a parameter or a step not on the tape)."""
    step = ctx.tape.index.get(name)
    return step.op if step is not None else ""


def place(ctx: Ctx, name: str) -> str:
    parts = name.split(".")
    if parts[0] not in STACK_PLACE or len(parts) < 3 or not parts[1].isdigit():
        return ""
    where = ctx.t(STACK_PLACE[parts[0]], layer=int(parts[1]) + 1)
    if parts[2] in KIND_PLACE:
        where += ctx.t(KIND_PLACE[parts[2]])
    return where
