"""The app's words for the page: the ``app.`` keys of every i18n table (handformer.i18n).

Words the i18n tables already have are taken from there, so the page says "loss", "epoch",
"Decoding" as the walkthrough and `handformer train` do.
"""

from __future__ import annotations

import importlib.util

from .. import i18n
from ..config import PRESETS
from ..render.html.toc import PHASE_KEYS
from ..text import TUTORIAL_DATASET, TUTORIAL_SRC, TUTORIAL_TGT

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
            "presets": PRESETS, "refused_presets": refused_presets(limits),
            "tokenizers": {"jieba": importlib.util.find_spec("jieba") is not None}}


def refused_presets(limits) -> list[str]:
    """The presets this server's limits refuse (the page does not offer them)."""
    from .limits import RequestError
    from .requests import parse_walk

    refused = []
    for name in PRESETS:
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
