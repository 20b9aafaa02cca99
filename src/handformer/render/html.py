"""One self-contained HTML page: every step a panel, MathML formulas, coloured matrices, two languages.

Nothing is fetched: styles, script and charts are inlined, formulas are MathML made here with
latex2mathml, so the file opens offline in any modern browser. Every piece of user text goes
through jinja2's autoescape.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ..config import HandformerError
from . import grids

TEMPLATES = Path(__file__).parent / "templates"
PHASES = {"text": ("Text", "文本"), "forward": ("Forward pass", "前向传播"),
          "loss": ("Loss", "损失"), "backward": ("Backward pass", "反向传播"),
          "update": ("Update", "参数更新"), "decode": ("Decoding", "解码")}


@lru_cache(maxsize=1)
def _env():
    try:
        import jinja2
        import latex2mathml  # noqa: F401  (formulas: without it every one would stay raw TeX)
    except ImportError:
        raise HandformerError("HTML output needs jinja2 and latex2mathml (part of handformer's "
                              "install): pip install jinja2 latex2mathml") from None
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                             trim_blocks=True, lstrip_blocks=True,
                             undefined=jinja2.StrictUndefined)
    env.globals["asset"] = lambda name: (TEMPLATES / name).read_text(encoding="utf-8")
    env.globals["phases"] = PHASES
    env.globals["palette"] = grids.palette_css()
    return env


def render(tape, precision: int = 3, steps=None, lang: str = "en") -> str:
    """The whole walkthrough of a tape as one page, English and Chinese, opening in ``lang``."""
    from ..narrate import build, select

    en, zh = select(build(tape, "en"), steps), select(build(tape, "zh"), steps)
    return render_sections(en, zh, precision, title=page_title(tape.meta), lang=lang)


def render_sections(en: list, zh: list | None, precision: int = 3, title: str = "",
                    lang: str = "en") -> str:
    """The page from sections already built (zh: the same ids in Chinese, or None)."""
    from .html_view import Budget, section_view

    by_id = {s.id: s for s in (zh or [])}
    budget = Budget()
    panels = [section_view(s, by_id.get(s.id), precision, budget) for s in en]
    return _env().get_template("page.html.j2").render(
        panels=panels, title=title or "handformer", precision=precision,
        has_zh=bool(zh), lang="zh" if zh and lang == "zh" else "en")


def render_notebook(tape, precision: int = 3, lang: str = "en") -> str:
    """What a tape shows in Jupyter: its panels, without the page around them."""
    from ..narrate import build

    return render_fragment(build(tape, lang), precision)


def render_fragment(sections: list, precision: int = 3) -> str:
    """The panels alone (one language, no script), with their styles: for notebooks."""
    from .html_view import Budget, section_view

    budget = Budget(cells=50_000)
    panels = [section_view(s, None, precision, budget) for s in sections]
    return _env().get_template("fragment.html.j2").render(panels=panels, precision=precision)


def page_title(meta: dict) -> str:
    """"src → tgt" from the tape's meta, or plain "handformer"."""
    src = " ".join(meta.get("src", {}).get("tokens", []))
    tgt = " ".join(t for t in meta.get("target", {}).get("tokens", []) if t != "<end>")
    if src and tgt:
        return f"handformer · {src} → {tgt}"
    return f"handformer · {src}" if src else "handformer"
