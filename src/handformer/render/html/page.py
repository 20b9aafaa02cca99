"""One self-contained HTML page: every step a panel, MathML formulas, coloured matrices, every
language (a toggle shows one at a time).

Nothing is fetched: styles, script and charts are inlined, formulas are MathML made here with
latex2mathml, so the file opens offline in any modern browser. Every piece of user text goes
through jinja2's autoescape, formulas through an allow-list (``sanitize``), and the page's
Content-Security-Policy lets only its own script and style run (``content_security_policy``).
"""

from __future__ import annotations

import base64
import hashlib
from functools import lru_cache
from pathlib import Path

from markupsafe import Markup, escape

from ... import i18n
from ...errors import HandformerError
from ..common import colour
from . import glossary
from .multiples import columns_css
from .toc import PHASE_KEYS
from .wayfinding import wayfinding
from .wbr import with_breaks

TEMPLATES = Path(__file__).parent / "templates"
LANGUAGE_RULES = "/* language rules */\n"  # where style.css takes the rules of lang_css()


@lru_cache(maxsize=1)
def environment():
    import importlib.util

    try:
        import jinja2
        if importlib.util.find_spec("latex2mathml") is None:  # formulas would stay raw TeX
            raise ImportError("latex2mathml")
    except ImportError:
        raise HandformerError("HTML output needs jinja2 and latex2mathml (part of handformer's "
                              "install): pip install jinja2 latex2mathml") from None
    env = _environment_class(jinja2)(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True, trim_blocks=True,
        lstrip_blocks=True, undefined=jinja2.StrictUndefined,
        bytecode_cache=_bytecode_cache(jinja2))
    env.globals["phase_keys"] = PHASE_KEYS
    _add_helpers(jinja2, env)
    env.globals["glossary_of"] = glossary.entries
    env.globals["with_breaks"] = with_breaks
    env.filters["wbr"] = with_breaks
    return env


def _add_helpers(jinja2, env) -> None:
    """The Python helpers the templates call for their repeated pieces, as filters
    (``"page.reads"|each``, ``p.title|each_text("title")``): jinja2 calls a filter directly,
    and a global function through Context.call, whose checks cost more than most of these
    helpers (the page calls them ~1,000 times). The same helpers stay globals
    (``each("page.reads")``), for other templates."""
    helpers = {"each": jinja2.pass_context(each), "each_text": jinja2.pass_context(each_text),
               "step_link": jinja2.pass_context(step_link), "glossed": glossary.glossed}
    env.globals.update(helpers)
    env.filters.update(helpers)


_DICT_ATTRIBUTES = frozenset(dir(dict))


def _environment_class(jinja2):
    """jinja2's Environment, reading ``view.key`` of a dict (every view is one) straight from
    its keys: jinja2 tries the attribute first, and each of the page's ~9,000 such reads raised
    and caught an AttributeError on the way. A name that is an attribute of dict (``items``)
    is still read as jinja2 reads it, so every read gives what it gave before."""

    class Environment(jinja2.Environment):
        def getattr(self, obj, attribute):
            if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
                try:
                    return obj[attribute]
                except KeyError:
                    return self.undefined(obj=obj, name=attribute)
            return super().getattr(obj, attribute)

    return Environment


def _bytecode_cache(jinja2):
    """The compiled templates kept between runs: jinja2's own cache, in a private folder of
    the temporary directory, checked against each template's source (compiling the templates
    costs more than rendering the page). None where that folder cannot be made; a cache that
    cannot be written is skipped, never an error."""

    class Cache(jinja2.FileSystemBytecodeCache):
        def dump_bytecode(self, bucket) -> None:
            try:
                super().dump_bytecode(bucket)
            except OSError:
                pass

    try:
        return Cache()
    except (OSError, RuntimeError):
        return None


# Every language's text side by side, one span each (the toggle shows one): Python functions
# rather than template macros, for the page asks for ~1,000 of them and a macro call, its
# loop and its escapes cost jinja2 several times what these do.

def each(context, key: str, **values):
    """The table text ``key`` in each language of the page, ``values`` filled in."""
    tables = context["tables"]
    return each_text(context, {code: tables[code][key].format(**values)
                               for code in context["langs"]})


def each_text(context, texts: dict, extra_class: str = ""):
    """A span of each language's text (``texts``: language → plain text, given the page's
    line breaks), its class ``l-<code>`` and ``extra_class``."""
    opening = _openings(tuple(context["langs"]), tuple(context["tags"].items()), extra_class)
    return Markup("".join([f"{opening[code]}{with_breaks(texts[code])}</span>"
                           for code in context["langs"]]))


def step_link(context, step_id: str):
    """A link to the panel ``step_id`` (its number, then its title in each language), or
    nothing when the page has no such panel. A function rather than a macro: a page draws a
    few hundred of these links (each panel's "reads" and "feeds")."""
    entry = context["index"].get(step_id)
    if entry is None:
        return Markup("")
    number, title = escape(entry["seq"]), each_text(context, entry["title"])
    return Markup(f'<a href="#{escape(entry["anchor"])}"><span class="num">{number}</span> '
                  f"{title}</a>")


@lru_cache(maxsize=8)
def _openings(langs: tuple, tags: tuple, extra_class: str) -> dict[str, str]:
    """Each language's opening tag: ``<span class="l-en" lang="en">``, escaped as the
    template escaped it."""
    lang_tag = dict(tags)
    return {code: Markup('<span class="l-{}{}" lang="{}">').format(
                code, f" {extra_class}" if extra_class else "", lang_tag[code])
            for code in langs}


def stylesheet(langs: list[str]) -> str:
    """The page's one style sheet: style.css with the languages' rules in their place, the
    colour steps and the heatmaps' column counts."""
    css = (TEMPLATES / "style.css").read_text(encoding="utf-8")
    return "\n".join([css.replace(LANGUAGE_RULES, lang_css(langs)), colour.palette_css(),
                      columns_css()])


def nav_script() -> str:
    """The page's one script: language and theme toggles, keys, "show all", a clicked cell's
    arithmetic, and the check of a typed answer ("check yourself")."""
    return "".join((TEMPLATES / name).read_text(encoding="utf-8") for name in ("nav.js", "arith.js", "check.js"))


def content_security_policy(script: str, css: str) -> str:
    """Only this script and this style sheet run: no inline event handlers, no ``javascript:``
    URLs, no style attributes, nothing fetched. Hashes rather than a nonce: the page is a
    file, written once, so there is no request to draw a fresh nonce for."""
    return (f"default-src 'none'; script-src '{_sha256(script)}'; style-src '{_sha256(css)}'; "
            "base-uri 'none'; form-action 'none'")


def _sha256(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode()


def render(tape, precision: int = 3, steps=None, lang: str = "en", level: str = "steps") -> str:
    """The whole walkthrough of a tape as one page in every language, opening in ``lang``,
    told at ``level`` ("overview", "steps" or "all", as narrate.build)."""
    from ...narrate import build, select

    built = {code: select(build(tape, code, level), steps) for code in i18n.languages()}
    return render_built(tape, built, precision, lang)


def render_built(tape, built: dict[str, list], precision: int = 3, lang: str = "en") -> str:
    """The page of ``tape`` from its walkthrough already narrated in every language (render
    after narrate.build): the same page, with the tape's title and "check yourself" boxes."""
    from .check import check_blocks

    checks = check_blocks(tape, list(built), [s.id for s in built[i18n.FIRST]])
    return render_sections(built, precision, title=page_title(tape.meta), lang=lang,
                           checks=checks)


def render_sections(by_lang: dict[str, list], precision: int = 3, title: str = "",
                    lang: str = "en", checks: dict[str, list] | None = None) -> str:
    """The page from sections already built, by language (the same ids in each; the first
    language's sections give the numbers and the order); the page opens in ``lang``;
    ``checks``: the "check yourself" boxes to draw after a panel, by its id (check.py)."""
    from .view import Budget, section_view

    langs = list(by_lang)
    lang = lang if lang in by_lang else langs[0]
    by_id = {code: {s.id: s for s in sections} for code, sections in by_lang.items()}
    budget, pos = Budget(), i18n.t(lang, "page.pos", i="{i}")
    panels = [section_view({code: by_id[code].get(s.id) for code in langs}, precision, budget,
                           pos, lang) for s in by_lang[langs[0]]]
    text = page_text(langs, lang)
    script = nav_script()
    return environment().get_template("page.html.j2").render(
        panels=panels, title=title or "handformer", precision=precision, lang=lang,
        checks=checks or {},
        script=script, csp=content_security_policy(script, text["css"]), **text,
        **wayfinding(panels, langs))


def page_text(langs: list[str], lang: str) -> dict:
    """What the templates need of the languages: each one's table and HTML tag, the opening
    language's table (for words shown once, in attributes and scripts), and the style sheet."""
    texts = {code: i18n.table(code) for code in langs}
    return {"langs": langs, "tables": texts, "ui": texts[lang],
            "tags": {code: texts[code]["lang.tag"] for code in langs},
            "css": stylesheet(langs)}


def lang_css(langs: list[str]) -> str:
    """Show the chosen language's text only (the first language when none is chosen), and
    each language's fonts and line breaking."""
    first, rules = langs[0], []
    for code in langs[1:]:
        rules += [f".hf .l-{code}{{display:none}}",
                  f"html[data-lang={code}] .hf .l-{code}{{display:revert}}",
                  f"html[data-lang={code}] .hf .l-{first}{{display:none}}"]
    for code in langs:
        font, wrapping = i18n.t(code, "lang.font"), i18n.t(code, "lang.wrap")
        declarations = ";".join(filter(None, [font and f"font-family:{font}", wrapping]))
        if declarations:
            rules.append(f".hf [lang={i18n.t(code, 'lang.tag')}]{{{declarations}}}")
    return "".join(rule + "\n" for rule in rules)


def render_notebook(tape, precision: int = 3, lang: str = "en") -> str:
    """What a tape shows in Jupyter: its panels, without the page around them."""
    from ...narrate import build

    return render_fragment(build(tape, lang), precision, lang)


def render_fragment(sections: list, precision: int = 3, lang: str = "en") -> str:
    """The panels alone (one language, no script), with their styles: for notebooks."""
    from .view import Budget, section_view

    budget = Budget(cells=50_000)
    pos = i18n.t(lang, "page.pos", i="{i}")
    panels = [section_view({lang: s}, precision, budget, pos) for s in sections]
    return environment().get_template("fragment.html.j2").render(
        panels=panels, precision=precision, lang=lang, **page_text([lang], lang),
        **wayfinding(panels, [lang]))


def page_title(meta: dict) -> str:
    """"src → tgt" from the tape's meta (a decoder-only model reads one text: that text, with
    no arrow), or plain "handformer"."""
    sentences = [s.get("text", "") for s in meta.get("sentences", []) if isinstance(s, dict)]
    if len(sentences) == 2:  # a pair pulled together (BERT's fine-tuning step)
        return f"handformer · {sentences[0]} ↔ {sentences[1]}"
    words = [t for t in meta.get("target", {}).get("tokens", []) if t != "<end>"]
    prompt = meta.get("prompt", {}).get("tokens")
    if prompt is not None:  # one text, every next token of it predicted: no source, no target
        return f"handformer · {' '.join(words)}" if words else "handformer"
    src, tgt = " ".join(meta.get("src", {}).get("tokens", [])), " ".join(words)
    if src and tgt:
        return f"handformer · {src} → {tgt}"
    return f"handformer · {src}" if src else "handformer"
