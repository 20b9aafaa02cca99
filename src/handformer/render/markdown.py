"""GitHub-flavoured Markdown: a heading per step, narration, formulas and matrices in $$ LaTeX.

Matrices are ``bmatrix`` blocks (corners only when large, with \\cdots, \\vdots, \\ddots); the
tokens labelling their rows follow as a one-row table. Text is escaped for Markdown, tokens that
go inside LaTeX are escaped for LaTeX, so a word like ``<script>`` stays text, and every ``$$``
block passes ``tex_guard.markdown_math`` (symbols and step names come from files too).
"""

from __future__ import annotations

import re

from .. import i18n, layout
from ..narrate.document import Callout, Matrix, Section
from ..narrate.flow import MAX_NEXT
from ..narrate.unicode_math import to_text
from .common import grids
from .common.tex_guard import markdown_math

HOLE = "\x00"  # where the links go in a sentence escaped without them
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|~$])")
_MD_LINE_START = re.compile(r"^(\s*)([#+-])", flags=re.M)  # a heading or a list item
_TEX_TEXT = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&",
             "#": r"\#", "^": r"\^{}", "_": r"\_", "%": r"\%", "~": r"\~{}"}


def md_text(text: str) -> str:
    """Markdown-escape plain text (narration is text, not Markdown): <, >, | and friends."""
    text = _MD_SPECIAL.sub(r"\\\1", str(text).replace("&", "&amp;"))
    return _MD_LINE_START.sub(r"\1\\\2", text)


def tex_text(text: str) -> str:
    """A word inside LaTeX: \\text{...} with LaTeX specials escaped and < > as \\lt, \\gt."""
    parts, word = [], ""
    for ch in str(text):
        if ch in "<>":
            if word:
                parts.append(r"\text{" + word + "}")
                word = ""
            parts.append(r"\lt " if ch == "<" else r"\gt ")
        else:
            word += _TEX_TEXT.get(ch, ch)
    if word:
        parts.append(r"\text{" + word + "}")
    return "".join(parts) or r"\text{}"


def bmatrix(value, precision: int, kind: str = "matrix", keep_rows=(), keep_cols=()) -> str:
    """A matrix (corners only when large, never the rows and columns the text names) as
    \\begin{bmatrix} ... \\end{bmatrix}."""
    v = grids.as_2d(value)
    rows = layout.elide_keeping(v.shape[0], layout.MAX_ROWS, layout.HEAD_ROWS, layout.TAIL_ROWS,
                                keep_rows)
    cols = layout.elide_keeping(v.shape[1], layout.MAX_COLS, layout.HEAD_COLS, layout.TAIL_COLS,
                                keep_cols)
    lines = []
    for i in rows:
        cells = [_tex_cell(v, i, j, precision) for j in cols]
        lines.append(" & ".join(cells))
    return r"\begin{bmatrix} " + r" \\ ".join(lines) + r" \end{bmatrix}"


def _tex_cell(v, i, j, precision: int) -> str:
    if i is None:
        return r"\ddots" if j is None else r"\vdots"
    if j is None:
        return r"\cdots"
    text = layout.number(float(v[i, j]), precision)
    return text.replace("−∞", r"-\infty").replace("∞", r"\infty")


def matrix_tex(m: Matrix, precision: int) -> str:
    """The matrix under its symbol, its shape below: \\underset{7 \\times 4}{Q = [...]}."""
    shape = r" \times ".join(str(n) for n in m.shape) or "1"
    digits = grids.precision_of(m, precision)  # ids as 101, not 101.000
    h = m.highlight
    keep_r = {*m.keep_rows, *(h.rows if h else ()), *((h.cell[0],) if h and h.cell else ())}
    keep_c = {*m.keep_cols, *(h.cols if h else ()), *((h.cell[1],) if h and h.cell else ())}
    return (r"\underbrace{" + m.symbol + " = " + bmatrix(m.value, digits, m.kind, keep_r, keep_c)
            + "}_{" + shape + "}")


def equation_tex(items: list, precision: int) -> str:
    parts = []
    for item in items:
        parts.append(matrix_tex(item, precision) if isinstance(item, Matrix) else _op(item))
    return r" \quad ".join(parts)


def _op(text: str) -> str:
    text = str(text)
    return {"·": r"\cdot", "×": r"\times", "→": r"\to"}.get(text, text if "\\" in text or
                                                              len(text) <= 2 else tex_text(text))


def labels_table(labels: list[str], lang: str = "en") -> str:
    """The tokens labelling a matrix's rows, as a one-row GFM table (row → token)."""
    idx = [i for i in layout.shown_rows(len(labels)) if i is not None]
    head = "| " + " | ".join([i18n.t(lang, "md.row"), *(str(i) for i in idx)]) + " |"
    rule = "|" + "---|" * (len(idx) + 1)
    body = "| " + " | ".join([i18n.t(lang, "md.token"),
                             *(md_text(labels[i]) or " " for i in idx)]) + " |"
    return "\n".join([head, rule, body])


def section_md(s: Section, precision: int, lang: str,
               headings: dict[str, str] | None = None) -> str:
    """One step: heading with its anchor, narration, the model's map (overview), formula,
    drawing with links to the steps that made its inputs, errata."""
    out = [f'<a id="{_anchor(s.id)}"></a>', f"## {_numbered(s)}", ""]
    if s.tutorial_label:
        out += [f"*{md_text(s.tutorial_label)}*", ""]
    out += [_paragraph(s, p, lang, headings or {}) + "\n" for p in s.paragraphs]
    if s.architecture is not None:
        out += [*_architecture_md(s.architecture.blocks, 0), ""]
    if s.formula:
        out += ["$$", markdown_math(s.formula), "$$", ""]
    matrices = [m for m in s.equation if isinstance(m, Matrix)]
    if matrices:
        out += ["$$", markdown_math(equation_tex(s.equation, precision)), "$$", ""]
        seen = set()
        for m in matrices:
            key = tuple(m.rows or ())
            if key and key not in seen:
                seen.add(key)
                out += [labels_table(list(m.rows), lang), ""]
        origins = [f"{to_text(m.symbol)} ← [{md_text(headings[m.source])}](#{_anchor(m.source)})"
                   for m in matrices if m.source and m.source in (headings or {})]
        if origins:
            out += ["; ".join(origins), ""]
    for c in s.callouts:
        out += callout_md(c, precision, lang)
    return "\n".join(out)


def _paragraph(s: Section, text: str, lang: str, headings: dict[str, str]) -> str:
    """A paragraph as Markdown; "Next: …" and "(Explained in …)" link the panels they name."""
    ids = s.feeds[:MAX_NEXT] if text == s.next and s.feeds else \
        s.told_in if text == s.told and s.told_in else []
    named = [f"[{md_text(headings[i])}](#{_anchor(i)})" for i in ids if i in headings]
    if not named or len(named) != len(ids):
        return md_text(text)
    key = "flow.next" if text == s.next else "told.before"
    return md_text(i18n.t(lang, key, where=HOLE)).replace(HOLE, "; ".join(named))


def callout_md(c: Callout, precision: int, lang: str) -> list[str]:
    """An erratum as a block quote; the tutorial's number as its own $$ block inside."""
    who = i18n.t(lang, "md.seed")
    if c.repeat and c.summary:
        return [f"> {md_text(c.summary)} ({md_text(c.code)})", ""]
    summary = f"**{md_text(c.summary)}** " if c.summary else ""
    out = [f"> **{md_text(c.code)}** ({who}): {summary}{md_text(c.text)}", ">"]
    if c.tutorial is not None:
        out += ["> $$", "> " + markdown_math(matrix_tex(c.tutorial, precision)), "> $$", ""]
    return out + [""]


def code_span(text: str) -> str:
    """Text as a Markdown code span, whose content is never markup: fenced by more backticks
    than it holds in a row, on one line."""
    text = " ".join(str(text).splitlines())
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return fence + pad + text + pad + fence


def _architecture_md(blocks: list, depth: int) -> list[str]:
    """The model as a nested list, each block linked to the step that computes it."""
    out = []
    for b in blocks:
        label = f"[{md_text(b.label)}](#{_anchor(b.section)})" if b.section else md_text(b.label)
        detail = f" ({md_text(b.detail)})" if b.detail else ""
        number = f" · {md_text(b.number)}" if b.number else ""
        out.append("  " * depth + f"- {label}{detail}{number}")
        out += _architecture_md(b.children, depth + 1)
    return out


def _numbered(s: Section) -> str:
    """The heading as the Markdown shows it: the panel's number, then the title."""
    if not s.panel:  # a section built by hand, outside a walkthrough
        return md_text(s.title)
    return f"{s.panel} · {md_text(s.title)}"


def _anchor(section_id: str) -> str:
    return "s-" + re.sub(r"[^A-Za-z0-9_.-]", "-", section_id)


def render(tape, options) -> str:
    """The renderer contract (render/registry.py): the walkthrough as GitHub Markdown."""
    from ..narrate import walkthrough

    return render_sections(walkthrough(tape, options), options.precision, options.lang)


def render_sections(sections: list[Section], precision: int = 3, lang: str = "en") -> str:
    """The whole walkthrough as one Markdown document."""
    title = i18n.t(lang, "md.title")
    toc = [f"- [{_numbered(s)}](#{_anchor(s.id)})" for s in sections]
    headings = {s.id: s.heading for s in sections}
    body = [section_md(s, precision, lang, headings) for s in sections]
    return "\n".join([f"# {title}", "", *toc, "", *body]).rstrip() + "\n"
