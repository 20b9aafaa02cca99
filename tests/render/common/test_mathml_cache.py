"""The cache of converted formulas: a second process reads what the first converted, the MathML
is the converter's own, and a file that is not the user's own (or not JSON) is ignored."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("latex2mathml")

SRC = str(Path(__file__).resolve().parents[3] / "src")
FORMULA = r"\frac{x - \mu}{\sqrt{\sigma^2 + \epsilon}}"
CONVERT = f"""
import sys
from handformer.render.common import tex
out = tex.to_mathml({FORMULA!r})
print('latex2mathml' in sys.modules)
print(out)
"""


def run(cache: Path) -> tuple[bool, str]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "PYTHONPATH": SRC}
    out = subprocess.run([sys.executable, "-c", CONVERT], env=env, capture_output=True,
                         text=True, check=True).stdout.splitlines()
    return out[0] == "True", "\n".join(out[1:])


def converted_directly() -> str:
    from latex2mathml.converter import convert_to_element

    from handformer.render.common import sanitize

    return sanitize.mathml(convert_to_element(FORMULA, display="block"))


def kept(file: Path) -> dict[str, str]:
    """The file's conversions, its first line's first (files/kept_table.py's two lines)."""
    from handformer.files.kept_table import read_table

    return read_table(str(file))


def cache_file(cache: Path) -> Path:
    (found,) = (cache / "handformer").glob("mathml-*.jsonl")
    return found


@pytest.mark.process
def test_a_second_run_reads_the_first_runs_conversion_without_the_converter(tmp_path):
    imported, first = run(tmp_path)
    assert imported and first == converted_directly()
    assert kept(cache_file(tmp_path))["block " + FORMULA] == first
    assert oct(cache_file(tmp_path).stat().st_mode & 0o777) == oct(0o600)
    imported, second = run(tmp_path)
    assert not imported and second == first


@pytest.mark.process
def test_a_file_others_may_write_is_not_read(tmp_path):
    run(tmp_path)
    path = cache_file(tmp_path)
    path.write_text(json.dumps({"block " + FORMULA: "<math><mi>forged</mi></math>"}))
    path.chmod(0o666)
    imported, out = run(tmp_path)
    assert imported and "forged" not in out and out == converted_directly()


@pytest.mark.process
def test_a_broken_file_or_an_unwritable_folder_is_no_error(tmp_path):
    run(tmp_path)
    cache_file(tmp_path).write_text("{not json")
    assert run(tmp_path)[1] == converted_directly()
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache folder would go")
    assert run(blocked)[1] == converted_directly()


@pytest.mark.process
def test_the_file_stays_small_and_keeps_what_the_last_run_used(tmp_path):
    from handformer.render.common.mathml_cache import FILE_BYTES

    run(tmp_path)
    path = cache_file(tmp_path)
    table = kept(path)
    others = {f"block x_{{{i}}}": "<math>" + "<mn>1</mn>" * 500 + "</math>" for i in range(400)}
    path.write_text(json.dumps({**others, **table}))  # the run's formula last, the file 2 MB
    assert len(path.read_text()) > 3 * FILE_BYTES
    imported, out = run(tmp_path)  # every formula found: only the cut makes it write
    table = kept(path)
    assert not imported and out == converted_directly()
    assert sum(len(k) + len(v) for k, v in table.items()) <= FILE_BYTES
    assert "block " + FORMULA in table and 0 < len(table) - 1 < len(others)
    assert list(table)[0] == "block " + FORMULA  # what this run used comes first


def test_the_stamp_reads_the_converters_python_files_by_name(tmp_path):
    """The stamp's sources, listed with os: the folder's Python files in pathlib's sorted
    glob order, nothing else."""
    from handformer.files.kept_table import python_sources as _sources

    for name in ("walker.py", "a.py", "notes.txt", "b.pyc", "Z.py"):
        (tmp_path / name).write_text("")
    assert _sources(str(tmp_path)) == [str(p) for p in sorted(tmp_path.glob("*.py"))]
    assert [Path(p).name for p in _sources(str(tmp_path))] == ["Z.py", "a.py", "walker.py"]
