"""What a JSON tape must hold (docs/tape.md), checked on load with the field's name.

Tapes are shared: a tutorial author's tape may have been edited by hand, truncated, or made
to hurt. A tape that parses as JSON is checked here for the types of its fields, the shape
of every array against its "shape", the depth of its nesting, and its config against the
same rules (and limits) as a config given on the command line.
"""

from __future__ import annotations

from ..errors import HandformerError
from ..families import registry
from ..schema import SchemaError, boolean, integer, mapping, number, string, strings

MAX_AXES = 8  # no step has more axes than (batch, heads, n, m, …); deeper lists are damage
NON_FINITE = ("nan", "inf", "-inf")


def check_tape(data: dict) -> None:
    """Every field loads() reads: types, shapes, nesting; the config by the CLI's rules."""
    _check_config(data)
    size = len(strings(data.get("vocab", []), "vocab")) or None
    # one vocabulary per side: "vocab" is the target's, "src_vocab" the source's
    src_size = len(strings(data.get("src_vocab", []), "src_vocab")) or size
    strings(data.get("dataset", []), "dataset")
    for side in ("src", "tgt", "target"):
        if side in data:
            _check_sentence(mapping(data[side], side), side, src_size if side == "src" else size)
    for i, sentence in enumerate(_list(data.get("sentences", []), "sentences")):
        _check_sentence(mapping(sentence, f"sentences[{i}]"), f"sentences[{i}]", size)
    for i, step in enumerate(_list(data.get("steps"), "steps")):
        _check_step(mapping(step, f"steps[{i}]"), f"steps[{i}]")
    for name, value in mapping(data.get("params", {}), "params").items():
        array(value, f"params.{name}")
    for i, grad in enumerate(_list(data.get("grads", []), "grads")):
        string(mapping(grad, f"grads[{i}]").get("name"), f"grads[{i}].name")
        array(grad.get("value"), f"grads[{i}].value")
    for name, update in mapping(data.get("updates", {}), "updates").items():
        for part in ("before", "grad", "after"):
            array(mapping(update, f"updates.{name}").get(part), f"updates.{name}.{part}")
    if "shards" in data:
        _check_shards(mapping(data["shards"], "shards"))
    if "beside" in data:
        _check_beside(mapping(data["beside"], "beside"), data, size)
    if "beside_random" in data:
        _check_beside_random(mapping(data["beside_random"], "beside_random"), data)


def _check_config(data: dict) -> None:
    config = mapping(data.get("config", {}), "config")
    if not config:
        return
    try:
        sizes = registry.get(registry.name_of(data)).config
        sizes.from_dict(config) if hasattr(sizes, "from_dict") else sizes(**config)
    except TypeError as err:
        raise SchemaError(f"config: {err}") from None
    except HandformerError as err:
        raise SchemaError(f"config: {err}") from None


def _check_sentence(sentence: dict, where: str, vocab_size: int | None) -> None:
    """Tokens are strings; ids whole numbers that index the vocabulary (when it is listed)."""
    if "text" in sentence:
        string(sentence["text"], f"{where}.text")
    strings(sentence.get("tokens", []), f"{where}.tokens")
    top = None if vocab_size is None else vocab_size - 1
    for i, token_id in enumerate(_list(sentence.get("ids", []), f"{where}.ids")):
        integer(token_id, f"{where}.ids[{i}]", 0, top)


def _check_shards(told: dict) -> None:
    """walk --shards (families/transformer/shards.py): one parameter's gradient, of the whole batch and of
    each shard, all of one shape; whole numbers of tokens; the entry that differs most."""
    string(told.get("param"), "shards.param")
    shape = array(told.get("whole"), "shards.whole")
    grads = _list(told.get("shard_grads"), "shards.shard_grads")
    counts = _list(told.get("shard_tokens"), "shards.shard_tokens")
    if not 1 <= len(shape) <= 2 or len(grads) != len(counts) or len(grads) < 2:
        raise SchemaError("shards: expected a vector or matrix gradient and two or more shards, "
                          "each with its count of tokens")
    for i, g in enumerate([told.get("average"), *grads]):
        if array(g, f"shards.shard_grads[{i - 1}]" if i else "shards.average") != shape:
            raise SchemaError(f"shards: every gradient must have the shape {shape}")
    for i, count in enumerate(counts):
        integer(count, f"shards.shard_tokens[{i}]", 0)
    integer(told.get("tokens"), "shards.tokens", 1)
    integer(told.get("shard_pairs"), "shards.shard_pairs", 1)
    integer(told.get("max_at"), "shards.max_at", 0, len(_flat(told["whole"])) - 1)
    number(told.get("max_difference"), "shards.max_difference", 0)
    number(told.get("plain_difference"), "shards.plain_difference", 0)
    _list(told.get("pairs"), "shards.pairs")


def _check_beside(told: dict, data: dict, vocab_size: int | None) -> None:
    """walk --beside-trained, or a checkpoint's walk: the other weights' first attention
    pattern (n × n over the source), p(target) and the picked word at each target position."""
    if told.get("label") not in ("trained", "untrained"):
        raise SchemaError("beside.label: expected \"trained\" or \"untrained\"")
    integer(told.get("epochs"), "beside.epochs", 0)
    string(told.get("step", ""), "beside.step")
    over = told.get("over", "src")
    if over not in ("src", "tgt"):
        raise SchemaError("beside.over: expected \"src\" or \"tgt\" (the pattern's tokens)")
    n = len(_list(mapping(data.get(over, {}), over).get("ids", []), f"{over}.ids"))
    m = len(_list(mapping(data.get("target", {}), "target").get("ids", []), "target.ids"))
    if array(told.get("pattern"), "beside.pattern") != (n, n):
        side = "source" if over == "src" else "input"
        raise SchemaError(f"beside.pattern: expected {n} × {n}, one row per {side} token")
    picked = _list(told.get("picked"), "beside.picked")
    if array(told.get("p_target"), "beside.p_target") != (m,) or len(picked) != m:
        raise SchemaError(f"beside: expected p_target and picked for each of the {m} targets")
    for i, token_id in enumerate(picked):
        integer(token_id, f"beside.picked[{i}]", 0, None if vocab_size is None else vocab_size - 1)
    if told["label"] == "trained":
        integer(told.get("pairs"), "beside.pairs", 1)
        number(told.get("lr"), "beside.lr", 0)
        if array(told.get("loss"), "beside.loss") != (2,):
            raise SchemaError("beside.loss: expected the first and the last epoch's loss")
        boolean(told.get("seen"), "beside.seen")


def _check_beside_random(told: dict, data: dict) -> None:
    """BERT's walk --beside-trained: the random copy's patterns (n × n over the sentence), its
    sentence embedding and the cosine of how far its layers moved it."""
    integer(told.get("seed"), "beside_random.seed", 0)
    number(told.get("std"), "beside_random.std", 0)
    number(told.get("moved"), "beside_random.moved", -1.0001, 1.0001)
    n = len(_list(mapping(data.get("src", {}), "src").get("ids", []), "src.ids"))
    for step, pattern in mapping(told.get("patterns"), "beside_random.patterns").items():
        if array(pattern, f"beside_random.patterns.{step}") != (n, n):
            raise SchemaError(f"beside_random.patterns.{step}: expected {n} × {n}, one row per "
                              "token of the sentence")
    d = mapping(data.get("config", {}), "config").get("d_model")
    if array(told.get("embedding"), "beside_random.embedding") != (d,):
        raise SchemaError(f"beside_random.embedding: expected {d} numbers")


def _flat(value) -> list:
    return [x for v in value for x in _flat(v)] if isinstance(value, list) else [value]


def _check_step(step: dict, where: str) -> None:
    name = string(step.get("name"), f"{where}.name")
    where = f"step {name!r}"
    string(step.get("op"), f"{where}.op")
    strings(step.get("inputs"), f"{where}.inputs")
    shape = _list(step.get("shape"), f"{where}.shape")
    for axis in shape:
        integer(axis, f"{where}.shape", 0)
    found = array(step.get("value"), f"{where}.value")
    if found != tuple(shape):
        raise SchemaError(f"{where}.value has shape {found}, its \"shape\" says {tuple(shape)}")
    for key, symbol in mapping(step.get("symbols", {}), f"{where}.symbols").items():
        if symbol is not None:  # None: a term the op leaves out (no bias)
            string(symbol, f"{where}.symbols.{key}")
    boolean(step.get("view", False), f"{where}.view")
    for key, value in mapping(step.get("extras", {}), f"{where}.extras").items():
        array(value, f"{where}.extras.{key}")


def array(value, where: str) -> tuple[int, ...]:
    """The shape of a nested list of numbers (or "nan"/"inf"/"-inf"), checked rectangular."""
    if not isinstance(value, list):
        _scalar(value, where)
        return ()
    shape, level = [], [value]
    while level and all(isinstance(v, list) for v in level):
        if len(shape) == MAX_AXES:
            raise SchemaError(f"{where} is nested deeper than {MAX_AXES} axes")
        lengths = {len(v) for v in level}
        if len(lengths) != 1:
            raise SchemaError(f"{where} is not rectangular (rows of {sorted(lengths)[:4]} "
                              f"numbers at axis {len(shape)})")
        shape.append(lengths.pop())
        level = [x for v in level for x in v]
    for x in level:
        _scalar(x, where)
    return tuple(shape)


def _scalar(x, where: str) -> None:
    if isinstance(x, list):
        raise SchemaError(f"{where} is not rectangular (a list beside a number)")
    if isinstance(x, str) and x in NON_FINITE:
        return
    if not isinstance(x, int | float):  # bool is an int: masks are stored as true/false
        raise SchemaError(f"{where} holds {x!r}, not a number")


def _list(value, where: str) -> list:
    if not isinstance(value, list):
        raise SchemaError(f"{where} must be a list, got {type(value).__name__}")
    return value
