"""The issue-9 fields set by hand on a tutorial walkthrough, for the page's tests (the narrators
fill them on another branch): an overview with the architecture, places, sources, one worked
cell per score step, scale groups and errata summaries."""

from __future__ import annotations

import re

from handformer.narrate.document import Architecture, Block, Highlight, Matrix, Section

SUBLAYERS = {"self_attn": ("Self-attention", "attention"), "cross_attn": ("Cross-attention", "attention"),
             "ffn": ("Feed-forward", "ffn"), "ln1": ("Add & norm", "norm"),
             "ln2": ("Add & norm", "norm"), "ln3": ("Add & norm", "norm")}


def architecture(sections: list[Section]) -> Architecture:
    """Stacks, layers and sub-layers as the section ids name them, each linked to its first."""
    first: dict[str, str] = {}
    for s in sections:
        parts = re.sub(r"^grad\.", "", s.id).split(".")
        for k in range(1, len(parts) + 1):
            first.setdefault(".".join(parts[:k]), s.id)
    blocks = [Block("src_embed", "Source embedding", "embed", first.get("src_embed", ""))]
    for stack in ("encoder", "decoder"):
        layers = sorted({int(k.split(".")[1]) for k in first if re.match(rf"{stack}\.\d+$", k)})
        children = [Block(f"{stack}.{n}", f"Layer {n + 1}", "stack", first[f"{stack}.{n}"],
                          children=[Block(f"{stack}.{n}.{sub}", SUBLAYERS[sub][0], SUBLAYERS[sub][1],
                                          first[f"{stack}.{n}.{sub}"], "d 6")
                                    for sub in SUBLAYERS if f"{stack}.{n}.{sub}" in first])
                    for n in layers]
        if stack == "decoder":
            blocks.append(Block("tgt_embed", "Target embedding", "embed", first.get("tgt_embed", "")))
        blocks.append(Block(stack, stack.capitalize(), "stack", first.get(stack, ""), children=children))
    blocks.append(Block("generator", "Linear + softmax", "output", first.get("generator", "")))
    return Architecture(blocks, {"d_model": 6})


def place(section_id: str) -> tuple[str, ...]:
    parts = re.sub(r"^grad\.", "", section_id).split(".")
    if parts[0] not in ("encoder", "decoder") or len(parts) < 3:
        return ()
    out = [parts[0].capitalize(), f"Layer {int(parts[1]) + 1}", SUBLAYERS.get(parts[2], (parts[2],))[0]]
    if len(parts) > 4 and parts[3] == "head":
        out.append(f"Head {int(parts[4]) + 1}")
    return tuple(out)


def enrich(sections: list[Section]) -> list[Section]:
    """The sections with the fields set where the narrators left them empty, and an overview
    first unless there is one (so the tests keep working once narration fills them)."""
    if any(s.architecture for s in sections):
        return sections
    ids = {s.id for s in sections}
    for s in sections:
        _fill(s, ids)
    for s in sections:
        s.feeds = s.feeds or [t.id for t in sections if s.id in t.reads]
    overview = Section("overview", "0", "The model at a glance", ["The whole model, drawn."],
                       phase="text", level="overview", architecture=architecture(sections))
    return [overview, *sections]


def _fill(s: Section, ids: set[str]) -> None:
    s.place = s.place or place(s.id)
    mats = [m for m in s.equation if isinstance(m, Matrix)]
    for m in mats:
        m.source = m.source or (m.name if m.name in ids and m.name != s.id else "")
        m.scale_group = m.scale_group or (f"eq:{s.id}" if len(mats) > 1 else "")
        m.role = m.role or (m.name.rsplit(".", 1)[-1] if m.name.rsplit(".", 1)[-1] in "qkv" else "")
        if m.name.endswith(".concat") and not m.col_groups:  # the tutorial's heads: d_k = 4
            m.col_groups = (4,) * (m.shape[-1] // 4)
    s.reads = s.reads or sorted({m.source for m in mats if m.source})
    if s.id.endswith(".scores") and len(mats) == 3 and not any(m.highlight for m in mats):
        q, k, out = mats
        q.highlight, k.highlight = Highlight(rows=(0,)), Highlight(cols=(1,))
        out.highlight = Highlight(cell=(0, 1))
    for c in s.callouts:
        c.summary = c.summary or f"⚠ the comic differs here ({c.code})"


def wcag_ratio(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    """WCAG 2.x contrast ratio of two sRGB colours (0–255), from the definition."""
    def lum(rgb) -> float:
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
               for c in (x / 255 for x in rgb)]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def keep_named(sections: list[Section], tape) -> None:
    """The columns the prediction text names (argmax and target word of every row) kept."""
    import numpy as np

    for s in sections:
        for m in s.equation:
            if isinstance(m, Matrix) and m.name == "generator.probs":
                value = np.asarray(m.value)
                targets = tape.meta.get("target", {}).get("ids", [])
                m.keep_cols = tuple(sorted({int(j) for j in value.argmax(-1)} |
                                           {int(j) for j in targets}))
