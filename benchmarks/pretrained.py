"""handformer's forward pass of all-MiniLM-L6-v2 against transformers' BertModel, as ratios.

    .venv/bin/python benchmarks/pretrained.py [--threads 2] [--blocks 15] [--calls 10]
    .venv/bin/python benchmarks/pretrained.py --quick    # one call a side: does it run?

One sentence, float32 on both sides, the same ids (tokenizing is not timed), up to the sentence
embedding (mean pooling and L2 normalization on both sides). torch runs in eval mode under
no_grad. Printed: median time per forward over alternating blocks (A B A B …, who goes first
alternates too, 0.3 s of rest before each block so idle BLAS threads do not steal a core),
and the ratios

    handformer (Tape(record=False)) / BertModel     target ≤ 2.0
    handformer record=True / record=False           the cost of keeping every step for showing

Page faults per forward are printed too (glibc returns large blocks to the OS and faults them
back; MALLOC_MMAP_THRESHOLD_ / MALLOC_TRIM_THRESHOLD_ are set for both sides unless
--default-malloc is given).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time

MALLOC = {"MALLOC_MMAP_THRESHOLD_": str(1 << 30), "MALLOC_TRIM_THRESHOLD_": str(1 << 30)}
SENTENCE = "when you play the game of thrones"


def parse() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", default="all-minilm-l6-v2")
    ap.add_argument("--src", default=SENTENCE)
    ap.add_argument("--threads", type=int, default=None, help="[default: 2; 1 with --quick]")
    ap.add_argument("--blocks", type=int, default=15, help="timed blocks per side")
    ap.add_argument("--calls", type=int, default=10, help="forward passes per block")
    ap.add_argument("--default-malloc", action="store_true",
                    help="keep glibc's default thresholds (more page faults)")
    ap.add_argument("--quick", action="store_true",
                    help="one warm-up call and one block of one call a side, 1 thread: "
                         "checks that the script runs, measures little")
    args = ap.parse_args()
    if args.quick:
        args.blocks, args.calls = 1, 1
    if args.threads is None:  # one is steadier on a busy machine, where a test runs --quick
        args.threads = 1 if args.quick else 2
    return args


def reexec_with_malloc_settings(args) -> None:
    """Allocator settings only take effect at process start: start again with them."""
    if args.default_malloc or all(os.environ.get(k) == v for k, v in MALLOC.items()):
        return
    os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, **MALLOC})


def sides(args):
    """The three forward passes to time, each a function of no arguments."""
    import numpy as np
    import torch
    from transformers import BertModel

    from handformer.engine.tape import Tape
    from handformer.families.bert import model as bert
    from handformer.families.bert.load import load

    model = load(args.model, dtype="float32")
    ids = np.asarray(model.tokenizer.encode(args.src).ids)
    reference = BertModel.from_pretrained(str(model.path)).float().eval()
    tids, mask = torch.tensor(ids)[None], torch.ones(1, len(ids), dtype=torch.long)

    def ours(record: bool):
        def run():
            return bert.forward(Tape(model.params, record=record), model.config, ids)
        return run

    def theirs():
        with torch.no_grad():
            h = reference(input_ids=tids, attention_mask=mask).last_hidden_state
            m = mask.unsqueeze(-1).float()
            return torch.nn.functional.normalize((h * m).sum(1) / m.sum(1), dim=-1)

    check = Tape(model.params, record=False)
    bert.forward(check, model.config, ids)
    gap = float(np.abs(check["pooling.normalized"] - theirs().numpy()[0]).max())
    return {"handformer": ours(False), "BertModel": theirs, "handformer record": ours(True)}, \
        len(ids), gap


def time_block(fn, calls: int) -> tuple[float, float]:
    """Seconds per call and minor page faults per call, over one block."""
    time.sleep(0.3)
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    seconds = (time.perf_counter() - start) / calls
    return seconds, (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults) / calls


def measure(fns: dict, blocks: int, calls: int,
            warmup: int = 3) -> dict[str, list[tuple[float, float]]]:
    names = list(fns)
    for fn in fns.values():  # warm-up: first calls allocate and load kernels
        for _ in range(warmup):
            fn()
    results = {n: [] for n in names}
    for b in range(blocks):
        order = names if b % 2 == 0 else names[::-1]
        for name in order:
            results[name].append(time_block(fns[name], calls))
    return results


def describe_environment(threads: int) -> None:
    import numpy as np
    import torch

    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, torch {torch.__version__}, "
          f"threads {threads}, malloc thresholds "
          f"{'set' if os.environ.get('MALLOC_MMAP_THRESHOLD_') else 'default'}")
    try:
        from threadpoolctl import threadpool_info

        for pool in threadpool_info():
            print(f"  {pool.get('internal_api')}: {pool.get('prefix')} "
                  f"{pool.get('version')} {pool.get('architecture', '')} "
                  f"threads={pool.get('num_threads')}")
    except ImportError:
        print("  (threadpoolctl not installed: BLAS details unknown)")
    info = torch.__config__.parallel_info().splitlines()
    blas = next((line for line in info if "Math Kernel Library" in line), "MKL not found")
    backend = next((line for line in info if "parallel backend" in line), "")
    print(f"  torch: {blas.split(' for ')[0]}; {backend}; threads={torch.get_num_threads()}")


def main() -> None:
    args = parse()
    reexec_with_malloc_settings(args)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import torch

    torch.set_num_threads(args.threads)
    try:
        from threadpoolctl import threadpool_limits

        threadpool_limits(args.threads)
    except ImportError:
        pass
    fns, n, gap = sides(args)
    describe_environment(args.threads)
    print(f"sentence: {args.src!r} ({n} tokens), float32; |handformer − BertModel| = {gap:.1e}")
    results = measure(fns, args.blocks, args.calls, warmup=1 if args.quick else 3)
    median = {k: statistics.median(s for s, _ in v) for k, v in results.items()}
    faults = {k: statistics.median(f for _, f in v) for k, v in results.items()}
    for name in fns:
        print(f"  {name:18s} {median[name] * 1e3:8.2f} ms per forward   "
              f"{faults[name]:8.0f} page faults")
    print(f"ratio handformer / BertModel           {median['handformer'] / median['BertModel']:.2f}"
          f"   (target ≤ 2.0)")
    print(f"ratio record=True / record=False       "
          f"{median['handformer record'] / median['handformer']:.2f}")


if __name__ == "__main__":
    main()
