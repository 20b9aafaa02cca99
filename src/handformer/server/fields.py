"""Each endpoint's fields and the JSON type each takes, checked before any value is used.

A request's body is an object whose fields are listed in the endpoint's schema (name → Kind);
an unknown field is 422 (reject_unknown), and a value of the wrong JSON type (string, number,
true/false, null, list, object) is 400 naming the field ("job must be text, got a list"), so no handler ever hashes a list, compares a
dict with a number, or reads a field of a string. Ranges and names are the handlers' own checks.
"""

from __future__ import annotations

from dataclasses import dataclass

from .limits import RequestError


@dataclass(frozen=True)
class Kind:
    """The JSON types a field takes: ``types`` (a bool is never a number) and maybe null."""

    types: tuple
    what: str  # as the error says it: "text", "a whole number", ...
    null: bool = False

    def or_null(self) -> Kind:
        return Kind(self.types, self.what, True)

    def accepts(self, value) -> bool:
        if value is None:
            return self.null
        if isinstance(value, bool):
            return bool in self.types
        return isinstance(value, self.types)


TEXT = Kind((str,), "text")
# JSON has one type of number: 2.5 is the right type for a count, and the count's own check
# refuses it as a value (422), as it refuses -1.
WHOLE = Kind((int, float), "a whole number")
NUMBER = Kind((int, float), "a number")
FLAG = Kind((bool,), "true or false")
OBJECT = Kind((dict,), "an object")
LIST = Kind((list,), "a list")
ANSWER = Kind((int, float, str), "a number (or \"-inf\")")

WALK = {"src": TEXT.or_null(), "tgt": TEXT.or_null(), "corpus": TEXT.or_null(),
        "preset": TEXT.or_null(), "config": OBJECT.or_null(), "backward": FLAG, "lr": NUMBER,
        "family": TEXT.or_null(), "tokenizer": TEXT.or_null(), "sample": OBJECT.or_null()}
# One next token written after the walk's text (a family that generates): how it is chosen.
SAMPLE = {"temperature": NUMBER, "top_k": WHOLE.or_null(), "top_p": NUMBER.or_null()}
CHANGE = {"edit": OBJECT.or_null(), "train_steps": WHOLE}
COMPARE = {"a": OBJECT, "b": OBJECT, "job": TEXT} | CHANGE
CHANGED = {"walk": OBJECT, "have": OBJECT.or_null(), "only": LIST.or_null(),
           "frame": TEXT.or_null(), "job": TEXT} | CHANGE
TRAIN = {"preset": TEXT.or_null(), "config": OBJECT.or_null(), "corpus": TEXT.or_null(),
         "pairs": TEXT.or_null(), "epochs": WHOLE, "lr": NUMBER, "optimizer": TEXT,
         "batch_size": WHOLE, "tokenizer": TEXT.or_null()}
TRANSLATE = {"job": TEXT, "sentence": TEXT, "beam": WHOLE, "alpha": NUMBER,
             "max_length": WHOLE.or_null(), "explain": FLAG}
PAIRS = {"corpus": TEXT.or_null()}
PACE = {"pause": FLAG, "step": WHOLE, "epochs_per_second": NUMBER.or_null(), "lr": NUMBER,
        "epochs": WHOLE}
BESIDE = {"src": TEXT, "tgt": TEXT}
QUIZ = {"walk": OBJECT, "count": WHOLE, "seed": WHOLE, "level": TEXT,
        "kinds": LIST.or_null(), "lang": TEXT, "job": TEXT, "src": TEXT.or_null(),
        "tgt": TEXT.or_null(), "backward": FLAG}
ANSWER_FIELDS = {"id": TEXT, "answer": ANSWER, "reveal": FLAG}


def expect_object(body, field: str = "body") -> dict:
    if not isinstance(body, dict):
        raise RequestError(f"{field} must be a JSON object", None if field == "body" else field)
    return body


def reject_unknown(body: dict, known: set, where: str = "") -> None:
    unknown = sorted(set(body) - known)
    if unknown:
        raise RequestError(f"unknown field(s) {', '.join(map(repr, unknown))}; known: "
                           f"{', '.join(sorted(known))}", where + unknown[0])


def read(body, schema: dict, where: str = "") -> dict:
    """``body`` as an object of ``schema``'s fields, each of its type (``where``: the prefix
    of a nested object's field names, as "a.")."""
    body = expect_object(body, where.rstrip(".") or "body")
    reject_unknown(body, set(schema), where)
    for name, value in body.items():
        if not schema[name].accepts(value):
            raise RequestError(f"{where}{name} must be {schema[name].what}"
                               f"{' or null' if schema[name].null else ''}, got "
                               f"{shown(value)}", where + name, 400)
    return body


def shown(value) -> str:
    """A JSON value in a few characters: its type, and a short scalar as written."""
    if value is None:
        return "null"
    if isinstance(value, (list, dict)):
        return "a list" if isinstance(value, list) else "an object"
    text = repr(value) if not isinstance(value, bool) else str(value).lower()
    return text if len(text) <= 40 else text[:37] + "..."
