"""A small model's initial weights, kept between runs so that a walk need not draw them again.

Drawing a tutorial-sized model's weights takes microseconds, but importing numpy.random (its
bit generators, and ``secrets`` with hashlib and OpenSSL) costs about 15 ms, a tenth of a whole
walk. The weights depend only on the shapes, the seed, the dtype, the kind of initialisation,
the code that draws them and numpy's generator, so a model of at most ``LIMIT`` numbers keeps
them in the user's cache folder (``$XDG_CACHE_HOME/handformer`` or ``~/.cache/handformer``). A
file starts with its key, all of those written out (the drawing code by a checksum of its
bytecode, numpy's version, the byte order), then holds the numbers as
raw bytes in the order of the shapes; it is used only if that line is the key asked for and the
length is right. ``SLOTS`` files at most: a key is kept in the slot its checksum picks, so
another key in that slot replaces it and the weights are drawn again, never mixed up.
Only a file the user owns and nobody else may write is read; a file or folder that cannot be
read or written is skipped, never an error.
"""

from __future__ import annotations

import marshal
import math
import sys
import zlib

import numpy as np

from ..files import user_cache

LIMIT = 1 << 16  # numbers kept at most (512 KB of float64): the tutorial has a few hundred
SLOTS = 16


def kept_here(shapes: dict, seed) -> bool:
    """Whether these weights are kept: a small model with a fixed seed (no seed: fresh
    randomness each run, never to be repeated)."""
    return isinstance(seed, int) and sum(math.prod(shape) for shape, _ in shapes.values()) <= LIMIT


def key(draw, shapes: dict, seed: int, dtype: str, uniform: bool) -> str:
    """Everything the numbers ``draw`` draws depend on, in one line (its code by a checksum:
    changing how weights are drawn starts new files)."""
    fields = ",".join(f"{name}:{'x'.join(map(str, shape))}:{kind}"
                      for name, (shape, kind) in shapes.items())
    code = zlib.crc32(marshal.dumps(draw.__code__))
    return (f"handformer initial weights 1; {draw.__qualname__} {code:08x}; numpy {np.__version__} "
            f"default_rng; {sys.byteorder}; seed {seed!r}; {np.dtype(dtype).str}; "
            f"uniform {uniform}; {fields}")


def lookup(draw, shapes: dict, seed: int, dtype: str, uniform: bool) -> dict | None:
    """The weights ``draw`` drew for these shapes and settings, kept by an earlier run (fresh,
    writable arrays), or None."""
    if not kept_here(shapes, seed):
        return None
    name = key(draw, shapes, seed, dtype, uniform)
    data = _read(_path(name), name)
    kind, sizes = np.dtype(dtype), [math.prod(shape) for shape, _ in shapes.values()]
    if data is None or len(data) != sum(sizes) * kind.itemsize:
        return None
    params, at = {}, 0
    for (name, (shape, _)), size in zip(shapes.items(), sizes, strict=True):
        params[name] = np.frombuffer(data, kind, size, at).reshape(shape).copy()
        at += size * kind.itemsize
    return params


def keep(draw, shapes: dict, seed: int, dtype: str, uniform: bool, params: dict) -> None:
    """Write the weights for the next run, if the model is small enough (whole or not at all)."""
    if not kept_here(shapes, seed):
        return
    name = key(draw, shapes, seed, dtype, uniform)
    numbers = [np.ascontiguousarray(value, dtype=dtype).tobytes() for value in params.values()]
    user_cache.write(_path(name), b"".join([name.encode() + b"\n", *numbers]))


def _path(name: str) -> str:
    return user_cache.path(f"weights-{zlib.crc32(name.encode()) % SLOTS}.bin")


def _read(path: str, name: str) -> bytes | None:
    """The file's numbers if its first line is ``name`` (and the user alone may write it)."""
    head, _, data = (user_cache.read(path) or b"").partition(b"\n")
    return data if head == name.encode() else None
