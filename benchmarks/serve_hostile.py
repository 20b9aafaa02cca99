"""Eight clients at once, each sending the largest request the server answers, to every heavy
endpoint: the server's peak memory (VmHWM of its process, and of its children) and each
answer's status and seconds.

    PYTHONPATH=src .venv/bin/python benchmarks/serve_hostile.py [--clients 8]
    PYTHONPATH=src .venv/bin/python benchmarks/serve_hostile.py --quick   # 2 clients: does it run?

The server runs as its own process (`python -m handformer serve` on a free 127.0.0.1 port)
under `prlimit --as=4GiB`. "Largest" is two kinds: just under the per-request limit (the small
preset, backward, two 48-word sentences: answered 200) and far over it (16 heads, 6 layers,
backward, 48-word sentences: refused 422 before any work). The check: peak under 2 GB, every
answer 200 or 422, every answer within 30 s.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

from serve import free_port

LONG = " ".join(["the"] * 48)
UNDER = {"preset": "small", "backward": True, "src": LONG, "tgt": LONG}
OVER = {"backward": True, "src": LONG, "tgt": LONG,
        "config": {"heads": 16, "layers": 6, "d_model": 64, "d_k": 8, "d_v": 8}}
CASES = [("/api/walk", UNDER), ("/api/panels", UNDER), ("/api/compare",
         {"a": UNDER | {"backward": False}, "train_steps": 0}), ("/api/walk", OVER)]


def start(port: int) -> subprocess.Popen:
    proc = subprocess.Popen(["prlimit", "--as=4294967296", "--", sys.executable, "-m",
                             "handformer", "serve", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            cwd=tempfile.gettempdir())  # benchmarks/html.py would hide html
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/favicon.ico", timeout=2)
            return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not start")


def peak_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        line = next(x for x in f if x.startswith("VmHWM:"))
    return int(line.split()[1]) / 1024


def post(port: int, path: str, body: dict, out: list) -> None:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}",
                                     json.dumps(body).encode(),
                                     {"Content-Type": "application/json"}, method="POST")
    start_time = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=120) as r:
            status, size = r.status, len(r.read())
    except urllib.error.HTTPError as err:
        status, size = err.code, len(err.read())
    out.append((path, status, size, time.monotonic() - start_time))


def round_of(port: int, clients: int, path: str, body: dict) -> list:
    out: list = []
    threads = [threading.Thread(target=post, args=(port, path, body, out))
               for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--quick", action="store_true",
                        help="2 clients at once instead of 8: checks that the script runs, "
                             "measures little")
    args = parser.parse_args()
    clients = 2 if args.quick else args.clients
    port = free_port()
    proc = start(port)
    try:
        for path, body in CASES:
            results = round_of(port, clients, path, body)
            statuses = sorted({s for _, s, _, _ in results})
            slowest = max(t for *_, t in results)
            biggest = max(n for _, _, n, _ in results)
            print(f"{clients} x {path:13} statuses {statuses}  slowest {slowest:5.1f} s  "
                  f"largest answer {biggest / 2**20:6.1f} MiB  server peak so far "
                  f"{peak_mib(proc.pid):7.0f} MiB", flush=True)
    finally:
        proc.terminate()
        proc.wait(10)


if __name__ == "__main__":
    main()
