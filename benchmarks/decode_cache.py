"""Decoding with and without the key/value cache: same tokens, how much faster.

A model of the README's translator's size (d_model 128, 4 heads, d_ff 512, 2 + 2 layers,
float64, random weights whose <end> is made unlikely so every sentence decodes to the length
limit) translates the same sentences greedily and with beam 4, once recomputing every prefix
and once with the cache; runs alternate (A B A B …) and the medians' ratio is printed with the
load average, the threads and the BLAS in use.

    .venv/bin/python benchmarks/decode_cache.py --repeats 5 --threads 1
    .venv/bin/python benchmarks/decode_cache.py --quick    # one repeat of 8 tokens: does it run?
"""

from __future__ import annotations

import argparse
import os
import statistics
import time


def main(argv=None) -> list[dict]:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--length", type=int, default=40, help="tokens decoded per sentence")
    p.add_argument("--quick", action="store_true",
                   help="one repeat of 8 tokens: checks that the script runs, measures little")
    a = p.parse_args(argv)
    if a.quick:
        a.repeats, a.length = 1, 8
    from threadpoolctl import threadpool_info, threadpool_limits

    threadpool_limits(a.threads)
    from handformer.families.transformer import decode
    from handformer.families.transformer.config import preset
    from handformer.families.transformer.model import init_params
    from handformer.text import END, PAD, START, UNK, Vocab

    cfg = preset("small").replace(d_model=128, heads=4, d_ff=512, layers=2, max_len=128)
    vocab = Vocab(tuple(f"w{i}" for i in range(1000)), (START, END, PAD, UNK))
    params = init_params(cfg, len(vocab))
    params["generator.b"][vocab.id(END)] = -30.0
    sentence = " ".join(f"w{i}" for i in range(3, 15))
    print(f"load {open('/proc/loadavg').read().split()[:3]}  threads {a.threads}  "
          f"BLAS {[(i['internal_api'], i.get('architecture')) for i in threadpool_info()]}")
    rows = []
    for beam in (1, 4):
        times = {True: [], False: []}
        results = {}
        for _ in range(a.repeats):
            for cache in (False, True):
                start = time.perf_counter()
                results[cache] = decode.translate(params, cfg, vocab, sentence, beam=beam,
                                                  max_length=a.length, cache=cache)
                times[cache].append(time.perf_counter() - start)
        same = results[True].ids == results[False].ids
        full, fast = (statistics.median(times[c]) for c in (False, True))
        print(f"beam {beam}: {a.length} tokens  recompute {full:.3f} s  cache {fast:.3f} s  "
              f"speed-up {full / fast:.2f}×  same tokens {same}  "
              f"|Δ score| {abs(results[True].score - results[False].score):.1e}  "
              f"load {os.getloadavg()[0]:.2f}")
        rows.append({"beam": beam, "recompute": full, "cache": fast, "same": same})
    return rows


if __name__ == "__main__":
    main()
