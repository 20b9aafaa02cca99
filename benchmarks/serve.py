"""`handformer serve` under load: requests per second and median latency of the tutorial walk
(POST /api/walk, the JSON tape) with 1 and 8 concurrent clients on loopback.

    .venv/bin/python benchmarks/serve.py [--requests 200] [--seconds 20] [--rounds 2]
    .venv/bin/python benchmarks/serve.py --quick    # one round of 8 requests, 2 s at most

The server runs as its own process (`handformer serve` on a free port), so the clients' threads
do not share its interpreter. Each client keeps one HTTP/1.1 connection. Rounds alternate
(1, 8, 1, 8, ...) so drift on a shared machine hits both alike; every round is bounded by a
request count and a time limit, and the figures are pooled over rounds. Load average printed.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

BODY = json.dumps({"src": "when you play the game of thrones", "tgt": "you win or you die"})


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int) -> subprocess.Popen:
    script = Path(sys.executable).parent / "handformer"
    proc = subprocess.Popen([str(script), "serve", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    sys.exit("the server did not start")


def client(port: int, stop_at: float, budget: list, latencies: list, lock) -> None:
    """Walk requests on one kept-alive connection until the shared budget or time runs out."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    while time.monotonic() < stop_at:
        with lock:
            if budget[0] <= 0:
                break
            budget[0] -= 1
        start = time.perf_counter()
        conn.request("POST", "/api/walk", BODY, {"Content-Type": "application/json"})
        response = conn.getresponse()
        response.read()
        if response.status != 200:
            raise SystemExit(f"status {response.status}")
        with lock:
            latencies.append(time.perf_counter() - start)
    conn.close()


def round_(port: int, clients: int, requests: int, seconds: float) -> tuple[int, float, list]:
    budget, latencies, lock = [requests], [], threading.Lock()
    stop_at = time.monotonic() + seconds
    threads = [threading.Thread(target=client, args=(port, stop_at, budget, latencies, lock))
               for _ in range(clients)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return len(latencies), time.perf_counter() - start, latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200, help="requests per round")
    parser.add_argument("--seconds", type=float, default=20.0, help="time limit per round")
    parser.add_argument("--rounds", type=int, default=2, help="rounds per concurrency")
    parser.add_argument("--quick", action="store_true",
                        help="one round of 8 requests (2 s at most) per concurrency: checks "
                             "that the script runs, measures little")
    a = parser.parse_args()
    if a.quick:
        a.requests, a.seconds, a.rounds = 8, 2.0, 1
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
          f"({os.cpu_count()} cores)")
    port = free_port()
    server = start_server(port)
    try:
        round_(port, 1, 5, 10)  # warm-up: imports, jinja, first allocations
        pooled = {1: ([], 0, 0.0), 8: ([], 0, 0.0)}
        for _ in range(a.rounds):
            for clients in (1, 8):
                done, elapsed, lat = round_(port, clients, a.requests, a.seconds)
                old = pooled[clients]
                pooled[clients] = (old[0] + lat, old[1] + done, old[2] + elapsed)
    finally:
        server.terminate()
        server.wait(10)
    print(f"tutorial walk, POST /api/walk, {len(BODY)} byte body, loopback")
    print(f"{'clients':>8} {'requests':>9} {'req/s':>8} {'median ms':>10} {'p90 ms':>8}")
    for clients, (lat, done, elapsed) in pooled.items():
        lat = sorted(lat)
        p90 = lat[int(0.9 * (len(lat) - 1))] if lat else float("nan")
        print(f"{clients:>8} {done:>9} {done / elapsed:>8.1f} "
              f"{statistics.median(lat) * 1e3:>10.1f} {p90 * 1e3:>8.1f}")
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
