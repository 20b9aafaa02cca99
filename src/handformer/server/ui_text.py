"""The app's words for the page: the ``app.`` keys of every i18n table (handformer.i18n).

Words the i18n tables already have are taken from there, so the page says "loss", "epoch",
"Decoding" as the walkthrough and `handformer train` do.
"""

from __future__ import annotations

import importlib.util

from .. import i18n
from ..families import registry
from ..render.html.toc import PHASE_KEYS
from ..text import TUTORIAL_DATASET, TUTORIAL_SRC, TUTORIAL_TGT
from . import pretrained_model

PREFIX = "app."  # the app's own keys in the i18n tables


def words(lang: str) -> dict[str, str]:
    """The app's own words in one language: the ``app.`` keys of its i18n table, unprefixed."""
    return {key[len(PREFIX):]: text for key, text in i18n.table(lang).items()
            if key.startswith(PREFIX)}


def bundle(limits) -> dict:
    """Everything the page needs to start: words in every language, defaults and limits."""
    text = {lang: words(lang) | _shared(lang) for lang in i18n.languages()}
    languages = [{"code": lang, "name": i18n.t(lang, "lang.name"), "tag": i18n.t(lang, "lang.tag")}
                 for lang in i18n.languages()]
    return {"text": text, "languages": languages, "defaults": {"src": TUTORIAL_SRC, "tgt": TUTORIAL_TGT,
                                        "corpus": "\n".join(TUTORIAL_DATASET)},
            "limits": {"max_epochs": limits.max_epochs, "max_body": limits.max_body,
                       "max_corpus_chars": limits.max_corpus_chars},
            "presets": registry.get(registry.DEFAULT).presets, "refused_presets": refused_presets(limits),
            "family_options": family_options(), "family_presets": family_presets(),
            "generates": [name for name in registry.names() if registry.get(name).generates],
            "tokenizers": {"jieba": importlib.util.find_spec("jieba") is not None},
            "pretrained": pretrained_model.about()}


def family_options() -> dict[str, list[dict]]:
    """The switches each family declares (families/<name>/options.py), for the form: their
    names, the words they take (or their kind and bounds); the page's words for them are
    the ``app.opt.<name>`` keys, the name itself where a table has none."""
    from ..families.registry import declared

    out: dict[str, list[dict]] = {}
    for option, takers in declared().values():
        entry = {"name": option.name, "choices": list(option.choices),
                 "kind": "str" if option.choices else option.kind.__name__,
                 "lo": option.lo, "hi": option.hi}
        for family in takers:
            out.setdefault(family, []).append(entry)
    return out


def family_presets() -> dict[str, list[str]]:
    """Each family's presets by name, as its options.py names them."""
    out = {}
    for name, module in registry.option_modules().items():
        if getattr(module, "PRESETS", None):
            out[name] = list(module.PRESETS)
    return out


def refused_presets(limits) -> list[str]:
    """The presets this server's limits refuse (the page does not offer them)."""
    from .limits import RequestError
    from .requests import parse_walk

    refused = []
    for name in registry.presets_of(registry.DEFAULT):
        try:
            parse_walk({"preset": name}, limits)
        except RequestError:
            refused.append(name)
    return refused


def _shared(lang: str) -> dict:
    table = i18n.table(lang)
    words = {"loss": table["train.loss"], "epoch": table["train.epoch"],
             "acc": table["train.acc"], "curve": table["train.title"],
             "show_all": table["page.show_all"], "show_corners": table["page.show_corners"],
             "show_first": table["page.show_first"], "beside.title": table["beside.title"]}
    return words | {f"phase.{k}": table[key] for k, key in PHASE_KEYS.items()}
