"""The `handformer walk` start-up path: no torch, jinja2, matplotlib or rich imported."""

import subprocess
import sys

CHECK = """
import sys
from handformer.cli import main
try:
    main(["walk", "--lang", "zh"])
except SystemExit as exit:
    assert not exit.code, exit.code
heavy = [m for m in ("torch", "jinja2", "matplotlib", "rich") if m in sys.modules]
print("HEAVY", heavy, file=sys.stderr)
"""


def test_walk_imports_no_heavy_module():
    result = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True,
                            timeout=120, check=True)
    assert "HEAVY []" in result.stderr, result.stderr
    assert "第 1 步" in result.stdout or "步" in result.stdout
