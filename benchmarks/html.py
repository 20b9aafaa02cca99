"""`handformer walk --format html` against the terminal walkthrough: page size and time ratio.

Each run is the whole command in its own process (start-up, the forward pass, narration in
both languages for HTML / one for the terminal, rendering, writing the file), as a reader runs
it. The two sides alternate (A B A B …) and the medians are compared, since absolute times on
shared machines drift. Reported per preset: the page's size, the median
seconds of each side and their ratio (html / terminal; above 1 means the page takes longer).

    .venv/bin/python benchmarks/html.py             # tutorial and paper, 5 runs each side
    .venv/bin/python benchmarks/html.py --runs 3
    .venv/bin/python benchmarks/html.py --quick     # one run each side, the tutorial only

The paper preset walks the tutorial dataset's second line, "When you play the game of thrones,
you win or you die." (12 tokens), into "you win or you die".
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HANDFORMER = Path(sys.executable).with_name("handformer")
PAPER_SRC = "When you play the game of thrones, you win or you die."
CASES = {
    "tutorial": ["--preset", "tutorial"],
    "tutorial --backward": ["--preset", "tutorial", "--backward"],
    "paper (12 tokens)": ["--preset", "paper", "--src", PAPER_SRC, "--tgt", "you win or you die"],
}


def run(args: list[str]) -> float:
    """Seconds for one whole `handformer walk ...` process."""
    start = time.perf_counter()
    done = subprocess.run([str(HANDFORMER), "walk", *args], capture_output=True, text=True,
                          env=os.environ | {"COLUMNS": "100"})
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"handformer walk {' '.join(args)} failed:\n{done.stderr}")
    return elapsed


def measure(case: list[str], runs: int, tmp: Path) -> dict:
    page, text = tmp / "walk.html", tmp / "walk.txt"
    html_args = [*case, "--format", "html", "-o", str(page)]
    term_args = [*case, "--format", "terminal", "--width", "100", "-o", str(text)]
    html_times, term_times = [], []
    for _ in range(runs):
        time.sleep(0.3)
        html_times.append(run(html_args))
        time.sleep(0.3)
        term_times.append(run(term_args))
    h, t = statistics.median(html_times), statistics.median(term_times)
    return {"size": page.stat().st_size, "html": h, "terminal": t, "ratio": h / t}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each side per preset")
    parser.add_argument("--quick", action="store_true",
                        help="one run of each side, the tutorial only: checks that the script "
                             "runs, measures little")
    args = parser.parse_args()
    cases = CASES
    if args.quick:
        args.runs, cases = 1, {"tutorial": CASES["tutorial"]}
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus; whole processes, "
          f"median of {args.runs} alternating runs each")
    print(f"{'case':<22}{'page size':>12}{'html s':>10}{'terminal s':>12}{'html/terminal':>15}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, case in cases.items():
            r = measure(case, args.runs, Path(tmp))
            print(f"{name:<22}{r['size'] / 1e6:>9.2f} MB{r['html']:>10.2f}{r['terminal']:>12.2f}"
                  f"{r['ratio']:>15.2f}")


if __name__ == "__main__":
    main()
