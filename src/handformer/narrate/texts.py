"""The sentence templates of every language, by key (the same keys in every language)."""

from __future__ import annotations

from .text_en import EN
from .text_zh import ZH

TEXTS: dict[str, dict[str, str]] = {"en": EN, "zh": ZH}
