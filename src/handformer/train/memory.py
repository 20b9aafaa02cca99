"""Keep freed memory in the process while training (glibc only; a no-op elsewhere).

A training step allocates and frees the same large temporaries every time. By default glibc
serves blocks above 128 KiB with mmap and returns them to the OS on free, so the next step
faults every page back in: thousands of page faults per step and up to 2× slower at the
paper's base size. Raising the mmap and trim thresholds keeps the blocks in the process.

A server is the other way round: its threads (training jobs, walks) share one memory budget, and
glibc's own default raises the mmap threshold to each freed block's size (up to 32 MiB), so
every thread's arena keeps its largest freed arrays and the process holds the sum of every
thread's peak. Fixing both thresholds at 128 KiB gives each freed array back at once.
"""

from __future__ import annotations

import ctypes

M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
THRESHOLD = 1 << 30  # 1 GiB
GIVE_BACK = 128 * 1024  # glibc's default, fixed (no longer raised by each free)


def keep_freed_memory() -> bool:
    """mallopt(M_MMAP_THRESHOLD and M_TRIM_THRESHOLD, 1 GiB); True if glibc accepted it."""
    return _thresholds(THRESHOLD)


def give_back_freed_memory() -> bool:
    """mallopt(M_MMAP_THRESHOLD and M_TRIM_THRESHOLD, 128 KiB) for a server; True if glibc
    accepted it."""
    return _thresholds(GIVE_BACK)


def _thresholds(size: int) -> bool:
    """The C library is the one this process already runs (dlopen of NULL): finding it by
    name (ctypes.util.find_library) would start /sbin/ldconfig at every training run."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError, TypeError):
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, size)) and bool(mallopt(M_TRIM_THRESHOLD, size))
