"""The tape: every step of the forward pass by name, and the reverse pass over the same steps."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .ops import OPS, get

INPUT = "input"  # the op of a value no step computed (ids, targets): it has no formula


class Step:
    """One named value: the operation that made it, from which named inputs, and its formula.

    A plain class with slots, not a dataclass: a dataclass compiles its methods from source
    text at import, ~3M instructions each on every start-up, and a step's value is an array,
    which no generated ``==`` could compare anyway."""

    __slots__ = ("name", "op", "inputs", "value", "attrs", "symbols", "extras", "args", "cache",
                 "view")

    def __init__(self, name: str, op: str, inputs: tuple[str, ...], value: np.ndarray,
                 attrs: dict | None = None, symbols: dict | None = None,
                 extras: dict | None = None, args: tuple = (), cache: object = None,
                 view: bool = False):
        self.name, self.op, self.inputs, self.value = name, op, inputs, value
        self.attrs = {} if attrs is None else attrs
        self.symbols = {} if symbols is None else symbols
        self.extras = {} if extras is None else extras
        self.args, self.cache = args, cache
        self.view = view  # a slice kept for showing (one head); the reverse pass skips it

    def __repr__(self) -> str:
        return f"Step({self.name!r}, {self.op!r}, {self.inputs!r}, shape {self.shape})"

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.value.shape)

    @property
    def formula(self) -> str:
        return "" if self.op == INPUT else get(self.op).latex(self.symbols)

    @property
    def grad_formula(self) -> str:
        return "" if self.op == INPUT else get(self.op).latex(self.symbols, grad=True)


class Tape:
    """Steps in the order they were computed, looked up by name.

    ``record=False`` is the fast path: it keeps what the reverse pass needs and skips what is
    only for showing (per-head slices, the tutorial's variants of a step). ``fused`` (training's
    tape, never recording) goes further: each sublayer is one step (``ops/fused.py``), so only
    the ids, the logits, the loss and the parameters' gradients keep their names.
    """

    def __init__(self, params: dict[str, np.ndarray] | None = None, record: bool = True,
                 dropout_rng: np.random.Generator | None = None, fused: bool = False):
        if fused and record:
            raise ValueError("a fused tape cannot record: it has no step per formula to show")
        self.params = params if params is not None else {}
        self.record, self.fused = record, fused
        self.dropout_rng = dropout_rng  # set only while training: dropout is off otherwise
        self.steps: list[Step] = []
        self.index: dict[str, Step] = {}
        self.meta: dict = {}
        self.grads: dict[str, np.ndarray] = {}
        self.grad_order: list[str] = []
        self.updates: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

    # --- forward ----------------------------------------------------------------------------

    def constant(self, name: str, value, op: str = INPUT, symbols: dict | None = None) -> str:
        """Put a value that no step computed (ids, a target) on the tape."""
        step = Step(name, op, (), np.asarray(value), symbols=symbols or {})
        return self._append(step)

    def run(self, name: str, op: str, inputs, attrs=None, symbols=None, extras=None,
            view: bool = False) -> str:
        """Compute ``op`` on the named inputs, record the result as step ``name``, return name.

        Called some fifty times a training step, so it appends the step itself, without a
        helper call, and checks the name before computing anything."""
        index = self.index
        if name in index:
            raise ValueError(f"step {name!r} is already on the tape")
        inputs = tuple(inputs)
        try:
            args = tuple([index[i].value if i in index else self.params[i] for i in inputs])
        except KeyError as err:
            raise KeyError(f"{err.args[0]!r} is neither a step on the tape nor a parameter") from None
        if attrs is None:
            attrs = {}
        out, cache = (OPS.get(op) or get(op)).forward(*args, **attrs)
        step = Step(name, op, inputs, out, attrs, symbols or {}, extras or {}, args, cache, view)
        self.steps.append(step)
        index[name] = step
        return name

    def _append(self, step: Step) -> str:
        if step.name in self.index:
            raise ValueError(f"step {step.name!r} is already on the tape")
        self.steps.append(step)
        self.index[step.name] = step
        return step.name

    def value(self, name: str) -> np.ndarray:
        step = self.index.get(name)
        if step is not None:
            return step.value
        try:
            return self.params[name]
        except KeyError:
            raise KeyError(f"{name!r} is neither a step on the tape nor a parameter") from None

    def __getitem__(self, name: str) -> np.ndarray:
        return self.value(name)

    def __contains__(self, name: str) -> bool:
        return name in self.index or name in self.params

    def names(self) -> list[str]:
        return [s.name for s in self.steps]

    def keep(self, wanted: Callable[[str], bool]) -> None:
        """Drop every step whose name ``wanted`` refuses (an elided walk keeps what it shows);
        the index follows the steps."""
        self.steps = [step for step in self.steps if wanted(step.name)]
        self.index = {step.name: step for step in self.steps}

    # What draws a tape in Jupyter: set by the HTML renderer when it is imported (the engine
    # sits below the renderers and never imports them); None: Jupyter shows the plain repr.
    html_hook: Callable[[Tape], str] | None = None

    def _repr_html_(self) -> str | None:
        """In Jupyter a tape shows itself as the walkthrough's panels (``html_hook``)."""
        hook = type(self).html_hook
        return None if hook is None else hook(self)

    # --- reverse pass -----------------------------------------------------------------------

    def backward(self, loss: str = "loss") -> dict[str, np.ndarray]:
        """∂loss/∂(every step and parameter), by the chain rule, in reverse order of the steps.

        Fills ``self.grads`` (by the same names) and ``self.grad_order`` (the order the
        gradients were completed: the reverse of the forward steps).
        """
        grads = {loss: np.ones_like(self.value(loss))}
        order = []
        summed = set()  # names whose gradient is a sum this pass allocated: added to in place
        for step in reversed(self.steps):
            g = grads.get(step.name)
            if g is None or step.view or not step.inputs:
                continue
            order.append(step.name)
            input_grads = OPS[step.op].backward(g, step.value, step.args, step.cache, step.attrs)
            for name, grad in zip(step.inputs, input_grads, strict=True):
                if grad is None:
                    continue
                total = grads.get(name)
                if total is None:
                    grads[name] = grad  # may be another step's array (add passes g on): not ours
                elif name in summed and _same_layout(total, grad):
                    total += grad
                else:
                    grads[name] = total + grad
                    summed.add(name)
        if self.record:
            self._grads_of_views(grads)
        self.grads, self.grad_order = grads, order
        return grads

    def _grads_of_views(self, grads: dict[str, np.ndarray]) -> None:
        for step in self.steps:
            if step.view and step.inputs[0] in grads:
                out, _ = OPS[step.op].forward(grads[step.inputs[0]], **step.attrs)
                grads[step.name] = out


def _same_layout(total: np.ndarray, grad) -> bool:
    """grad can be added into total in place: same shape and dtype (no broadcast, no cast)."""
    return total.shape == np.shape(grad) and total.dtype == getattr(grad, "dtype", None)
