"""The tape as JSON (format ``handformer.tape/1``) and back, without recomputing anything.

Numbers are written with Python's shortest round-trip repr, so a saved tape reloads to the same
float64 values bit for bit, and the same config and seed give a byte-identical file. JSON has no
infinities: masked scores (−∞) are written as the string "-inf". The schema is in docs/tape.md.
"""

from __future__ import annotations

import json

import numpy as np

from ..engine.tape import Step, Tape
from ..errors import TapeFormatError  # noqa: F401  (raised here)
from ..families import registry
from ..limits import check
from ..render.common.tex_guard import check_symbols
from ..schema import SchemaError
from ..textsafe import json_escaped, json_loads, normalized
from .kept_params import PARAMS_LIMIT, params_kept, used_params
from .tape_schema import check_tape

FORMAT = "handformer.tape/1"




def encode_array(value: np.ndarray):
    """Nested lists of floats (or ints); non-finite values as "inf", "-inf", "nan"."""
    value = np.asarray(value)
    if value.dtype == bool:
        return value.tolist()
    if np.issubdtype(value.dtype, np.integer):
        return value.tolist()
    flat = [_number(x) for x in value.astype(np.float64).reshape(-1).tolist()]
    return _nest(flat, value.shape)


def _number(x: float):
    if x != x:
        return "nan"
    if x in (float("inf"), float("-inf")):
        return "inf" if x > 0 else "-inf"
    return x


def _nest(flat: list, shape: tuple):
    if not shape:
        return flat[0]
    if len(shape) == 1:
        return flat
    size = len(flat) // shape[0]
    return [_nest(flat[i * size:(i + 1) * size], shape[1:]) for i in range(shape[0])]


def decode_array(data) -> np.ndarray:
    def fix(x):
        if isinstance(x, list):
            return [fix(v) for v in x]
        return float(x) if isinstance(x, str) else x

    return np.asarray(fix(data))


_TOO_MANY = ("the count of numbers this JSON tape would hold (every step, gradient and update; "
             "a tape of --backward at this size is huge: choose a smaller model, or leave out "
             "--backward)")


def backward_json_numbers(tape: Tape) -> int:
    """Before the reverse pass, what its JSON tape will hold at most: about twice the forward
    steps (a gradient for each) and four numbers per parameter (its gradient, and the update's
    before, gradient and after)."""
    params = sum(v.size for v in tape.params.values())
    return 2 * _json_numbers(tape) + 4 * params


def check_backward_fits(tape: Tape) -> None:
    check("json_numbers", backward_json_numbers(tape), _TOO_MANY)


def tape_to_dict(tape: Tape) -> dict:
    check("json_numbers", _json_numbers(tape), _TOO_MANY)
    meta = dict(tape.meta)
    out = {"format": FORMAT, "config": meta.pop("config", {}), "vocab": meta.pop("vocab", []),
           "src": meta.pop("src", {}), "tgt": meta.pop("tgt", {})}
    out |= meta
    out["steps"] = [_step_dict(s) for s in tape.steps]
    if params_kept(tape):
        out["params"] = {n: encode_array(tape.params[n]) for n in used_params(tape)}
    if tape.grads:
        out["grads"] = [{"name": n, "value": encode_array(tape.grads[n])}
                        for n in _grad_names(tape)]
    if tape.updates:
        out["updates"] = {n: {"before": encode_array(b), "grad": encode_array(g),
                              "after": encode_array(a)} for n, (b, g, a) in tape.updates.items()}
    return out


def _json_numbers(tape: Tape) -> int:
    """Numbers tape_to_dict would write, counted before any list is built."""
    steps = sum(s.value.size + sum(np.size(v) for v in s.extras.values()) for s in tape.steps)
    params = sum(tape.params[n].size for n in used_params(tape))  # as params_kept counts them
    return steps + (params if params <= PARAMS_LIMIT else 0) + sum(
        g.size for g in tape.grads.values()) + sum(3 * u[0].size for u in tape.updates.values())


def _grad_names(tape: Tape) -> list[str]:
    """Steps in reverse order, then per-head views, then parameters (in the model's order)."""
    names = list(tape.grad_order)
    names += [s.name for s in tape.steps if s.view and s.name in tape.grads]
    names += [n for n in tape.params if n in tape.grads]
    if not tape.params:  # a reloaded tape too large to carry its parameters
        listed = set(names) | {s.name for s in tape.steps}
        names += [n for n in tape.grads if n not in listed]
    return names


def _step_dict(step: Step) -> dict:
    d = {"name": step.name, "op": step.op, "formula": step.formula, "inputs": list(step.inputs),
         "shape": list(step.shape), "value": encode_array(step.value)}
    if step.symbols:
        d["symbols"] = step.symbols
    if step.view:
        d["view"] = True
    if step.extras:
        d["extras"] = {k: encode_array(v) for k, v in step.extras.items()}
    return d


def render(tape: Tape, options=None) -> str:
    """The renderer contract (render/registry.py): the tape itself, handformer.tape/1."""
    return dumps(tape)


def dumps(tape: Tape) -> str:
    text = json.dumps(tape_to_dict(tape), ensure_ascii=False, separators=(",", ":"))
    return json_escaped(text) + "\n"


def loads(text: str) -> Tape:
    """A tape read back from JSON: steps, values, params, gradients; nothing recomputed."""
    try:
        data = json_loads(normalized(text), "the tape", TapeFormatError)
    except json.JSONDecodeError as err:
        raise TapeFormatError(f"not a JSON tape: {err}") from None
    except RecursionError:
        raise TapeFormatError("not a handformer tape: nested too deeply") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise TapeFormatError(f"not a handformer tape (expected \"format\": \"{FORMAT}\")")
    try:
        check_tape(data)
    except SchemaError as err:
        raise TapeFormatError(f"a damaged handformer tape: {err}") from None
    try:
        return _tape_from_dict(data)
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise TapeFormatError(f"a damaged handformer tape ({type(err).__name__}: {err})") from None


def _tape_from_dict(data: dict) -> Tape:
    registry.load_all()  # every family's ops, so a loaded step's formula is found
    params = {n: decode_array(v) for n, v in data.get("params", {}).items()}
    tape = Tape(params)
    for key in data:
        if key not in ("format", "steps", "params", "grads", "updates"):
            tape.meta[key] = data[key]
    for s in data["steps"]:
        check_symbols(s["name"], s["op"], s.get("symbols", {}))  # LaTeX every page shows
        tape._append(Step(s["name"], s["op"], tuple(s["inputs"]), decode_array(s["value"]),
                          symbols=s.get("symbols", {}), view=s.get("view", False),
                          extras={k: decode_array(v) for k, v in s.get("extras", {}).items()}))
    tape.grads = {g["name"]: decode_array(g["value"]) for g in data.get("grads", [])}
    views = {s.name for s in tape.steps if s.view}
    tape.grad_order = [g["name"] for g in data.get("grads", [])
                       if g["name"] in tape.index and g["name"] not in views]
    tape.updates = {n: (decode_array(u["before"]), decode_array(u["grad"]),
                        decode_array(u["after"])) for n, u in data.get("updates", {}).items()}
    return tape
