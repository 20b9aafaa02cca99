"""Four of the largest training jobs at once, with eight of the largest walks beside them: the
server's peak memory (VmHWM of its process) and how each job and walk ended.

    PYTHONPATH=src .venv/bin/python benchmarks/serve_train_memory.py [--epochs 2]
    PYTHONPATH=src .venv/bin/python benchmarks/serve_train_memory.py --quick  # 1 job, 1 walk

The server runs as its own process (`python -m handformer serve` on a free 127.0.0.1 port).
"Largest" for a job: a step priced just under the server's max_step_numbers (32,000,000):
16 pairs of 40 + 40 distinct words, the `small` preset at d_model 128, d_ff 512, 2 + 2 layers,
4 heads (1.42 million parameters) and batch_size 4096 (every pair in one batch); with
--pairs 120 and --d-model 64 --d-ff 64, the job of issue 45 (2 million parameters, a step of
290 million numbers), which is refused 422. A walk: the `small` preset, backward, two 48-word
sentences (just under the per-request limit). The check: the peak under 2 GB; every job done,
or refused 422 before it started; no raw MemoryError.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import threading
import time
import urllib.error
import urllib.request

from serve import free_port
from serve_hostile import UNDER, peak_mib, post, start


def job_body(args) -> dict:
    words = iter(range(10**6))
    line = lambda: " ".join(f"w{next(words)}" for _ in range(40))  # noqa: E731
    pairs = "\n".join(f"{line()}\t{line()}" for _ in range(args.pairs))
    config = {"d_model": args.d_model, "d_ff": args.d_ff, "layers": 2, "heads": 4}
    return {"preset": "small", "config": config, "pairs": pairs, "epochs": args.epochs,
            "batch_size": 4096}


def client():
    jar = http.cookiejar.CookieJar()
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))


def call(opener, port: int, method: str, path: str, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data,
                                     {"Content-Type": "application/json"}, method=method)
    try:
        with opener.open(request, timeout=300) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def train(port: int, body: dict, out: list) -> None:
    opener = client()
    status, job = call(opener, port, "POST", "/api/train", body)
    if status != 202:
        out.append((status, job.get("error")))
        return
    while job["state"] == "running":
        time.sleep(0.5)
        job = call(opener, port, "GET", f"/api/train/{job['id']}")[1]
    out.append((job["state"], job["error"]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=4)
    parser.add_argument("--walks", type=int, default=8)
    parser.add_argument("--pairs", type=int, default=16)
    parser.add_argument("--d-model", type=int, default=128)
    parser.add_argument("--d-ff", type=int, default=512)
    parser.add_argument("--quick", action="store_true",
                        help="one job of one epoch on 4 pairs and one walk: checks that the "
                             "script runs, measures little")
    args = parser.parse_args()
    if args.quick:
        args.jobs, args.walks, args.epochs, args.pairs = 1, 1, 1, 4
    port = free_port()
    proc = start(port)
    body = job_body(args)
    print(f"job request {len(json.dumps(body).encode()) / 1000:.1f} kB", flush=True)
    jobs, walks = [], []
    threads = [threading.Thread(target=train, args=(port, body, jobs))
               for _ in range(args.jobs)]
    threads += [threading.Thread(target=post, args=(port, "/api/walk", UNDER, walks))
                for _ in range(args.walks)]
    started = time.monotonic()
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        print(f"{args.jobs} jobs: {jobs}")
        if walks:
            print(f"{args.walks} walks: statuses {sorted(s for _, s, _, _ in walks)}, slowest "
                  f"{max(t for *_, t in walks):.1f} s")
        print(f"server peak {peak_mib(proc.pid):.0f} MiB after {time.monotonic() - started:.0f} s")
    finally:
        proc.terminate()
        proc.wait(10)


if __name__ == "__main__":
    main()
