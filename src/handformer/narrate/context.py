"""The one reader every narrator uses (each family's story, translate --explain): the tape,
the language's sentences, labels, and Matrix makers.

Narrators read numbers off the tape (values, extras, parameters, gradients) and fill the
language's sentence templates with them; nothing here computes the model.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .. import i18n
from ..engine.ops import get
from ..engine.tape import INPUT
from ..families.registry import family_of
from .document import Callout, Matrix, Section

# The seed tutorial's own step (it has 1 to 13) that a stage shows: the heads joined belong
# to its step 7, and cross-attention to its step 11, where it wires the decoder's second
# attention to the encoder; the loss, the gradients and the update (14–16) are not in it.
TUTORIAL_STEPS = {**{str(k): str(k) for k in range(1, 14)}, "7b": "7", "12b": "11"}

# The one-line summary of each erratum whose difference is not a number (i18n keys written out).
SUMMARY_KEYS = {"D1": "D1.summary", "D2": "D2.summary", "D3": "D3.summary", "D4": "D4.summary",
                "D5": "D5.summary", "D6": "D6.summary", "D7": "D7.summary", "D8": "D8.summary",
                "D9": "D9.summary", "D10": "D10.summary", "D11": "D11.summary",
                "D14": "D14.summary", "D16": "D16.summary", "D17": "D17.summary",
                "D18": "D18.summary"}

MAX_HEADS = 4  # per attention block, heads shown one by one; the rest are told in one sentence


class Ctx:
    """A tape being narrated in one language; collects the sections in order."""

    def __init__(self, tape, lang: str, row: int = 0, level: str = "steps"):
        """``lang``: a language of handformer.i18n; ``row``: which sentence of a batched tape
        is told; ``level``: "all" tells every explanation each time it applies, the others tell
        it once and then refer back to where it was told."""
        self.tape, self.lang, self.texts, self.row = tape, lang, i18n.table(lang), row
        self.level = level
        self.told_at: dict[str, Section] = {}  # paragraph → the section that told it first
        self.meta = tape.meta
        self.cfg = dict(self.meta.get("config") or {})
        self.vocab = [str(t) for t in self.meta.get("vocab") or []]
        # With one vocabulary per side "vocab" is the target's and "src_vocab" the source's.
        self.src_vocab = [str(t) for t in self.meta.get("src_vocab") or []] or self.vocab
        self.batched = _batched_steps(tape)
        self.errata = _errata(tape)
        self.told: set[str] = set()
        self.sections: list[Section] = []
        # a pretrained model's walk (SmolLM2 on the decoder-only family) is not the tutorial's
        self.follows_tutorial = family_of(tape).follows_tutorial and not self.meta.get("pretrained")
        self._tokens: dict[str, list[str]] = {}  # tokens() by side

    # --- text --------------------------------------------------------------------------------

    def t(self, key: str, **numbers) -> str:
        """The sentence ``key`` in this language, filled with numbers read off the tape."""
        return self.texts[key].format(**numbers)

    def step_label(self, panel: int) -> str:
        """"Step 12 · " / "第 12 步 · ": drawn before a section's title by the renderers that do."""
        return self.t("step_prefix", n=panel)

    def panel_of(self, section_id: str) -> int:
        """The panel number of a section told already (0 if none): for "as in step 4"."""
        return next((s.panel for s in self.sections if s.id == section_id), 0)

    def first(self, code: str) -> bool:
        """True the first time an erratum (or any one-off remark) is told."""
        if code in self.told:
            return False
        self.told.add(code)
        return True

    def callout(self, code: str, key: str, tutorial: Matrix | None = None, **numbers) -> Callout:
        """An erratum: its full text, and a one-line summary (the tutorial's number against ours
        where the difference is a number); ``repeat`` once the same text was told before."""
        if "theirs" in numbers and "ours" in numbers:
            summary = self.t("erratum.numbers", theirs=numbers["theirs"], ours=numbers["ours"])
        else:
            summary = self.t(SUMMARY_KEYS[code]) if code in SUMMARY_KEYS else ""
        repeat = not self.first(f"callout.{key}") and self.level != "all"
        return Callout(code, self.t(key, **numbers), tutorial, summary, repeat)

    def add(self, section: Section, numbered: bool = True) -> Section:
        """Append a section as the next panel; ``numbered``: its title is drawn after
        "Step N · " (the BERT and decoding stories, whose titles count on their own, go without)."""
        section.panel = section.panel or len(self.sections) + 1
        if numbered:
            section.prefix = self.step_label(section.panel)
        if self.follows_tutorial:
            section.tutorial = TUTORIAL_STEPS.get(section.number, "")
            if section.tutorial:
                section.tutorial_label = self.t("tutorial_step", n=section.tutorial)
        self._refer_back(section)
        self.sections.append(section)
        return section

    def _refer_back(self, section: Section) -> None:
        """A paragraph told word for word in an earlier section becomes one line that names
        that section (at every level but "all"), so an explanation is read once."""
        kept, earlier = [], []
        for paragraph in section.paragraphs:
            first = self.told_at.setdefault(paragraph, section)
            if first is section or self.level == "all":
                kept.append(paragraph)
            elif all(first is not e for e in earlier):
                earlier.append(first)
        if earlier:
            section.told_in = [s.id for s in earlier]
            section.told = self.t("told.before", where="; ".join(s.heading for s in earlier))
            kept.append(section.told)
        section.paragraphs = kept

    # --- numbers -----------------------------------------------------------------------------

    def has(self, name: str) -> bool:
        return name in self.tape.index or name in self.tape.params

    def value(self, name: str) -> np.ndarray | None:
        """A step's value (first sentence of a batch) or a parameter; None if not stored."""
        step = self.tape.index.get(name)
        if step is not None:
            return self._first_example(step.value, name)
        value = self.tape.params.get(name)
        return None if value is None else np.asarray(value)

    def extra(self, name: str, key: str) -> np.ndarray | None:
        step = self.tape.index.get(name)
        if step is None or key not in step.extras:
            return None
        return self._first_example(np.asarray(step.extras[key]), name)

    def erratum(self, name: str, code: str) -> dict | None:
        """The errata pass's record of ``code`` at step ``name`` (errata.annotate), if any."""
        for record in self.errata:
            if record["code"] == code and record["step"] == name:
                return record
        return None

    def tutorial(self, name: str, code: str) -> np.ndarray | None:
        """What the tutorial prints at step ``name`` (erratum ``code``), if the tape was marked."""
        return self.extra(name, "tutorial") if self.erratum(name, code) else None

    def grad(self, name: str) -> np.ndarray | None:
        g = self.tape.grads.get(name)
        if g is None:
            return None
        return self._first_example(np.asarray(g), name)

    def _first_example(self, value: np.ndarray, name: str) -> np.ndarray:
        # A batched tape is told through one sentence (``row``); every number is still on it.
        return value[self.row] if name in self.batched and np.ndim(value) >= 1 else value

    def head(self, name: str, h: int, grad: bool = False) -> np.ndarray | None:
        """One head's slice of a (h, n, m) step: its view step if recorded, else the slice."""
        parent, leaf = name.rsplit(".", 1)
        view = f"{parent}.head.{h}.{leaf}"
        getter = self.grad if grad else self.value
        value = getter(view)
        if value is None:
            full = getter(name)
            value = None if full is None else full[..., h, :, :]
        return value

    def formula(self, name: str, grad: bool = False, **symbols) -> str:
        """The step's formula from its op, with symbols the step left open filled in."""
        step = self.tape.index.get(name)
        if step is None or step.op == INPUT:
            return ""
        return _latex(get(step.op), tuple({**symbols, **step.symbols}.items()), grad)

    # --- labels ------------------------------------------------------------------------------

    def tokens(self, side: str) -> list[str]:
        """The tokens of "src", "tgt" (decoder input) or "target", from the ids on the tape
        (read once per side: a story asks for them in most of its sections; a fresh list each
        time, as a caller may extend it)."""
        if side not in self._tokens:
            self._tokens[side] = self._read_tokens(side)
        return list(self._tokens[side])

    def _read_tokens(self, side: str) -> list[str]:
        names = {"src": "src.ids", "tgt": "tgt.ids"}
        if side in names and names[side] in self.tape.index:
            ids = self.value(names[side])
            return [self._token(int(i), side) for i in np.ravel(ids)]
        info = self.meta.get(side) or {}
        if info.get("ids") and isinstance(info["ids"][0], list):
            return [self._token(int(i), side) for i in info["ids"][0]]
        return [str(t) for t in info.get("tokens") or []]

    def vocab_of(self, side: str) -> list[str]:
        """The vocabulary of "src" (the encoder's) or of the target side (the rest)."""
        return self.src_vocab if side == "src" else self.vocab

    def vocab_size_text(self) -> str:
        """The vocabulary's size, or both sides' when each has its own."""
        if self.src_vocab is self.vocab:
            return str(len(self.vocab))
        return self.t("vocab.sides", src=len(self.src_vocab), tgt=len(self.vocab))

    def _token(self, i: int, side: str = "tgt") -> str:
        vocab = self.vocab_of(side)
        return vocab[i] if 0 <= i < len(vocab) else f"#{i}"

    def side_of(self, name: str) -> str:
        """Which sentence a step's rows belong to: the encoder's (src) or the decoder's (tgt)."""
        return "src" if name.startswith(("src", "encoder")) else "tgt"

    # --- matrices ----------------------------------------------------------------------------

    def mat(self, name: str, symbol: str, value, rows=None, cols=None, kind: str = "matrix",
            note: str = "") -> Matrix | str:
        """A Matrix to draw; a parameter missing from a loaded tape becomes its symbol and shape
        (the lengths of its labels)."""
        if value is None:
            shape = [str(len(x)) for x in (rows, cols) if x is not None]
            return symbol + (r"\ (" + r" \times ".join(shape) + ")" if shape else "")
        value = np.asarray(value)
        return Matrix(name, symbol, value, _fit(rows, value, 0), _fit(cols, value, 1), kind, note)

    def param(self, name: str, symbol: str, rows=None, cols=None) -> Matrix | str:
        return self.mat(name, symbol, self.value(name), rows, cols)


@lru_cache(maxsize=4096)
def _latex(op, symbols: tuple[tuple[str, str | None], ...], grad: bool) -> str:
    """An op's formula with these symbols: the same in every language, so a page, which tells
    a tape in each of its languages, fills each formula once."""
    return op.latex(dict(symbols), grad=grad)


def _batched_steps(tape) -> set[str]:
    """The steps that carry the batch axis: the (B, n) inputs (ids, positions: whole numbers,
    so a table of floats put on the tape as it is, such as a generation's check, is not one)
    and everything computed from them; none on a tape of one sentence."""
    batched = {s.name for s in tape.steps if s.op == "input" and np.ndim(s.value) == 2
               and np.asarray(s.value).dtype.kind in "iu"}
    if not batched:
        return batched
    for step in tape.steps:
        if any(i in batched for i in step.inputs) and step.op != "cross_entropy":
            batched.add(step.name)
    return batched


def _fit(labels, value: np.ndarray, axis: int):
    """Labels only when they match the axis they name (a loaded tape may differ)."""
    if labels is None or value.ndim == 0:
        return None
    axis = axis if value.ndim == 2 else 0  # a vector's labels name its one axis
    labels = list(labels)
    return labels if len(labels) == value.shape[axis] else None


def _errata(tape) -> list[dict]:
    """The records of the tape's errata pass: its family reads them (older tapes kept them
    elsewhere); a family without an errata pass has none."""
    family = family_of(tape)
    return family.errata(tape) if family.errata else list(tape.meta.get("errata", []))
