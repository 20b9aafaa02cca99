r"""LaTeX → readable Unicode text, for plain-text renderers (the terminal): \frac{a}{b} → a/b.

A light conversion for the formulas handformer writes, not a LaTeX parser: what it does not
know it leaves readable (commands lose their backslash).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

SYMBOLS = {
    r"\partial": "∂", r"\odot": "⊙", r"\cdot": "·", r"\times": "×", r"\div": "÷",
    r"\sum": " Σ", r"\infty": "∞", r"\varepsilon": "ε", r"\epsilon": "ε", r"\gamma": "γ",
    r"\beta": "β", r"\mu": "μ", r"\sigma": "σ", r"\theta": "θ", r"\eta": "η",
    r"\leftarrow": "←", r"\rightarrow": "→", r"\Rightarrow": "⇒", r"\to": "→",
    r"\mapsto": "↦", r"\dots": "…", r"\ldots": "…", r"\in": "∈", r"\sim": "~", r"\le": "≤",
    r"\ge": "≥", r"\langle": "<", r"\rangle": ">", r"\quad": "\x00", r"\qquad": "\x00",
    r"\top": "ᵀ", r"\prime": "′", r"\sin": "sin", r"\cos": "cos", r"\log": "log", r"\max": "max",
    r"\arg": "arg ", r"\lvert": "|", r"\rvert": "|", r"\|": "‖", r"\approx": "≈",
    r"\Phi": "Φ", r"\varphi": "φ", r"\pi": "π", r"\lceil": "⌈", r"\rceil": "⌉",
}
SUPERSCRIPT = str.maketrans("0123456789+-=()abdehijklmnoprstuvwxTO",
                            "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ᵃᵇᵈᵉʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣᵀᴼ")
SUBSCRIPT = str.maketrans("0123456789+-=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ")
_GROUP = r"\{((?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}"  # a {…} group, nested up to 3 deep


@lru_cache(maxsize=1024)
def to_text(latex: str) -> str:
    """The formula as Unicode text: fractions, roots, scripts, Greek letters, cases."""
    s = latex.replace(r"\_", "\x01")  # an escaped underscore is a letter, not a subscript
    if "\\" in s:
        s = _commands(s)
    # Scripts, in this order (a script written out may hold the other mark); each pattern
    # needs its mark, so text without it is passed over.
    if "^" in s:
        s = re.sub(r"\^\s*" + _GROUP, lambda m: _script(m.group(1), SUPERSCRIPT, "^"), s)
    if "_" in s:
        s = re.sub(r"_\s*" + _GROUP, lambda m: _script(m.group(1), SUBSCRIPT, "_"), s)
    if "^" in s:
        s = re.sub(r"\^([A-Za-z0-9ᵀ])(?![A-Za-z0-9])", lambda m: _script(m.group(1), SUPERSCRIPT,
                                                                          "^"), s)
    if "_" in s:
        s = re.sub(r"_([A-Za-z0-9])(?![A-Za-z0-9])", lambda m: _script(m.group(1), SUBSCRIPT, "_"),
                   s)
    s = s.replace("{", "").replace("}", "")
    if "∂" in s:
        s = re.sub(r"∂\s+", "∂", s)
    if "  " in s or "\t" in s:
        s = re.sub(r"[ \t]{2,}", " ", s)
    if "(" in s:
        s = re.sub(r"\(\s+", "(", s)
    return s.replace("\x00", "    ").replace("\x01", "_").strip()


def _commands(s: str) -> str:
    """The LaTeX commands of ``s`` as text. Each pattern is tried only when the command it
    needs is in the text: most formulas hold a few commands, and a pattern is compiled only
    when a formula first needs it (compiling them all took longer than converting them)."""
    if r"\partial" in s:
        s = re.sub(r"\\partial\s*", "∂", s)
    s = re.sub(r"\\[A-Za-z]+", lambda m: SYMBOLS.get(m.group(0), m.group(0)), s)
    if r"\begin{cases}" in s:
        s = re.sub(r"\\begin\{cases\}(.*?)\\end\{cases\}", _cases, s, flags=re.S)
    if _holds(s, r"\left", r"\right", r"\big", r"\Big"):
        s = re.sub(r"\\(?:left|right|big|Big|bigg)\s*([()\[\]|.])", _delimiter, s)
    if _holds(s, r"\left", r"\right"):
        s = re.sub(r"\\(?:left|right)\\([{}])", r"\1", s)
    if _holds(s, "style", "limits"):
        s = re.sub(r"\\(?:textstyle|displaystyle|limits|nolimits)", "", s)
    if "\\" in s:
        s = re.sub(r"\\(?:,|;|:|!|\s)", lambda m: "" if m.group(0) == r"\!" else " ", s)
    if r"\hat" in s:
        s = re.sub(r"\\hat\s*(?:\{([A-Za-z])\}|([A-Za-z]))", lambda m: (m.group(1) or m.group(2))
                   + "\u0302", s)
    if r"\tilde" in s:
        s = re.sub(r"\\tilde\s*(?:\{([A-Za-z])\}|([A-Za-z]))", lambda m: (m.group(1) or m.group(2))
                   + "\u0303", s)
    for _ in range(4):  # nested constructs, innermost first
        if "\\" not in s:  # each of these starts with a command: nothing left to do
            break
        if _holds(s, r"\mathrm", r"\text", r"\operatorname", r"\mathbf", r"\mathit",
                  r"\boldsymbol"):
            s = re.sub(r"\\(?:mathrm|text|operatorname|mathbf|mathit|boldsymbol)\s*" + _GROUP,
                       r"\1", s)
        if r"\overline" in s:
            s = re.sub(r"\\overline\s*" + _GROUP, _mean_bar, s)
        if r"\xrightarrow" in s:
            s = re.sub(r"\\xrightarrow\s*" + _GROUP, r"─\1→", s)
        if r"\sqrt" in s:
            s = re.sub(r"\\sqrt\s*" + _GROUP, lambda m: "√" + _wrap(m.group(1)), s)
        if "frac" in s:
            s = re.sub(r"\\[dt]?frac\s*" + _GROUP + r"\s*" + _GROUP, _frac, s)
    if "\\" in s:
        s = re.sub(r"\\[A-Za-z]+", lambda m: SYMBOLS.get(m.group(0), m.group(0)[1:]), s)
    return s


def _mean_bar(m: re.Match) -> str:
    """A bar over one letter as a combining macron (x̄); over more, which plain text cannot
    span, the mean written out: mean(ĝ ⊙ x̂)."""
    inner = m.group(1).strip()
    letters = [c for c in inner if not unicodedata.combining(c)]
    return inner + "\u0304" if len(letters) == 1 else f"mean({inner})"


def _holds(s: str, *commands: str) -> bool:
    return any(command in s for command in commands)


def _delimiter(m: re.Match) -> str:
    return "" if m.group(1) == "." else m.group(1)


def _atomic(s: str) -> bool:
    return bool(re.fullmatch(r"[\w.ᵀ∂√′'‖|]+|\(.*\)", s.strip())) and "(" not in s[1:-1]


def _wrap(s: str) -> str:
    s = s.strip()
    return s if _atomic(s) else f"({s})"


def _frac(m: re.Match) -> str:
    num, den = m.group(1).strip(), m.group(2).strip()
    return f"{_wrap(num)}/{_wrap(den)}"


def _script(body: str, table: dict, mark: str) -> str:
    body = body.strip()
    if body in ("ᵀ", "′"):
        return body
    if not any(c in "^_\\ {}" for c in body):  # else a script inside: shown as ^(…)
        small, rest = _translated(body, table), _translated(body[1:], table)
        if small is not None:
            return small
        if rest and body[0].isalpha():  # W^{Q(i)} → W^Q⁽ⁱ⁾: a letter with no small form
            return mark + body[0] + rest
    plain = body.replace("\x01", "_")
    return f"{mark}{plain}" if len(body) == 1 or plain.replace("_", "").isalnum() \
        else f"{mark}({plain})"


def _translated(body: str, table: dict) -> str | None:
    """body in small letters, or None if one of its letters has no small form."""
    converted = body.translate(table)
    small = all(c != o or not c.isalnum() or c in "ᵀ′"
                for c, o in zip(converted, body, strict=True))
    return converted if small else None


def _cases(m: re.Match) -> str:
    rows = [r.strip() for r in m.group(1).split(r"\\") if r.strip()]
    parts = [" ".join(p.strip() for p in r.split("&")) for r in rows]
    return "{ " + "; ".join(parts) + " }"
