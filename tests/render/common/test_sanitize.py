"""render/sanitize.py: MathML written out again from an allow-list, text escaped once."""

from __future__ import annotations

from xml.etree.ElementTree import Element, SubElement

import pytest

from handformer.render.common.sanitize import MATHML_NS, mathml
from handformer.render.common.tex import to_mathml

NS = f'xmlns="{MATHML_NS}"'


def test_handlers_links_styles_and_foreign_elements_go_text_stays():
    math = Element("math", {"xmlns": MATHML_NS, "display": "block", "onload": "alert(1)"})
    row = SubElement(math, "mrow", {"href": "javascript:alert(1)", "style": "color:red",
                                    "class": "showall", "mathvariant": "bold"})
    svg = SubElement(row, "svg", {"onload": "alert(1)"})
    svg.text = "<b>"
    svg.tail = " & "
    SubElement(row, "mo").text = "&#x0003C;"  # latex2mathml writes characters as references
    SubElement(row, "mstyle", {"mathcolor": "url(javascript:alert(1))"})
    assert mathml(math) == (
        f'<math {NS} display="block"><mrow mathvariant="bold"><mrow>&lt;b&gt;</mrow> &amp; '
        "<mo>&lt;</mo><mstyle></mstyle></mrow></math>")


def test_a_foreign_namespace_on_math_is_dropped():
    math = Element("math", {"xmlns": "http://www.w3.org/1999/xhtml"})
    assert mathml(math) == "<math></math>"


@pytest.mark.parametrize("latex, text", [
    (r"\text{<svg/onload=alert(1)>}", "<mtext>&lt;svg/onload=alert(1)&gt;</mtext>"),
    (r"\textbf{</math><script>alert(1)</script>}",
     '<mtext mathvariant="bold">&lt;/math&gt;&lt;script&gt;alert(1)&lt;/script&gt;</mtext>'),
    (r"\href{javascript:alert(1)}{x}", "<mrow><mrow><mi>x</mi></mrow></mrow>"),
    (r"\style{color:red}{x}", "<mrow><mi>x</mi></mrow>"),
    (r"\text{a&b}", "<mtext>a&amp;b</mtext>"),
])
def test_converted_formulas_carry_no_markup(latex, text):
    out = to_mathml(latex, display=False)
    assert out == f'<math {NS} display="inline"><mrow>{text}</mrow></math>'
