"""The walkthrough of a pretrained BERT-family encoder (tape.meta["kind"] == "bert").

Sections follow the tutorial's step numbers where the step is the same idea (3 encoding,
4 embedding, 5 positions, 6 input, 7 attention, 8 add & norm, 9 feed-forward, 10 add & norm),
and 13 for the output (the sentence embedding). Numbers are read off the tape; a batched tape is
told through one sentence (``row``).
"""

from __future__ import annotations

import numpy as np

from .. import i18n
from ..formula import head, transpose
from .document import Matrix, Section


class Reader:
    """One sentence of a BERT tape, in one language."""

    def __init__(self, tape, lang: str, row: int = 0):
        self.tape, self.texts, self.row = tape, i18n.table(lang), row
        self.batched = np.ndim(tape.index["src.ids"].value) == 2
        info = tape.meta["sentences"][row] if self.batched else tape.meta["src"]
        self.info = info
        n = np.shape(tape.index["src.ids"].value)[-1]
        self.tokens = list(info["tokens"]) + ["[PAD]"] * (n - len(info["tokens"]))
        cfg = tape.meta.get("config", {})
        self.d, self.heads, self.layers = cfg["d_model"], cfg["heads"], cfg["layers"]
        self.sections: list[Section] = []

    def t(self, key: str, **numbers) -> str:
        return self.texts[key].format(**numbers)

    def value(self, name: str) -> np.ndarray:
        step = self.tape.index.get(name)
        if step is None:
            return np.asarray(self.tape.params[name])
        return step.value[self.row] if self.batched else step.value

    def extra(self, name: str, key: str):
        """A number kept beside a step (None if the tape was recorded without it)."""
        value = self.tape.index[name].extras.get(key)
        if value is None:
            return None
        value = np.asarray(value)
        return value[self.row] if self.batched else value

    def mat(self, name: str, symbol: str, kind: str = "matrix", rows="tokens", cols=True,
            value=None, note: str = "") -> Matrix:
        value = self.value(name) if value is None else value
        row_labels = self.tokens if rows == "tokens" and value.ndim == 2 else rows
        col_labels = None
        if cols is True:
            col_labels = [f"d{j}" for j in range(value.shape[-1])]
        elif cols:
            col_labels = list(cols)
        return Matrix(name, symbol, value, row_labels if row_labels != "tokens" else None,
                      col_labels, kind, note)

    def formula(self, name: str) -> str:
        return self.tape.index[name].formula

    def add(self, id: str, number: str, title: str, paragraphs, formula="", equation=(),
            steps=(), phase="forward") -> None:
        self.sections.append(Section(id, number, title, list(paragraphs), formula,
                                     list(equation), [], list(steps), phase))


def build_pretrained(tape, lang: str = "en") -> list[Section]:
    """Every step of the BERT encoder, from WordPiece to the sentence embedding."""
    r = Reader(tape, lang)
    overview(r)
    wordpiece(r)
    embeddings(r)
    for i in range(r.layers):
        layer(r, i)
    pooling(r)
    return r.sections


def overview(r: Reader) -> None:
    cfg = r.tape.meta["config"]
    r.add("bert.overview", "1", r.t("bert.overview.title", model=r.tape.meta.get("model", "")),
          [r.t("bert.overview.sizes", **cfg, d_k=cfg["d_model"] // cfg["heads"]),
           *(r.t(k) for k in ("bert.differs.encoder", "bert.differs.wordpiece",
                              "bert.differs.positions", "bert.differs.gelu",
                              "bert.differs.pooling"))], phase="text")


def wordpiece(r: Reader) -> None:
    info = r.info
    pieces = info.get("pieces") or [[w] for w in info["words"]]
    cut = [" ".join(p) for p in pieces if len(p) > 1]
    unknown = [w for w, p in zip(info["words"], pieces, strict=True) if p == ["[UNK]"]]
    paragraphs = [r.t("bert.wp.words", text=info["text"], words=" | ".join(info["words"])),
                  r.t("bert.wp.pieces", tokens=" ".join(info["tokens"]), n=len(info["tokens"]))]
    if cut:
        paragraphs.append(r.t("bert.wp.split", words=r.t("bert.comma").join(cut)))
    if unknown:
        paragraphs.append(r.t("bert.wp.unk", words=r.t("bert.comma").join(unknown)))
    paragraphs.append(r.t("bert.wp.ids", ids=" ".join(map(str, info["ids"]))))
    r.add("bert.wordpiece", "3", r.t("bert.wp.title"), paragraphs, steps=["src.ids"], phase="text")


# The lookups of positions and types index by position and by segment, not by token id.
EMBED_FORMULAS = {"position": r"X_{pos} = E_{pos}[0, 1, \dots, n-1]",
                  "token_type": r"X_{type} = E_{type}[0, 0, \dots, 0]"}


def embeddings(r: Reader) -> None:
    n = len(r.tokens)
    for name, number, title, key in (
            ("word", "4", "bert.emb.word.title", "bert.emb.word"),
            ("position", "5", "bert.emb.position.title", "bert.emb.position"),
            ("token_type", "5b", "bert.emb.type.title", "bert.emb.type")):
        step = f"embeddings.{name}"
        r.add(step, number, r.t(title), [r.t(key, n=n, d=r.d)],
              formula=EMBED_FORMULAS.get(name) or r.formula(step),
              equation=[r.mat(step, r.tape.index[step].symbols["out"])],
              steps=[r.tape.index[step].inputs[0], step])
    r.add("embeddings.sum", "6", r.t("bert.emb.sum.title"), [r.t("bert.emb.sum")],
          formula=r.formula("embeddings.sum"),
          equation=[r.mat("embeddings.word", "X_{word}"), "+", r.mat("embeddings.position",
                    "X_{pos}"), "+", r.mat("embeddings.token_type", "X_{type}"), "=",
                    r.mat("embeddings.sum", "X_{sum}")], steps=["embeddings.sum"])
    norm(r, "embeddings.ln.out", "embeddings.sum", "6", r.t("bert.emb.ln.title"),
         r.t("bert.emb.ln"))


def norm(r: Reader, out: str, resid: str, number: str, title: str, text: str) -> None:
    mean, std = r.extra(out, "mean"), r.extra(out, "std")
    paragraphs = [text]
    if mean is not None and std is not None:
        paragraphs.append(r.t("bert.ln.first", token=r.tokens[0], mean=f"{mean[0]:.3f}",
                              std=f"{std[0]:.3f}"))
    r.add(out.removesuffix(".out"), number, title, paragraphs, formula=r.formula(out),
          equation=[r.mat(resid, "X"), "→", r.mat(out, r.tape.index[out].symbols.get("out",
                                                                                      "Y"))],
          steps=[resid, out] if resid.endswith(".resid") else [out])


def layer(r: Reader, i: int) -> None:
    p, where = f"layer.{i}", r.t("bert.where", i=i + 1, layers=r.layers)
    a = f"{p}.self_attn"
    r.add(f"{a}.qkv", "7", where + r.t("bert.qkv.title"),
          [r.t("bert.qkv", h=r.heads, dk=r.d // r.heads)],
          formula=r.formula(f"{a}.q"),
          equation=[r.mat(f"{a}.head.0.{w}", head(w.upper(), 1)) for w in "qkv"],
          steps=[f"{a}.q", f"{a}.k", f"{a}.v"])
    masked = r.value(f"{a}.masked")[0]
    hidden = int(np.isinf(masked).any(axis=-1).sum())
    r.add(f"{a}.scores", "7", where + r.t("bert.scores.title"),
          [r.t("bert.scores", dk=r.d // r.heads),
           r.t("bert.mask.pad" if hidden else "bert.mask.none")],
          formula=r.formula(f"{a}.scores"),
          equation=[r.mat(f"{a}.head.0.masked", "S'^{(1)}", cols=r.tokens)],
          steps=[f"{a}.scores", f"{a}.masked"])
    patterns(r, a, where)
    r.add(f"{a}.z", "7", where + r.t("bert.z.title"), [r.t("bert.z")], formula=r.formula(f"{a}.z"),
          equation=[r.mat(f"{a}.head.0.z", "Z^{(1)}")], steps=[f"{a}.z"])
    r.add(f"{a}.out", "7b", where + r.t("bert.out.title"), [r.t("bert.out", h=r.heads, d=r.d)],
          formula=r.formula(f"{a}.out"),
          equation=[r.mat(f"{a}.concat", "Z"), "·", "W^O", "+", "b^O", "=",
                    r.mat(f"{a}.out", r"\mathrm{MHA}")], steps=[f"{a}.concat", f"{a}.out"])
    norm(r, f"{p}.ln1.out", f"{p}.ln1.resid", "8", where + r.t("bert.ln1.title"), r.t("bert.ln1"))
    feed_forward(r, p, where)
    norm(r, f"{p}.ln2.out", f"{p}.ln2.resid", "10", where + r.t("bert.ln2.title"), r.t("bert.ln2"))
    r.sections[-1].steps.append(f"{p}.out")


def patterns(r: Reader, a: str, where: str) -> None:
    """All heads of one layer side by side: the small multiples of what attention learned."""
    mats = [r.mat(f"{a}.head.{h}.pattern", head("A", h + 1), kind="pattern", cols=r.tokens,
                  note=r.t("bert.head", h=h + 1)) for h in range(r.heads)]
    kinds: dict[str, list[str]] = {}
    for h, m in enumerate(mats):
        kind = head_kind(m.value, r.tokens)
        kinds.setdefault(kind, []).append(str(h + 1))
        m.note = r.t(KIND_KEYS[kind], heads=m.note)  # "head 3: the previous token"
    told = r.t("bert.sep").join(
        r.t(KIND_KEYS[k], heads=r.t("bert.heads" if len(hs) > 1 else "bert.head",
                                    h=r.t("bert.comma").join(hs)))
        for k, hs in kinds.items())
    r.add(f"{a}.pattern", "7", where + r.t("bert.pattern.title", h=r.heads),
          [r.t("bert.pattern", h=r.heads), r.t("bert.pattern.kinds", told=told)],
          formula=r.formula(f"{a}.pattern"), equation=mats, steps=[f"{a}.pattern"])


KIND_KEYS = {"prev": "bert.kind.prev", "next": "bert.kind.next", "self": "bert.kind.self",
             "special": "bert.kind.special", "mixed": "bert.kind.mixed"}


def head_kind(pattern: np.ndarray, tokens: list[str]) -> str:
    """What most word rows of a head look at hardest: the previous token, the next, itself,
    [CLS] or [SEP] (a resting place), or nothing in particular ("mixed")."""
    n = sum(t != "[PAD]" for t in tokens)
    rows = range(1, n - 1)  # the words between [CLS] and [SEP]
    if not rows:
        return "mixed"
    target = pattern[:n, :n].argmax(axis=-1)
    # [CLS] and [SEP] first: in a one-word sentence they are also the previous and next token.
    if sum(target[i] in (0, n - 1) for i in rows) >= 0.6 * len(rows):
        return "special"
    for kind, offset in (("prev", -1), ("next", 1), ("self", 0)):
        if sum(target[i] == i + offset for i in rows) >= 0.6 * len(rows):
            return kind
    return "mixed"


def feed_forward(r: Reader, p: str, where: str) -> None:
    pre, act = r.value(f"{p}.ffn.pre"), r.value(f"{p}.ffn.act")
    j = np.unravel_index(int(np.argmin(np.abs(pre + 0.5))), pre.shape)  # a value near −0.5
    r.add(f"{p}.ffn", "9", where + r.t("bert.ffn.title"),
          [r.t("bert.ffn", d=r.d, d_ff=pre.shape[-1]),
           r.t("bert.gelu", x=f"{pre[j]:.3f}", y=f"{act[j]:.3f}")],
          formula=r.formula(f"{p}.ffn.act"),
          equation=[r.mat(f"{p}.ffn.pre", "F"), r"\xrightarrow{\mathrm{GELU}}",
                    r.mat(f"{p}.ffn.act", "G"), "·", "W_2", "+", "b_2", "=",
                    r.mat(f"{p}.ffn.out", r"\mathrm{FFN}")],
          steps=[f"{p}.ffn.pre", f"{p}.ffn.act", f"{p}.ffn.out"])


def pooling(r: Reader) -> None:
    """Step 13: the mean over the real tokens, then the L2 normalization."""
    last = f"layer.{r.layers - 1}.out"
    count = sum(t != "[PAD]" for t in r.tokens)
    r.add("pooling.mean", "13", r.t("bert.pool.title"),
          [r.t("bert.pool", n=count, tokens=" ".join(r.tokens[:count])), r.t("bert.pool.why")],
          formula=r.formula("pooling.mean"),
          equation=[r.mat(last, head("H", r.layers)), "→",
                    r.mat("pooling.mean", "u", kind="vector", rows=None)],
          steps=["pooling.mean"], phase="forward")
    length = r.extra("pooling.normalized", "norm")
    told = [r.t("bert.l2", norm=f"{float(length):.4f}")] if length is not None else []
    r.add("pooling.normalized", "13b", r.t("bert.l2.title"), [*told, r.t("bert.l2.cos")],
          formula=r.formula("pooling.normalized"),
          equation=[r.mat("pooling.mean", "u", kind="vector", rows=None), "→",
                    r.mat("pooling.normalized", "e", kind="vector", rows=None)],
          steps=["pooling.normalized"])


def explain(tape, lang: str = "en") -> list[Section]:
    """`embed --explain`, `similarity --explain`: per sentence the pooling and normalization,
    then (if on the tape) the cosine similarity of every pair."""
    count = len(tape.meta["sentences"]) if "sentences" in tape.meta else 1
    sections = []
    for row in range(count):
        r = Reader(tape, lang, row)
        pooling(r)
        for s in r.sections:
            s.id, s.title = f"{s.id}.{row}", f"{s.title}: {r.info['text']}"
        sections += r.sections
    if "similarity" in tape.index:
        sections.append(similarity(Reader(tape, lang)))
    return sections


def similarity(r: Reader) -> Section:
    texts = [s["text"] for s in r.tape.meta["sentences"]]
    cos = r.tape.index["similarity"].value
    e = r.tape.index["pooling.normalized"].value
    labels = [f"{i + 1}" for i in range(len(texts))]
    told = [r.t("bert.cos.pair", a=texts[0], b=texts[1], cos=f"{cos[0, 1]:.4f}")]
    return Section("similarity", "13c", r.t("bert.cos.title"), [r.t("bert.cos"), *told],
                   r.formula("similarity"),
                   [Matrix("pooling.normalized", "E", e, labels, None), "·",
                    Matrix("pooling.normalized", transpose("E"), e.T, None, labels), "=",
                    Matrix("similarity", r"\cos", cos, labels, labels)], [], ["similarity"])
