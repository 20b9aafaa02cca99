"""Start-up time: `handformer walk` (the console script, output to /dev/null) vs `import numpy`,
and the HTML page (`walk --format html`) vs the terminal walkthrough.

    .venv/bin/python benchmarks/startup.py [--runs 9]
    .venv/bin/python benchmarks/startup.py --quick    # one run each: does it run?

The commands run as fresh processes, alternating (A B C A B C ...) so drift on a shared machine
hits all alike; medians and the two ratios are printed (targets: walk / import numpy ≤ 1.7,
HTML / terminal ≤ 1.5). Each command runs once first, untimed: that run writes the bytecode
and the caches an installed handformer keeps (compiled templates, converted formulas, a small
model's initial weights). A separate run with `python -X importtime` checks that the
walkthrough imports nothing it does not draw (torch, jinja2, matplotlib; numpy.random, the
other families, the Chinese table, the backward narration, pkgutil and string: ``FORBIDDEN``) and lists the
packages that cost the most to import. Exit status 1 if either check fails (with --quick, whose
single runs measure little, only the import check decides it).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from machine import machine_line

# label: (target, the command timed, the command it is divided by)
TARGETS = {"walk / import numpy": (1.7, "handformer walk", 'python -c "import numpy"'),
           "HTML / terminal": (1.5, "handformer walk --format html", "handformer walk")}
FORBIDDEN = ("torch", "jinja2", "matplotlib", "numpy.random", "handformer.families.bert",
             "handformer.families.gpt", "handformer.i18n.zh", "handformer.narrate.backward",
             "handformer.render.html", "pkgutil", "string")
HEAVY = ("numpy", "click", "rich", "torch", "jinja2", "matplotlib", "safetensors", "scipy")


def console_script() -> str:
    here = Path(sys.executable).parent / "handformer"
    found = str(here) if here.exists() else shutil.which("handformer")
    if not found:
        sys.exit("handformer is not installed: pip install -e . first")
    return found


def timed(argv: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds user + system) of one fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(commands: dict[str, list[str]], runs: int) -> dict[str, list[tuple[float, float]]]:
    """Alternate the commands run by run, after one warm-up each (disk cache, .pyc files)."""
    for argv in commands.values():
        timed(argv)
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            times[name].append(timed(argv))
    return times


def import_costs(script: str) -> tuple[dict[str, float], set[str]]:
    """Seconds spent importing each top-level package's own modules while `walk` runs (the sum
    of -X importtime's self times, so numpy imported by handformer counts as numpy), and the
    names of all the modules imported."""
    result = subprocess.run([sys.executable, "-X", "importtime", script, "walk"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            check=True)
    costs: dict[str, float] = {}
    names: set[str] = set()
    for line in result.stderr.splitlines():
        parts = line.removeprefix("import time:").split("|")
        if not line.startswith("import time:") or len(parts) != 3 or not parts[0].strip().isdigit():
            continue
        names.add(parts[2].strip())
        top = parts[2].strip().split(".")[0]
        costs[top] = costs.get(top, 0.0) + int(parts[0]) / 1e6
    return costs, names


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--quick", action="store_true",
                        help="one timed run of each command, and the ratios' targets only "
                             "reported: checks that the script runs, measures little")
    args = parser.parse_args()
    if args.quick:
        args.runs = 1
    with tempfile.TemporaryDirectory(prefix="handformer-startup-") as folder:
        return run(args, str(Path(folder) / "walk.html"))


def run(args: argparse.Namespace, page: str) -> int:
    script = console_script()
    commands = {'python -c "import numpy"': [sys.executable, "-c", "import numpy"],
                "handformer walk": [script, "walk"],
                "handformer walk --format html": [script, "walk", "--format", "html", "-o", page]}
    print(machine_line())
    print(f"python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.1f} at start; "
          f"{args.runs} runs each, alternating; wall time of a fresh process")
    if sys.dont_write_bytecode:  # the warm-up then leaves no .pyc: every run compiles the source
        print("note: PYTHONDONTWRITEBYTECODE is set, so each run compiles handformer's source "
              "(an installed package has its .pyc files); unset it to time that case")
    times = measure(commands, args.runs)
    print(f"{'command':30s} {'median':>8s} {'min':>8s} {'max':>8s} {'CPU median':>11s}")
    wall, cpu = {}, {}
    for name, t in times.items():
        wall[name], cpu[name] = [w for w, _ in t], [c for _, c in t]
        print(f"{name:30s} {statistics.median(wall[name]):7.3f}s {min(wall[name]):7.3f}s "
              f"{max(wall[name]):7.3f}s {statistics.median(cpu[name]):10.3f}s")
    ok = True
    for label, (target, over, under) in TARGETS.items():
        ratio = statistics.median(wall[over]) / statistics.median(wall[under])
        ok = ok and ratio <= target
        print(f"ratio {label}, medians of wall time: {ratio:.2f} (target ≤ {target}): "
              f"{'OK' if ratio <= target else 'OVER'}; fastest runs "
              f"{min(wall[over]) / min(wall[under]):.2f}, CPU time "
              f"{statistics.median(cpu[over]) / statistics.median(cpu[under]):.2f}")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs at the end")

    costs, names = import_costs(script)
    bad = [m for m in FORBIDDEN if any(n == m or n.startswith(m + ".") for n in names)]
    print(f"walk imports {', '.join(bad)}: FAIL" if bad else
          f"walk imports none of {', '.join(FORBIDDEN)}: OK")
    heavy = [m for m in HEAVY if m in costs]
    print(f"heavy modules imported by walk: {', '.join(heavy) or 'none'}; not imported: "
          f"{', '.join(m for m in HEAVY if m not in costs)}")
    top = sorted(costs.items(), key=lambda kv: -kv[1])[:8]
    print(f"import time in all: {sum(costs.values()) * 1000:.0f} ms; largest (own modules only, "
          f"one -X importtime run): "
          + ", ".join(f"{name} {sec * 1000:.0f} ms" for name, sec in top))
    return 0 if (ok or args.quick) and not bad else 1


if __name__ == "__main__":
    sys.exit(main())
