"""Where each section sits and how its matrices are coloured, for every renderer.

``Section.place``: the path of a nested table of contents, outermost first, in the reader's
language ("Encoder", "Layer 1", "Self-attention", "Head 1"), read off the section's id.
``Matrix.scale`` / ``scale_group`` / ``role``: probabilities and attention weights on the 0…1
scale, ids uncoloured, everything else signed; the matrices of one equation, and an erratum's
matrix beside ours, share one colour limit; Q, K and V keep their identity wherever they are.
"""

from __future__ import annotations

from .context import Ctx
from .document import Matrix, Section

SUBLAYER_KEYS = {"self_attn": "arch.self_attn", "cross_attn": "arch.cross_attn",
                 "ffn": "arch.ffn.label", "ln1": "place.norm", "ln2": "place.norm",
                 "ln3": "place.norm", "norm": "arch.final_norm"}
PHASE_KEYS = {"loss": "place.loss", "backward": "place.backward", "update": "place.update"}
PROB_LEAVES = ("pattern", "probs", "p_target")  # the recap's table: p(target) per position
ROLES = {"q": "q", "k": "k", "v": "v"}


def place(ctx: Ctx, section: Section) -> tuple[str, ...]:
    """The nested table of contents' path of a section, under its phase's group (which the
    contents draw already: the path never repeats it, "Loss" under "Loss")."""
    if section.level == "overview" or section.phase in ("text", "loss", "recap"):
        return ()
    if section.phase in PHASE_KEYS:
        return _model_place(ctx, section.id.split(".", 1)[-1])
    return _model_place(ctx, section.id)


def _model_place(ctx: Ctx, name: str) -> tuple[str, ...]:
    parts = name.split(".")
    if parts[0] == "gen":  # walk --generate: "gen.{t}.<the walk's name>", or "gen.check"
        if len(parts) < 3 or not parts[1].isdigit():
            return (ctx.t("gen.place"),)
        inside = _model_place(ctx, ".".join(parts[2:])) if parts[2] == "decoder" else ()
        return (ctx.t("gen.place"), ctx.t("gen.place.token", t=int(parts[1]) + 1), *inside)
    if parts[0] in ("encoder", "decoder"):
        stack = ctx.t("place.encoder" if parts[0] == "encoder" else "place.decoder")
        if len(parts) < 2 or not parts[1].isdigit():
            return (stack,)
        path = [stack, ctx.t("arch.layer", i=int(parts[1]) + 1)]
        if len(parts) > 2 and parts[2] in SUBLAYER_KEYS:
            key = SUBLAYER_KEYS[parts[2]]
            if parts[0] == "decoder" and parts[2] == "self_attn":
                key = "arch.masked_attn"
            norm = parts[2][2:] if parts[2].startswith("ln") else ""  # the layer's 1st, 2nd…
            path.append(ctx.t("place.norm", k=norm) if norm else ctx.t(key))
        if "head" in parts[3:]:
            path.append(ctx.t("place.head", h=int(parts[parts.index("head") + 1]) + 1))
        return tuple(path)
    if parts[0] in ("tgt", "tgt_embed"):
        return (ctx.t("arch.tgt_embed"),)
    if parts[0] in ("generator", "prediction"):
        return (ctx.t("arch.generator"),)
    return (ctx.t("arch.src_embed"),)  # the source's embedding and positions


def colour(section: Section) -> None:
    """Scales, shared limits and Q/K/V roles of the section's matrices (and its errata's)."""
    for m in _matrices(section):
        leaf = m.name.rsplit(".", 1)[-1]
        if m.kind == "pattern" or leaf in PROB_LEAVES:
            m.scale = "prob"
        elif leaf.endswith("ids") or m.name == "prediction":
            m.scale = "ids" if leaf.endswith("ids") else "prob"
        else:
            m.scale = "signed"
            # an update's gradient is far smaller than the weights it moves: its own limit
            apart = section.phase == "update" and leaf == "grad"
            m.scale_group = m.scale_group or section.id + (".grad" if apart else "")
        grad = m.name.startswith("grad.")
        m.role = "" if grad else ROLES.get(leaf, "")


def _matrices(section: Section) -> list[Matrix]:
    out = [m for m in section.equation if isinstance(m, Matrix)]
    return out + [c.tutorial for c in section.callouts if c.tutorial is not None]


def assign(ctx: Ctx, sections: list[Section]) -> None:
    for section in sections:
        section.place = place(ctx, section)
        colour(section)
