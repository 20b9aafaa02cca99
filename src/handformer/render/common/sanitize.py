r"""MathML rebuilt from an allow-list before a page marks it safe.

latex2mathml copies the text of ``\text{}``, ``\mbox{}``, ``\textbf{}`` ... into ``<mtext>``
unescaped, and turns ``\href``, ``\style``, ``\class`` into attributes; a formula built from a
file's symbols or step names could so carry markup and script into the page. Here the
converter's element tree is written out again: MathML elements and presentation attributes on
the lists below only, attribute values of plain characters only, all text escaped. An element
off the list becomes an ``<mrow>`` that keeps its content, so a hostile ``\text{<svg ...>}``
shows as the text it is.
"""

from __future__ import annotations

import re
from html import escape, unescape
from xml.etree.ElementTree import Element

MATHML_NS = "http://www.w3.org/1998/Math/MathML"
ELEMENTS = frozenset("""
    math mrow mi mn mo mtext ms mspace msub msup msubsup mfrac msqrt mroot mstyle mtable mtr
    mtd mlabeledtr munder mover munderover mpadded mphantom menclose merror mmultiscripts
    mprescripts none
    """.split())
# Presentation only: no href, xlink:href, src, style, class, id, event handlers, actiontype.
ATTRIBUTES = frozenset("""
    display mathvariant displaystyle scriptlevel fence stretchy separator lspace rspace
    minsize maxsize symmetric largeop movablelimits accent accentunder linethickness notation
    columnalign rowalign columnspacing rowspacing columnlines rowlines frame framespacing
    equalrows equalcolumns columnspan rowspan width height depth voffset mathsize mathcolor
    mathbackground form align bevelled numalign denomalign
    """.split())
_VALUE = re.compile(r"[A-Za-z0-9#.,%+\- ]{0,64}")  # no quotes, colons, parentheses: no URLs


def mathml(tree: Element) -> str:
    """The element tree as MathML text, with only allow-listed elements and attributes."""
    out: list[str] = []
    _write(tree, out)
    return "".join(out)


def _write(element: Element, out: list[str]) -> None:
    if not isinstance(element.tag, str):  # a comment or processing instruction: nothing shown
        return
    tag = element.tag if element.tag in ELEMENTS else "mrow"
    attrs = "".join(f' {name}="{escape(value)}"' for name, value in element.attrib.items()
                    if _allowed(tag, name, value))
    out.append(f"<{tag}{attrs}>{_text(element.text)}")
    for child in element:
        _write(child, out)
        out.append(_text(child.tail))
    out.append(f"</{tag}>")


def _allowed(tag: str, name: str, value: str) -> bool:
    if name == "xmlns":
        return tag == "math" and value == MATHML_NS
    return name in ATTRIBUTES and _VALUE.fullmatch(value) is not None


def _text(text: str | None) -> str:
    """Text escaped; the converter writes characters as references (&#x0003C;), so they are
    read first, then everything is escaped once."""
    return escape(unescape(text), quote=False) if text else ""
