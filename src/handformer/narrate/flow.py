"""The flow of data between sections, read off the tape's inputs: which section made each matrix
a section reads (``Matrix.source``), which sections it reads (``Section.reads``), which read it
(``Section.feeds``), and one sentence saying where its output goes next."""

from __future__ import annotations

from .context import Ctx
from .document import Matrix, Section

MAX_HOPS = 8  # steps that no section shows are followed back this far to one that does
MAX_NEXT = 2  # sections named in the "next" line


def link(ctx: Ctx, sections: list[Section]) -> None:
    made_by = _producers(ctx, sections)
    for section in sections:
        for m in (item for item in section.equation if isinstance(item, Matrix)):
            source = _made_by(ctx, m.name, made_by) or made_by.get(_whole(m.name), "")
            if source and source != section.id:
                m.source = source
        section.reads = _reads(ctx, section, made_by)
    by_id = {s.id: s for s in sections}
    for section in sections:
        for read in section.reads:
            by_id[read].feeds.append(section.id)
    for section in sections:
        if section.feeds and section.level != "overview":
            after = [by_id[f].heading for f in section.feeds[:MAX_NEXT]]
            section.next = ctx.t("flow.next", where="; ".join(after))
            section.paragraphs.append(section.next)


def _producers(ctx: Ctx, sections: list[Section]) -> dict[str, str]:
    """Tape step → the id of the first forward section that shows it."""
    made_by: dict[str, str] = {}
    for s in sections:  # a head's panel stands for its block's step (first head first)
        for name in s.steps:
            if ".head.0." in name and s.phase == "forward":
                made_by.setdefault(_viewed(ctx, name), s.id)
    for s in sections:  # a gradient drawn as another panel's input: the panel that shows it
        if s.phase == "backward":
            for name in s.steps:
                made_by.setdefault(f"grad.{name}", s.id)
    for s in sections:
        if s.phase in ("text", "forward"):
            for name in [s.id, *s.steps]:
                if name in ctx.tape.index:
                    made_by.setdefault(name, s.id)
    return made_by


def _viewed(ctx: Ctx, name: str) -> str:
    """The block step a head's view slices: its input on the tape (RoPE's turned q_rot, not the
    projection q, under the view named "….head.0.q"), else the name without the head."""
    step = ctx.tape.index.get(name)
    if step is not None and step.op == "select_head":
        return step.inputs[0]
    return name.replace(".head.0.", ".")


def _made_by(ctx: Ctx, name: str, made_by: dict[str, str]) -> str:
    """The section that shows a matrix, through the identity steps that only rename it (the
    decoder's output "decoder.0.out" is the last add & norm's)."""
    for _ in range(MAX_HOPS):
        if name in made_by:
            return made_by[name]
        step = ctx.tape.index.get(name)
        if step is None or step.op != "identity" or len(step.inputs) != 1:
            return ""
        name = step.inputs[0]
    return ""


def _whole(name: str) -> str:
    """A gradient by head's slice ("grad.x.scores.head.1") → the gradient it is a slice of."""
    base, _, h = name.rpartition(".head.")
    return base if name.startswith("grad.") and h.isdigit() else name


def _reads(ctx: Ctx, section: Section, made_by: dict[str, str]) -> list[str]:
    """The sections whose outputs this section draws (its matrices' sources), else those its
    steps take in on the tape (through steps no section shows)."""
    if section.phase not in ("text", "forward"):
        return []
    found = [m.source for m in section.equation if isinstance(m, Matrix) and m.source]
    if not found:
        for name in section.steps:
            found += _shown_sources(ctx, _inputs(ctx, name), made_by)
    return [x for i, x in enumerate(found) if x != section.id and x not in found[:i]]


def _head_sections(name: str, made_by: dict[str, str]) -> list[str]:
    """The panels of every head of a block step ("….z" → each head's Z), if shown one by one."""
    if "." not in name:
        return []
    base, leaf = name.rsplit(".", 1)
    found, h = [], 0
    while f"{base}.head.{h}.{leaf}" in made_by:
        found.append(made_by[f"{base}.head.{h}.{leaf}"])
        h += 1
    return found


def _inputs(ctx: Ctx, name: str) -> list[str]:
    """A step's inputs; for one head's view ("….head.1.pattern") the same head's view of its
    block step's inputs ("….head.1.masked"), where there is one."""
    parts = name.split(".")
    if len(parts) > 3 and parts[-3] == "head":
        parent = ctx.tape.index.get(".".join(parts[:-3] + parts[-1:]))
        if parent is None:
            return []
        views = []
        for i in parent.inputs:
            base, leaf = i.rsplit(".", 1)
            view = f"{base}.head.{parts[-2]}.{leaf}"
            views.append(view if view in ctx.tape.index else i)
        return views
    step = ctx.tape.index.get(name)
    return list(step.inputs) if step else []


def _shown_sources(ctx: Ctx, names: list[str], made_by: dict[str, str]) -> list[str]:
    out, hops = [], 0
    while names and hops < MAX_HOPS:
        later = []
        for name in names:
            heads = _head_sections(name, made_by)
            if heads:
                out += heads
            elif name in made_by:
                out.append(made_by[name])
            elif name in ctx.tape.index:
                later += list(ctx.tape.index[name].inputs)
        names, hops = later, hops + 1
    return out
