"""Small plain classes that behave as dataclasses do: a repr and ``==`` over their fields
(``FIELDS``, in order), ``replace``, and, when frozen, no assignment and a hash.

Each class writes its own ``__init__``. Not dataclasses: a dataclass compiles its methods from
source text when its module is imported, about a millisecond a class on every start-up of the
walk, which these methods, written once here, do not cost.
"""

from __future__ import annotations


class Record:
    """Fields that may change; equal when the fields are, so not hashable (as a dataclass)."""

    FIELDS: tuple[str, ...] = ()
    __hash__ = None

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in self.FIELDS)

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.FIELDS)
        return f"{type(self).__qualname__}({shown})"

    def replace(self, **changes):
        """A copy with some fields changed (``dataclasses.replace``)."""
        unknown = set(changes) - set(self.FIELDS)
        if unknown:
            raise TypeError(f"{type(self).__qualname__} has no field {sorted(unknown)[0]!r}")
        return type(self)(**{name: changes.get(name, getattr(self, name))
                             for name in self.FIELDS})


class Frozen(Record):
    """Fields set once, in ``__init__`` through ``_set``; hashable by their values."""

    def _set(self, **values) -> None:
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name, value):
        raise AttributeError(f"cannot assign to field {name!r}: a {type(self).__qualname__} "
                             "is frozen")

    def __delattr__(self, name):
        raise AttributeError(f"cannot delete field {name!r}: a {type(self).__qualname__} "
                             "is frozen")

    def __hash__(self) -> int:
        return hash(self._values())
