"""Keep freed memory in the process while training (glibc only; a no-op elsewhere).

A training step allocates and frees the same large temporaries every time. By default glibc
serves blocks above 128 KiB with mmap and returns them to the OS on free, so the next step
faults every page back in: thousands of page faults per step and up to 2× slower at the
paper's base size. Raising the mmap and trim thresholds keeps the blocks in the process.
"""

from __future__ import annotations

import ctypes

M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
THRESHOLD = 1 << 30  # 1 GiB


def keep_freed_memory() -> bool:
    """mallopt(M_MMAP_THRESHOLD and M_TRIM_THRESHOLD, 1 GiB); True if glibc accepted it.

    The C library is the one this process already runs (dlopen of NULL): finding it by name
    (ctypes.util.find_library) would start /sbin/ldconfig at every training run."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError, TypeError):
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, THRESHOLD)) and bool(mallopt(M_TRIM_THRESHOLD,
                                                                       THRESHOLD))
