"""One training step (forward, backward, SGD update): handformer's NumPy engine vs torch eager.

Both sides run in this one process on the same weights and batch, in alternating timed blocks
(A B A B …), each block after a 0.3 s sleep so the other library's idle BLAS/OpenMP threads
stop spinning. Reported: the median time per step of each side, their ratio
(handformer / torch; below 1 means handformer is faster) and minor page faults per step; then,
per side, the time in matrix products vs the rest, and the machine's GEMM ratio numpy / torch for
the products the step makes (benchmarks/step_profile.py). The top lines name each side's BLAS
and kernel.

    .venv/bin/python benchmarks/train_step.py            # every config, float64 and float32
    .venv/bin/python benchmarks/train_step.py --quick    # tutorial and small, float64, 1 thread
    .venv/bin/python benchmarks/train_step.py --threads 1  # one thread each side

torch cannot express the tutorial preset (d_k 4 with d_model 6, 1 encoder head, 2 decoder
heads, single-linear FFN, no attention biases): there a functional torch mirror of the same
ops stands in for nn.Transformer.
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import machine_line  # noqa: E402
from step_profile import gemm_ratio, handformer_products, torch_matmul_share  # noqa: E402
from torch_mirror import TorchStep  # noqa: E402

from handformer.engine.tape import Tape  # noqa: E402
from handformer.families.transformer.config import preset  # noqa: E402
from handformer.families.transformer.model import forward, init_params  # noqa: E402
from handformer.train.memory import keep_freed_memory  # noqa: E402
from handformer.train.optim import SGD  # noqa: E402

LR = 1e-3
# name, preset overrides, batch, length, vocabulary
CONFIGS = [
    ("tutorial", "tutorial", {}, 1, 7, 25),
    ("small", "small", dict(d_model=64, heads=4, d_ff=256, layers=2), 16, 16, 1000),
    ("base", "small", dict(d_model=512, heads=8, d_ff=2048, layers=2), 16, 32, 4000),
]
# issue 24's targets (ratio handformer / torch); base's is the machine's GEMM ratio + 0.05
TARGETS = {"tutorial": 0.30, "small": 0.85}
BASE_MARGIN = 0.05


def target_of(row) -> float:
    return TARGETS.get(row["config"], row["gemm_ratio"] + BASE_MARGIN)


def batch(b: int, n: int, vocab: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    src = rng.integers(0, vocab, (b, n))
    tgt = rng.integers(0, vocab, (b, n))
    out = rng.integers(0, vocab, (b, n))
    if b == 1:  # the tutorial's one sentence, unbatched as `walk` runs it
        src, tgt, out = src[0], tgt[0], out[0]
    return src, tgt, out


class HandformerStep:
    """Tape (fused fast path) → loss → reverse pass → θ ← θ − η g in place (train/optim.py's SGD)."""

    def __init__(self, cfg, params, data):
        self.cfg, self.params = cfg, params
        self.src, self.tgt, self.out = data
        self.weights = np.ones(self.out.shape, dtype=next(iter(params.values())).dtype)
        self.optimizer = SGD(params, LR, momentum=0.0)  # the library's, as torch.optim.SGD

    def __call__(self) -> float:
        tape = Tape(self.params, record=False, fused=True)
        logits = forward(tape, self.cfg, self.src, self.tgt, probs=False)  # as train/loss.py
        tape.run("loss", "cross_entropy", [logits],
                 {"targets": self.out, "weights": self.weights, "smoothing": 0.0})
        self.optimizer.step(tape.backward("loss"))
        return float(tape["loss"])


def time_block(step, k: int) -> tuple[float, float]:
    time.sleep(0.3)
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    start = time.perf_counter()
    for _ in range(k):
        step()
    elapsed = (time.perf_counter() - start) / k
    return elapsed, (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults) / k


def measure(name, preset_name, overrides, b, n, vocab, dtype, blocks, budget,
            gemm_blocks=3, gemm_budget=0.02):
    cfg = preset(preset_name, **overrides)
    params = init_params(cfg, vocab, dtype)
    data = batch(b, n, vocab)
    ours = HandformerStep(cfg, {k: v.copy() for k, v in params.items()}, data)
    theirs = TorchStep(cfg, params, data, dtype, LR)
    first_ours, first_theirs = ours(), theirs()
    assert math.isclose(first_ours, first_theirs, rel_tol=1e-4), (first_ours, first_theirs)
    start = time.perf_counter()
    ours(), theirs()
    k = max(1, min(200, int(budget / blocks / max(time.perf_counter() - start, 1e-6))))
    results = {"ours": [], "torch": [], "faults_ours": [], "faults_torch": []}
    for _ in range(blocks):
        for side, step in (("ours", ours), ("torch", theirs)):
            t, f = time_block(step, k)
            results[side].append(t)
            results[f"faults_{side}"].append(f)
    med = {key: statistics.median(v) for key, v in results.items()}
    # each block's ratio against the torch block timed right after it: their range is the
    # run's own noise, beside the ratio of medians the verdict reads
    paired = [o / t for o, t in zip(results["ours"], results["torch"], strict=True)]
    products = handformer_products(ours, steps=min(k, 5))
    return {"config": name, "dtype": dtype, "steps": k * blocks, "ours": med["ours"],
            "torch": med["torch"], "ratio": med["ours"] / med["torch"],
            "ratio_low": min(paired), "ratio_high": max(paired),
            "faults_ours": med["faults_ours"], "faults_torch": med["faults_torch"],
            "mirror": theirs.mirror, "matmul_ours": products.share * med["ours"],
            "matmul_torch": torch_matmul_share(theirs, steps=min(k, 5)) * med["torch"],
            "gemm_ratio": gemm_ratio(products.shapes, gemm_blocks, gemm_budget)}


def print_environment(torch) -> None:
    from threadpoolctl import threadpool_info

    print(machine_line())
    print(f"numpy {np.__version__}, torch {torch.__version__}, torch threads "
          f"{torch.get_num_threads()}, python {sys.version.split()[0]}")
    for lib in threadpool_info():
        print(f"  {lib['user_api']:7} {lib['internal_api']:9} {lib.get('version')}  threads "
              f"{lib['num_threads']}  kernel {lib.get('architecture', '-')}  "
              f"{Path(lib['filepath']).name}")
    print(f"torch config: BLAS {_torch_blas(torch)}, CPU kernels "
          f"{torch.backends.cpu.get_cpu_capability()}, {_torch_line(torch, 'Math Kernel')}")


def _torch_blas(torch) -> str:
    config = torch.__config__.show()
    for line in config.splitlines():
        if "BLAS_INFO" in line:
            return line.split("BLAS_INFO=")[1].split(",")[0]
    return "?"


def _torch_line(torch, text: str) -> str:
    found = [line.strip() for line in torch.__config__.show().splitlines() if text in line]
    return found[0] if found else f"({text}: not in torch's build config)"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="2 short blocks (and one short block of each GEMM shape), of "
                             "tutorial and small in float64 unless --only or --dtype says "
                             "otherwise, 1 thread unless --threads does: checks that the "
                             "script runs (the torch mirror and nn.Transformer), measures little")
    parser.add_argument("--only", choices=[c[0] for c in CONFIGS], action="append")
    parser.add_argument("--dtype", choices=["float64", "float32"], action="append")
    parser.add_argument("--threads", type=int, default=None,
                        help="threads of each side (BLAS and torch); 1 is steadier on a busy "
                             "machine  [default: 2; 1 with --quick]")
    args = parser.parse_args(argv)
    if args.threads is None:
        args.threads = 1 if args.quick else 2
    import torch
    from threadpoolctl import threadpool_limits

    torch.set_num_threads(args.threads)
    threadpool_limits(args.threads)
    print_environment(torch)
    # As `handformer train` does (train/memory.py); it applies to torch's allocations too.
    print(f"glibc mallopt mmap/trim thresholds 1 GiB: {keep_freed_memory()}")
    print(f"load average at the start {_load()}", flush=True)
    blocks, budget = (2, 0.2) if args.quick else (7, 3.0)
    gemm = (1, 0.005) if args.quick else (3, 0.02)  # blocks, seconds a shape per block
    only = args.only or (["tutorial", "small"] if args.quick else None)
    dtypes = args.dtype or (["float64"] if args.quick else ["float64", "float32"])
    rows = []
    for name, preset_name, overrides, b, n, vocab in CONFIGS:
        if only and name not in only:
            continue
        for dtype in dtypes:
            row = measure(name, preset_name, overrides, b, n, vocab, dtype, blocks, budget,
                          *gemm)
            rows.append(row)
            print(f"  measured {name} {dtype}: ratio {row['ratio']:.2f}", flush=True)
    print_table(rows)
    print(f"load average at the end {_load()}")
    return 0


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def print_table(rows) -> None:
    print()
    print(f"{'config':9} {'dtype':8} {'steps':>5} {'handformer':>11} {'torch':>11} "
          f"{'ratio':>6} {'blocks':>9} {'target':>6}  {'faults/step':>17}  torch side")
    for r in rows:
        target = target_of(r)
        ok = "ok" if r["ratio"] <= target else "over"
        print(f"{r['config']:9} {r['dtype']:8} {r['steps']:5d} {r['ours'] * 1e3:9.3f}ms "
              f"{r['torch'] * 1e3:9.3f}ms {r['ratio']:6.2f} "
              f"{r['ratio_low']:4.2f}–{r['ratio_high']:4.2f} {target:6.2f} "
              f"{ok:6} {r['faults_ours']:7.0f}/{r['faults_torch']:<7.0f}  "
              f"{'functional mirror' if r['mirror'] else 'nn.Transformer'}")
    print("ratio = handformer / torch per step (median of alternating blocks); blocks = the "
          "lowest and highest ratio of one block to the torch block after it (the run's noise); "
          "target = issue 24's: tutorial 0.30, small 0.85, base the GEMM ratio (below) + 0.05; "
          "faults = minor page faults per step (handformer/torch)")
    print_breakdown(rows)


def print_breakdown(rows) -> None:
    """Where each side's step goes: matrix products vs the rest (benchmarks/step_profile.py)."""
    print()
    print(f"{'config':9} {'dtype':8} {'handformer: matmul':>19} {'rest':>9}   "
          f"{'torch: matmul':>14} {'rest':>9}   {'GEMM numpy/torch':>16}")
    for r in rows:
        sides = []
        for side in ("ours", "torch"):
            mm = r[f"matmul_{side}"]
            sides.append(f"{mm * 1e3:9.3f}ms {mm / r[side]:4.0%} {(r[side] - mm) * 1e3:8.3f}ms")
        print(f"{r['config']:9} {r['dtype']:8} {sides[0]:>29}   {sides[1]:>24}   "
              f"{r['gemm_ratio']:16.2f}")
    print("matmul = the step median × the share of matrix products (handformer: products "
          "timed one by one over a few steps; torch: profiler self time of mm/addmm/bmm over "
          "that of every op); rest = step median − matmul; "
          "GEMM = the step's product shapes timed alone in each library, weighted by count")


if __name__ == "__main__":
    raise SystemExit(main())
