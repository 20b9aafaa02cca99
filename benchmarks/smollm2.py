"""SmolLM2-135M by hand: loading and dequantizing its GGUF file (time and peak memory, float32
and float64, each in a fresh process), a walk of 10 tokens with every step recorded, and 20
tokens generated greedily with the key/value cache against a full recomputation per token in
the same run (alternating, medians, the ratio printed). Needs the smollm2 extra.

    .venv/bin/python benchmarks/smollm2.py --repeats 3 --threads 1
    .venv/bin/python benchmarks/smollm2.py --quick    # float32 only, 4 tokens: does it run?
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

WALK_TEXT = "when you play the game of thrones you win"  # 10 tokens
PROMPT = "The capital of France is"


def load_once(dtype: str) -> dict:
    """In this (fresh) process: the file read and dequantized; seconds and peak memory."""
    from handformer.families.gpt.gguf_model import load

    start = time.perf_counter()
    model = load(dtype=dtype)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return {"dtype": dtype, "seconds": seconds, "peak": peak, "params": len(model.params)}


def load_in_a_fresh_process(dtype: str) -> dict:
    done = subprocess.run([sys.executable, __file__, "--load-only", dtype], capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def greedy_cached(model, ids: list[int], n: int) -> list[int]:
    """The prompt's pass, then one cached step per token (generation.py's own functions)."""
    import numpy as np

    from handformer.engine.tape import Tape
    from handformer.families.gpt.generation import Cache, cached_step
    from handformer.families.gpt.model import forward

    tape = Tape(model.params)
    forward(tape, model.config, ids)
    cache, out = Cache(tape, model.config), [int(np.argmax(tape["generator.logits"][-1]))]
    while len(out) < n:
        step = cached_step(model, cache, out[-1], cache.length)
        out.append(int(np.argmax(step["generator.logits"][-1])))
    return out


def greedy_recomputed(model, ids: list[int], n: int) -> list[int]:
    """Every token from a full pass over the whole sequence so far, no cache."""
    import numpy as np

    from handformer.engine.tape import Tape
    from handformer.families.gpt.model import forward

    out: list[int] = []
    while len(out) < n:
        tape = Tape(model.params, record=False)
        forward(tape, model.config, ids + out)
        out.append(int(np.argmax(tape["generator.logits"][-1])))
    return out


def timed(fn, *args):
    start = time.perf_counter()
    result = fn(*args)
    return time.perf_counter() - start, result


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--tokens", type=int, default=20, help="tokens generated")
    p.add_argument("--quick", action="store_true",
                   help="float32 only, one repeat of 4 tokens: checks that the script runs")
    p.add_argument("--load-only", choices=["float32", "float64"], help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.load_only:
        print(json.dumps(load_once(a.load_only)))
        return {}
    if a.quick:
        a.repeats, a.tokens = 1, 4
    import numpy  # noqa: F401  (loads the BLAS threadpool_info names)
    from threadpoolctl import threadpool_info, threadpool_limits

    threadpool_limits(a.threads)
    from machine import machine_line

    print(f"{machine_line()}  load {open('/proc/loadavg').read().split()[:3]}  threads "
          f"{a.threads}  BLAS {[(i['internal_api'], i.get('architecture')) for i in threadpool_info()]}")
    rows = {"load": [load_in_a_fresh_process(d) for d in
                     (("float32",) if a.quick else ("float32", "float64"))]}
    for r in rows["load"]:
        print(f"load {r['dtype']}: {r['seconds']:.2f} s  peak {r['peak'] / 2**20:,.0f} MiB  "
              f"({r['params']} tensors, dequantized once)")
    rows |= walk_and_generate(a)
    return rows


def walk_and_generate(a) -> dict:
    from handformer.families.gpt import pretrained

    model = pretrained.prepare({"pretrained": "smollm2-135m", "dtype": "float32"})
    walk_ids = model.vocab.encode(WALK_TEXT)
    walks = [timed(pretrained.walk, model, {"src": WALK_TEXT})[0] for _ in range(a.repeats)]
    print(f"walk: {len(walk_ids)} tokens  {statistics.median(walks):.2f} s  (every step "
          f"recorded, float32, median of {a.repeats})")
    ids = model.vocab.encode(PROMPT)
    times, results = {True: [], False: []}, {}
    for _ in range(a.repeats):
        for cached in (False, True):
            seconds, results[cached] = timed(greedy_cached if cached else greedy_recomputed,
                                             model, ids, a.tokens)
            times[cached].append(seconds)
    full, fast = (statistics.median(times[c]) for c in (False, True))
    same = results[True] == results[False]
    print(f"generate: {a.tokens} tokens  recompute {full:.2f} s  cache {fast:.2f} s  "
          f"speed-up {full / fast:.2f}×  same tokens {same}  load {os.getloadavg()[0]:.2f}")
    return {"walk": statistics.median(walks), "recompute": full, "cache": fast, "same": same}


if __name__ == "__main__":
    main()
