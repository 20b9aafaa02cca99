"""The walkthrough in the terminal: a rule per section, text, formula, labelled matrices.

A matrix is drawn whole when it fits the width (matrix.py elides the rest, never what the
text names). An equation's matrices sit side by side while they fit the width and wrap onto
the next lines otherwise. The overview draws the model's architecture as a tree; an erratum
is a box the first time it is told and its one-line summary after that. Without a terminal the text is plain (no colours), as for a file.
Every section is laid out as lines with styled spans and written in one go (``ansi``): the
look is rich's (rules, rounded panels), without rich's import and per-line cost.
"""

from __future__ import annotations

from ...narrate.document import Architecture, Callout, Matrix, Section
from ...narrate.document import Block as ModelBlock  # a block of the architecture's tree
from ...narrate.unicode_math import to_text
from ...textsafe import shown as safe
from .ansi import Block, Line, Terminal, cells, crop, fit, truncate
from .matrix import fitted as _fitted
from .wrap import wrap as _wrap

PANEL_MAX = 100  # an erratum's box is at most this wide, however wide the terminal
PHASE_STYLE = {"text": "cyan", "forward": "blue", "loss": "magenta", "backward": "red",
               "update": "green", "decode": "yellow", "recap": "cyan"}


def render(sections: list[Section], precision: int = 3, width: int | None = None,
           terminal: Terminal | None = None) -> str:
    """The walkthrough as text: styled for ``terminal`` (escapes, its width), or else plain
    text without colours at ``width`` (100 by default), as it is written to a file."""
    if terminal is None:
        return render_text(sections, precision, width or 100)
    return "".join(terminal.line(line) + "\n" for line in _lines(sections, precision,
                                                                  terminal.width))


def render_text(sections: list[Section], precision: int = 3, width: int = 100) -> str:
    """The plain text of the walkthrough (no colours), lines without trailing spaces."""
    return _strip("".join(line.plain + "\n" for line in _lines(sections, precision, width)))


def _strip(text: str) -> str:
    """Without the spaces that pad panel lines at the end, so a file diffs cleanly."""
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"


def _lines(sections: list[Section], precision: int, width: int) -> list[Line]:
    width = max(width, 8)  # narrower than a matrix cell helps nobody
    origins = {s.id: (s.heading, s.prefix.strip(" ·") or s.title) for s in sections}
    lines = [line for section in sections for line in _section(section, precision, width,
                                                                origins)]
    if not "".join([line.plain for line in lines]).isprintable():  # unsafe text is unprintable
        for line in lines:  # words from files may hold escape sequences; same width, spans hold
            line.plain = safe(line.plain)
    return lines


def _section(section: Section, precision: int, width: int,
             origins: dict[str, tuple[str, str]] | None = None) -> list[Line]:
    """Blank line, rule with the title, paragraphs, formula, the equation, the errata."""
    style = PHASE_STYLE.get(section.phase, "blue")
    lines = [Line(""), _rule(section.heading, f"bold {style}", style, width)]
    body = [Line(" " + t, [(0, None, "dim")]) for t in _wrap(section.tutorial_label, width - 1)]
    body += [Line(" " + t) for p in section.paragraphs for t in _wrap(p, width - 1)]
    if section.architecture is not None:
        body += [Line("")] + _architecture(section.architecture, width - 1)
    if section.formula:
        body += [Line("")] + [Line("   " + t, [(3, None, "italic cyan")])
                              for t in _wrap(to_text(section.formula), width - 3)]
    lines += [crop(line, width) for line in body]
    if section.equation:
        lines += [Line(""), *_equation(section.equation, precision, width, origins or {})]
    for callout in section.callouts:
        lines += [Line(""), *_callout(callout, precision, width)]
    return lines


def _architecture(arch: Architecture, width: int) -> list[Line]:
    """The model as a tree, each block with its sizes and the step that computes it."""
    lines: list[Line] = []

    def visit(block: ModelBlock, indent: str, last: bool, top: bool) -> None:
        branch = "" if top else ("└─ " if last else "├─ ")
        detail = f"  ({block.detail})" if block.detail else ""
        where = f"  → {block.number}" if block.number else ""
        text = f" {indent}{branch}{block.label}{detail}"
        lines.append(crop(Line(text + where, [(len(text), None, "dim")]), width))
        inner = indent + ("" if top else ("   " if last else "│  "))
        for k, child in enumerate(block.children):
            visit(child, inner, k == len(block.children) - 1, False)

    for block in arch.blocks:
        visit(block, "", True, True)
    return lines


def _rule(title: str, title_style: str, style: str, width: int) -> Line:
    """`Title ─────` across the width (the title cut with … if it is too long)."""
    if not title:
        return Line("─" * width, [(0, None, style)])
    title = truncate(title, width - 2)
    plain = fit(f"{title} " + "─" * (width - cells(title) - 1), width)
    return Line(plain, [(0, len(title), title_style), (len(title) + 1, None, style)])


def _equation(items: list, precision: int, width: int,
              origins: dict[str, tuple[str, str]]) -> list[Line]:
    """Matrices and operators left to right; a new line when the next one would not fit."""
    rows, row, used = [], [], 0
    for item in items:
        block = _fitted(item, precision, width - 2, origins.get(item.source, ("", ""))) \
            if isinstance(item, Matrix) else _operator(to_text(str(item)))
        if row and used + block.width + 1 > width - 2:
            rows.append(row)
            row, used = [], 0
        row.append(block)
        used += block.width + 1
    if row:
        rows.append(row)
    lines = []
    for blocks in rows:
        joined = _side_by_side(blocks)
        wide = sum(block.width + 1 for block in blocks) - 1 > width  # one matrix too wide
        lines += [crop(line, width) for line in joined] if wide else joined
    return lines


def _operator(text: str) -> Block:
    return Block([Line(text, [(0, len(text), "bold")])], cells(text))


def _side_by_side(blocks: list[Block]) -> list[Line]:
    """Blocks of lines joined left to right, each centred vertically, one space apart."""
    height = max(map(len, blocks))
    out = []
    for row in range(height):
        plain, spans = "", []
        for block in blocks:
            k = row - (height - len(block)) // 2  # the block's line on this row
            if not 0 <= k < len(block):  # above or below the block
                plain += " " * (block.width + 1)
                continue
            line, at = block[k], len(plain)
            if line.spans:
                spans += [(at + a, at + b, style) for a, b, style in line.spans]
            plain += line.plain + " "
        out.append(Line(plain.rstrip(), spans))
    return out


def _callout(callout: Callout, precision: int, width: int) -> list[Line]:
    """An erratum in a rounded yellow box titled with its code, its one-line summary first and
    the tutorial's matrix inside; told before: the summary line alone."""
    if callout.repeat and callout.summary:
        return [crop(Line(f" {callout.summary} ({callout.code})", [(0, None, "yellow")]), width)]
    inner = min(width, PANEL_MAX) - 4
    content = [Line(t, [(0, None, "bold")]) for t in _wrap(callout.summary, inner)
               if callout.summary]
    content += [Line(t) for t in _wrap(callout.text, inner)]
    if callout.tutorial is not None:
        content += [Line(""), *_side_by_side([_fitted(callout.tutorial, precision, inner)])]
    return _panel(content, f"  {callout.code}  ", min(width, PANEL_MAX))


def _panel(content: list[Line], title: str, width: int) -> list[Line]:
    """╭─ title ──╮, │ line │ per line of content (cut or padded to fit), ╰────╯."""
    border = "yellow"
    if width <= 4:
        top = Line("╭" + "─" * (width - 2) + "╮", [(0, None, border)])
    else:
        title = fit(title, width - 4) if cells(title) > width - 4 else title
        rest = width - 4 - cells(title)
        top = Line(f"╭─{title}{'─' * rest}─╮",
                   [(0, 2, border), (2, 2 + len(title), f"bold {border}"),
                    (2 + len(title), 2 + len(title) + rest, border),
                    (2 + len(title) + rest, None, border)])
    lines = [top]
    for line in content:
        plain, end = fit(line.plain, width - 4), len(line.plain)  # padding stays unstyled
        spans = [(0, 1, border), *((a + 2, min(end if b is None else b, len(plain)) + 2, s)
                                   for a, b, s in line.spans), (len(plain) + 3, None, border)]
        lines.append(Line(f"│ {plain} │", spans))
    lines.append(Line("╰" + "─" * (width - 2) + "╯", [(0, None, border)]))
    return lines
