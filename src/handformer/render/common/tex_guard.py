r"""TeX that comes from a file, kept to math: symbols checked on load, Markdown math made inert.

A tape's symbols are LaTeX that every page shows. On load each one must be what an op's
formula can hold: a name the op's templates use (``$out``, ``$x``, ...) and a value built from
letters, digits, scripts and a few math commands, without ``<``, ``>``, ``&`` or quotes, and
without commands such as ``\href``, ``\style``, ``\text`` (``check_symbols``).

Markdown has no escaping inside ``$$…$$`` that every viewer honours: a viewer without math
support reads the block as Markdown with raw HTML, a viewer with math hands it to MathJax or
KaTeX, where ``\href``, ``\class``, ``\style``, ``\html…`` and macros make links and styles.
``markdown_math`` therefore leaves only what is inert in both readings: ``<``, ``>`` as ``\lt``,
``\gt``; a ``]`` that could close a Markdown link (before ``(``, ``[`` or ``:``) as ``\rbrack``;
an ``&`` that could start an entity as ``\&``; a bare ``$`` as ``\$``; line breaks as spaces;
any command off the allow-list spelt out as text (``\backslash\mathrm{href}``).
"""

from __future__ import annotations

import re

from ...errors import SymbolError  # noqa: F401  (raised here)
from .tex import braces_balanced

# Commands a symbol may hold: fonts, roots, scripts, Greek letters (the engine uses \mathrm,
# \sqrt, \top, \prime; a hand-made tape may reasonably use the others).
GREEK = frozenset("""
    alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu
    xi pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega Gamma Delta
    Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega
    """.split())
SYMBOL_COMMANDS = GREEK | frozenset("""
    mathrm mathbf mathit mathsf mathtt mathcal mathbb boldsymbol operatorname sqrt top prime
    hat tilde bar vec dot ddot overline underline ell partial nabla infty log exp
    """.split())
# Commands Markdown math may hold: the symbols' and everything our formulas and matrices use.
MATH_COMMANDS = SYMBOL_COMMANDS | frozenset("""
    text textstyle displaystyle frac tfrac dfrac sum prod max min arg argmax softmax cos sin
    cdot cdots ldots dots vdots ddots times div odot otimes oplus circ pm mp le ge leq geq ne
    neq approx sim equiv propto in notin subset to mapsto leftarrow rightarrow Rightarrow
    Leftarrow xrightarrow langle rangle left right lvert rvert lVert rVert vert Vert lt gt
    lbrack rbrack lbrace rbrace backslash begin end underbrace overbrace underset overset
    quad qquad
    """.split())
SYMBOL_PUNCTUATION = frozenset(" {}^_'(),.+-*/|=!\\")
MAX_SYMBOL = 80  # characters: the engine's longest is 20




def check_symbols(step: str, op: str, symbols: dict) -> None:
    """Every symbol of a step read from a file: a name its op declares and a value that is
    None or a symbol (see the module's docstring)."""
    declared = declared_symbols(op)
    for name, value in symbols.items():
        if name not in declared:
            raise SymbolError(f"tape step {_clip(step)}: op {op!r} has no symbol {_clip(name)} "
                              f"(it has {', '.join(sorted(declared))})")
        reason = None if value is None else symbol_problem(value)
        if reason:
            raise SymbolError(f"tape step {_clip(step)}: symbol {_clip(name)} = {_clip(value)} "
                              f"{reason}")


def declared_symbols(op: str) -> set[str]:
    """The names an op's formulas fill in ($out, $x, ...); "out" (the narration names every
    step's result by it) for any op, also one without formulas such as "input"."""
    from ...engine.ops import OPS

    if op not in OPS:
        return {"out"}
    spec = OPS[op]
    return ({"out"} | set(dict(spec.symbols))
            | set(re.findall(r"\$([a-z]+)", spec.formula + spec.grad_formula)))


def symbol_problem(value) -> str | None:
    """Why a value is not a symbol a formula may hold, or None if it is one."""
    if not isinstance(value, str):
        return "is not a string"
    if len(value) > MAX_SYMBOL:
        return f"is longer than {MAX_SYMBOL} characters"
    others = sorted({c for c in value if not (c.isascii() and c.isalnum())} - SYMBOL_PUNCTUATION)
    if others:
        return "holds " + " ".join(map(repr, others[:5])) + " (a symbol has letters, digits, {}^_')"
    unknown = sorted(set(re.findall(r"\\([A-Za-z]+)", value)) - SYMBOL_COMMANDS)
    if unknown:
        return "uses \\" + ", \\".join(unknown) + " (a symbol uses fonts, roots and letters only)"
    if not braces_balanced(value):
        return "has unbalanced braces"
    return None


def _clip(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# A pattern, compiled at its first use (re keeps it): a page imports this module and never uses it.
_MATH_PIECE = r"\\([A-Za-z]+)|\\[^A-Za-z]|[<>$]|\](?=\s*[(\[:])|&(?=[#A-Za-z0-9])"
_INERT = {"<": r"\lt ", ">": r"\gt ", "]": r"\rbrack ", "$": r"\$", "&": r"\&"}


def markdown_math(tex: str) -> str:
    """The body of a ``$$`` block with nothing a Markdown or math viewer would run or link."""

    def inert(m: re.Match) -> str:
        if m[1] is not None:
            return m[0] if m[1] in MATH_COMMANDS else r"\backslash\mathrm{" + m[1] + "}"
        return _INERT.get(m[0], m[0])  # an escaped character (\{, \,, \\) stays as written

    one_line = " ".join(tex.splitlines())  # a blank line would end the block in Markdown
    return re.sub(_MATH_PIECE, inert, one_line, flags=re.S)
