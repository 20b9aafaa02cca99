"""The workbook's blocks read off a tape: one per step (one per head), the parameters each step
is the first to use, labels and narration from the walkthrough, and the few helper blocks
(the loss's targets, the predicted word) that make the sheet readable."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...i18n import t
from ...narrate.unicode_math import to_text
from .layout import Block, Sheets, XlsxError, as_matrix, stage_of


@dataclass
class Plan:
    sheets: Sheets
    blocks: dict[str, list[Block]] = field(default_factory=dict)  # name → one block per head
    sheet_of: dict[str, str] = field(default_factory=dict)

    def block(self, name: str, head: int | None = None) -> Block:
        blocks = self.blocks[name]
        return blocks[head] if head is not None and len(blocks) > 1 else blocks[0]

    def add(self, sheet: str, band: list[Block]) -> None:
        self.sheets.place(sheet, band)
        for block in band:
            self.blocks.setdefault(block.step.name if _is_head(block) else block.name,
                                   []).append(block)
            self.sheet_of[block.name] = sheet
        if band and band[0].step is not None:
            self.sheet_of[band[0].step.name] = sheet


def _is_head(block: Block) -> bool:
    return block.head is not None


def plan_workbook(tape, lang: str) -> Plan:
    """Every step of the forward pass as blocks on sheets, in the tape's order."""
    notes = _narration(tape, lang)
    views = {(s.inputs[0], s.attrs["index"]): s.name for s in tape.steps
             if s.view and s.op == "select_head"}
    plan = Plan(Sheets())
    for step in tape.steps:
        if step.view:
            continue
        sheet = stage_of(step, plan.sheet_of)
        band = _step_blocks(step, views, notes)
        params = [n for n in step.inputs if n not in tape.index and n not in plan.blocks]
        band += [_input_block(n, tape.params[n], notes, t(lang, "xlsx.input")) for n in params]
        band = _word_labels(step, _head_labels(step, band, plan), tape.meta)
        band = _with_helpers(step, band, tape, lang)
        plan.add(sheet, band)
    return plan


def _step_blocks(step, views: dict, notes: dict) -> list[Block]:
    value = np.asarray(step.value)
    formula = to_text(step.formula) if step.formula else step.op
    if step.op == "input":
        return [_input_block(step.name, value, notes, "")]
    if value.ndim == 3:
        prefix, leaf = step.name.rsplit(".", 1)
        names = [views.get((step.name, h), f"{prefix}.head.{h}.{leaf}")
                 for h in range(value.shape[0])]
        return [_labelled(Block(name, "step", value[h], step, h, formula=formula), notes)
                for h, name in enumerate(names)]
    return [_labelled(Block(step.name, "step", as_matrix(value, step.name), step,
                            formula=formula), notes)]


def _word_labels(step, band: list[Block], meta: dict) -> list[Block]:
    """Ids under their words, and an embedding table's rows named by the vocabulary."""
    vocab = list(meta.get("vocab", []))
    for block in band:
        if step.op == "input" and block.name == step.name:
            tokens = meta.get(step.name.split(".")[0], {}).get("tokens", [])
            block.rows, block.cols = ["id"], _fit(tokens, block.width, block.cols)
        if step.op == "embed" and block.name == step.inputs[1]:
            own = meta.get("src_vocab") if block.name.startswith("src") else None
            block.rows = _fit(list(own or vocab), block.height, block.rows)
    return band


def _head_labels(step, band: list[Block], plan: Plan) -> list[Block]:
    """A projection's weights (all heads side by side) labelled by head and by the input's
    dimension, like the head blocks they make."""
    if step.op != "head_proj":
        return band
    heads = [b for b in band if b.head is not None]
    x = plan.blocks.get(step.inputs[0], [None])[0]
    for block in band:
        if block.kind == "input" and block.width == sum(h.width for h in heads):
            block.cols = [f"{h.head + 1}·{c}" if len(heads) > 1 else c
                          for h in heads for c in h.cols]
            if block.height > 1 and x is not None and x.width == block.height:
                block.rows = list(x.cols)
    return band


def _fit(labels: list, size: int, otherwise: list) -> list:
    return list(labels) if len(labels) == size else otherwise


def _input_block(name: str, value, notes: dict, formula: str) -> Block:
    block = Block(name, "input", as_matrix(np.asarray(value), name), formula=formula)
    return _labelled(block, notes)


def _with_helpers(step, band: list[Block], tape, lang: str) -> list[Block]:
    """The loss needs its targets and a per-position term; the last softmax gets its argmax."""
    if step.op == "cross_entropy":
        targets = np.asarray(step.attrs["targets"]).reshape(1, -1)
        per_position = _per_position(as_matrix(tape.value(step.inputs[0]), step.name), targets[0],
                                     step.attrs.get("smoothing", 0.0))
        tokens = tape.meta.get("target", {}).get("tokens", [])
        aux = [Block(f"{step.name}.targets", "input", targets, formula=t(lang, "xlsx.targets")),
               Block(f"{step.name}.per_position", "helper", per_position, step,
                     formula=t(lang, "xlsx.per_position"))]
        for block in aux:
            block.cols = list(tokens) if len(tokens) == targets.size else _numbers(targets.size)
            block.rows = [""]
        return aux + band
    last_softmax = [s for s in tape.steps if s.op == "softmax" and not s.view][-1:]
    if last_softmax and step is last_softmax[0] and np.asarray(step.value).ndim == 2:
        probs = band[0]
        picked = np.asarray(probs.cols, dtype=object)[probs.value.argmax(axis=1)]
        argmax = Block(f"{step.name}.argmax", "helper", picked.reshape(-1, 1), step,
                       rows=probs.rows, cols=[t(lang, "xlsx.predicted_col")],
                       formula=t(lang, "xlsx.argmax"))
        return [probs, argmax, *band[1:]]
    return band


def _per_position(logits: np.ndarray, targets: np.ndarray, smoothing: float) -> np.ndarray:
    """The cross-entropy of each position (the cached value of the helper row)."""
    top = logits.max(axis=1)
    log_total = np.log(np.exp(logits - top[:, None]).sum(axis=1)) + top
    picked = logits[np.arange(targets.size), targets]
    terms = log_total - (1.0 - smoothing) * picked - smoothing * logits.mean(axis=1)
    return terms.reshape(1, -1)


def _labelled(block: Block, notes: dict) -> Block:
    """Row and column labels, title and narration from the walkthrough, numbers otherwise."""
    title, text, shapes = notes.get(block.name, ("", "", {}))
    rows, cols = shapes.get(block.value.shape, (None, None))
    block.rows = list(rows) if rows else _numbers(block.height)
    block.cols = list(cols) if cols else _numbers(block.width)
    block.title, block.narration = title, text
    return block


def _numbers(n: int) -> list[str]:
    return [str(i) for i in range(n)]


def _narration(tape, lang: str) -> dict[str, tuple[str, str, dict]]:
    """name → (section heading with its panel number, the number every format gives it, its
    paragraphs, {shape: (row labels, column labels)})."""
    from ...narrate import Matrix, build

    notes: dict[str, tuple[str, str, dict]] = {}
    labels: dict[str, dict] = {}
    for section in build(tape, lang):
        for item in section.equation:
            if isinstance(item, Matrix):
                shape = as_matrix(np.asarray(item.value), item.name).shape
                labels.setdefault(item.name, {}).setdefault(shape, (item.rows, item.cols))
        for name in section.steps:
            notes.setdefault(name, (section.heading, "\n\n".join(section.paragraphs), {}))
    names = set(notes) | set(labels)
    return {n: (*notes.get(n, ("", ""))[:2], labels.get(n, {})) for n in names}


def check_ops(tape, supported: set, needed_attrs: dict) -> None:
    """Refuse, by name, a step the workbook has no formula for, or lacks the numbers of."""
    for step in tape.steps:
        if step.view and step.op != "select_head":
            raise XlsxError(f"the workbook cannot show the view {step.name!r} ({step.op})")
        if not step.view and step.op not in supported:
            raise XlsxError(f"the workbook has no spreadsheet formula for step {step.name!r} "
                            f"(op {step.op!r}); it writes the encoder-decoder walk only")
        missing = [a for a in needed_attrs.get(step.op, ()) if a not in step.attrs]
        absent = [n for n in step.inputs if n not in tape.index and n not in tape.params]
        if missing or absent:
            raise XlsxError(f"step {step.name!r} lacks {', '.join(missing + absent)} (a tape "
                            f"read back from JSON keeps no attributes): write the workbook "
                            f"with `handformer walk --format xlsx`")
