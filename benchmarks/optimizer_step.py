"""One optimizer update (SGD, Adam) of a model's parameters: handformer's flat update, its update
array by array, and torch.optim, side by side.

A small model's parameters are views into one flat array (train/flat.py), so each formula of the
update is one NumPy call over all of them; above the flat limit (16,384 numbers) the update goes
array by array. This script times both ways on the same parameters and gradients, and
torch.optim on copies of them, in alternating blocks (A B C A B C …, each after a 0.3 s sleep).
Printed: the median time per update of each, and the ratios flat / per array and flat / torch.
Each side updates its own copy of the parameters; the rate is small enough that thousands of
updates leave them finite.

    .venv/bin/python benchmarks/optimizer_step.py            # tutorial and small, float64
    .venv/bin/python benchmarks/optimizer_step.py --dtype float32
    .venv/bin/python benchmarks/optimizer_step.py --quick    # one short block: does it run?
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from handformer.families.transformer.config import preset
from handformer.families.transformer.model import init_params
from handformer.train import flat
from handformer.train.optim import SGD, Adam

LR = 1e-6
# name, preset, overrides, vocabulary (train_step.py's tutorial and small)
CONFIGS = [
    ("tutorial", "tutorial", {}, 25),
    ("small", "small", dict(d_model=64, heads=4, d_ff=256, layers=2), 1000),
]


def ours(kind: str, params: dict, flat_limit: int, lr: float = LR):
    """An optimizer on a copy of params, made with the given flat limit (0: array by array)."""
    saved, flat.FLAT_LIMIT = flat.FLAT_LIMIT, flat_limit
    try:
        copy = {k: v.copy() for k, v in params.items()}
        return SGD(copy, lr) if kind == "sgd" else Adam(copy, lr)
    finally:
        flat.FLAT_LIMIT = saved


def theirs(kind: str, params: dict, grads: dict, lr: float = LR):
    """torch.optim's optimizer on copies of params, each tensor's .grad set to grads'."""
    import torch

    tensors = [torch.tensor(v, requires_grad=True) for v in params.values()]
    for t, g in zip(tensors, grads.values(), strict=True):
        t.grad = torch.tensor(g)
    if kind == "sgd":
        return torch.optim.SGD(tensors, lr=lr)
    return torch.optim.Adam(tensors, lr=lr, betas=(0.9, 0.98), eps=1e-9)


def time_block(update, k: int) -> float:
    time.sleep(0.3)
    start = time.perf_counter()
    for _ in range(k):
        update()
    return (time.perf_counter() - start) / k


def measure(params: dict, kind: str, blocks: int, budget: float = 0.2) -> dict:
    grads = {k: np.random.default_rng(1).normal(size=v.shape).astype(v.dtype)
             for k, v in params.items()}
    flat_opt, per_array = ours(kind, params, flat.FLAT_LIMIT), ours(kind, params, 0)
    sides = {"flat": lambda: flat_opt.step(grads), "per array": lambda: per_array.step(grads),
             "torch": theirs(kind, params, grads).step}
    start = time.perf_counter()
    for update in sides.values():
        update()
    k = max(5, min(2000, int(budget / max(time.perf_counter() - start, 1e-6))))
    times = {name: [] for name in sides}
    for _ in range(blocks):
        for name, update in sides.items():
            times[name].append(time_block(update, k))
    return {name: statistics.median(t) for name, t in times.items()} | {
        "is_flat": flat_opt.flat is not None}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dtype", choices=["float64", "float32"], default="float64")
    parser.add_argument("--threads", type=int, default=None,
                        help="torch's threads  [default: 2; 1 with --quick]")
    parser.add_argument("--blocks", type=int, default=7)
    parser.add_argument("--quick", action="store_true",
                        help="one block of about 0.02 s a side, 1 thread: checks that the "
                             "script runs, measures little")
    args = parser.parse_args(argv)
    budget = 0.2  # seconds of updates per block and side
    if args.quick:
        args.blocks, budget = 1, 0.02
    if args.threads is None:  # one is steadier on a busy machine, where a test runs --quick
        args.threads = 1 if args.quick else 2
    import torch

    torch.set_num_threads(args.threads)
    print(f"numpy {np.__version__}, torch {torch.__version__} ({args.threads} threads), "
          f"{args.dtype}, flat limit {flat.FLAT_LIMIT:,} numbers, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'config':9} {'numbers':>9} {'arrays':>6} {'optim':5} {'flat':>10} "
          f"{'per array':>10} {'torch':>10} {'flat/per array':>15} {'flat/torch':>11}")
    for name, preset_name, overrides, vocab in CONFIGS:
        params = init_params(preset(preset_name, **overrides), vocab, args.dtype)
        size = sum(v.size for v in params.values())
        for kind in ("sgd", "adam"):
            r = measure(params, kind, args.blocks, budget)
            note = "" if r["is_flat"] else "  (above the flat limit: both columns per array)"
            print(f"{name:9} {size:9,d} {len(params):6d} {kind:5} {r['flat'] * 1e6:8.1f}us "
                  f"{r['per array'] * 1e6:8.1f}us {r['torch'] * 1e6:8.1f}us "
                  f"{r['flat'] / r['per array']:15.2f} {r['flat'] / r['torch']:11.2f}{note}",
                  flush=True)
    print(f"load average at the end {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
