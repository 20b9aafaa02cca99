"""The common refusals in the page's languages: which message key an English error is, and
its numbers.

The engine and the limits explain in English (the CLI's words); the API keeps that text as
"error" and adds "key" and "values" when it is one of the common ones, so the page can say
it in the chosen language (server/ui_text.py holds the words) with the English as a detail.
"""

from __future__ import annotations

import re

N = r"[\d,]+"  # a number as the messages write it: 1,000,000
PATTERNS = [
    ("err.odd_d_model", re.compile(
        r"^d_model (?P<d_model>\d+) is odd\b.*such as (?P<d_model_up>\d+)")),
    ("err.not_divisible", re.compile(
        r"^d_model (?P<d_model>\d+) is not divisible by heads (?P<heads>\d+)")),
    ("err.unknown_src", re.compile(
        r"^the source sentence has word\(s\) not in the vocabulary: (?P<words>.+?)\. ")),
    ("err.unknown_tgt", re.compile(
        r"^the target sentence has word\(s\) not in the vocabulary: (?P<words>.+?)\. ")),
    ("err.over_cap", re.compile(
        rf"(?P<name>[\w.]+) is (?P<value>{N}), more than this server's limit of "
        rf"(?P<cap>{N})$")),
    ("err.too_many_weights", re.compile(
        rf"^this model would have (?P<value>{N}) parameters, more than this "
        rf"server's limit of (?P<cap>{N})")),
    ("err.no_separator", re.compile(
        r"^corpus line (?P<line>\d+) has no tab or comma between a source and a target: "
        r"(?P<text>.+)$")),
    ("err.empty", re.compile(r"^the (?P<name>source|target) sentence is empty\b")),
    ("err.at_least", re.compile(r"^(?P<name>\w+) must be at least (?P<min>\d+), got (?P<value>-?\d+)$")),
    ("err.too_long", re.compile(
        rf"^(?P<name>\w+) has (?P<value>{N}) (?P<unit>words|characters|lines), "
        rf"more than the limit of (?P<cap>{N})$")),
]


SENTENCE_FIELDS = {"source": "src", "target": "tgt"}  # the request field a sentence's role names

TOO_LONG_KEYS = {"words": "err.too_long.words", "characters": "err.too_long.characters",
                 "lines": "err.too_long.lines"}


def localisable(message: str) -> dict:
    """{"key": ..., "values": {...}} for a common refusal, else {}."""
    for key, pattern in PATTERNS:
        m = pattern.search(message)
        if m:
            values = m.groupdict()
            if "name" in values:
                name = values["name"].removeprefix("config.")
                values["name"] = SENTENCE_FIELDS.get(name, name)
            if "unit" in values:
                key = TOO_LONG_KEYS[values.pop("unit")]
            return {"key": key, "values": values}
    return {}
