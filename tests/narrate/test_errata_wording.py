"""Errata as fair as they are exact (issue 19): D5 calls (x − μ)/(σ + ε) a common variant, not
wrong; D1 and D6 say the tutorial's numbers are a reconstruction (its matrices are images); D17
says only a figure drops "the" (its text keeps it); D18 says log is read as ln and that with
log₁₀ the conclusion stands; in every language and in docs/errata.md."""

from __future__ import annotations

import math
import re
from pathlib import Path

import handformer
from handformer import i18n
from handformer.narrate import build

ERRATA = Path(__file__).resolve().parents[2] / "docs" / "errata.md"


def callouts(lang: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for s in build(handformer.walk(), lang):
        for c in s.callouts:
            found.setdefault(c.code, c.text)
    return found


def test_the_callouts_say_what_is_reconstructed_and_what_is_a_variant():
    en, zh = callouts("en"), callouts("zh")
    assert {"D1", "D5", "D6", "D17", "D18"} <= set(en) and set(en) == set(zh)
    assert "common variant, not an error" in en["D5"] and "correct" not in en["D5"]
    assert "常见的写法，并不算错" in zh["D5"] and "正确" not in zh["D5"]
    for code in ("D1", "D6"):
        assert "reconstruction" in en[code] and "重算" in zh[code]
        assert "correct value" not in en[code] and "正确的值" not in zh[code]
    assert "figures" in en["D17"] or "figure" in en["D17"]
    assert "keeps “the”" in en["D17"] and "正文保留" in zh["D17"]
    # 8.33·log N for the tutorial's 23 words: 26.1 with ln, 11.3 with log₁₀; 6 breaks both
    ln, log10 = 8.33 * math.log(23), 8.33 * math.log10(23)
    assert f"{ln:.1f}" == "26.1" and f"{log10:.1f}" == "11.3"
    for text in (en["D18"], zh["D18"]):
        assert "ln" in text and "log₁₀" in text and "26.1" in text and "11.3" in text


def test_errata_md_and_the_table_say_the_same():
    from handformer.families.transformer.errata import TABLE

    doc = ERRATA.read_text(encoding="utf-8")
    rows = [line for line in doc.splitlines() if re.match(r"\| D\d+ \|", line)]
    assert rows == [f"| {e.code} | {e.tutorial_step} | {e.tutorial} | {e.correct} |"
                    for e in TABLE.values()]
    assert "common variant" in TABLE["D5"].tutorial
    assert "log₁₀" in TABLE["D18"].correct and "reconstruction" in TABLE["D1"].tutorial
    assert all("正确值" not in i18n.table("zh")[k] for k in ("D1", "D5", "D6"))
