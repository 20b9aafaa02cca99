"""A page's line breaks kept between runs (wbr._KEPT_BREAKS): a second process makes the same
page from the kept breaks without finding any itself, and each kept text is what finding its
breaks gives."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = str(Path(__file__).resolve().parents[3] / "src")
PAGE = """
import sys
from handformer.cli import main
from handformer.render.common import lexicon
try:
    main(["walk", "--format", "html", "--lang", "zh", "-o", sys.argv[1]])
except SystemExit as end:
    assert not end.code, end.code
print(lexicon.words.cache_info().currsize)  # 1 once a break was looked for in the word list
"""


def page(cache: Path, out: Path) -> tuple[bytes, bool]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "PYTHONPATH": SRC}
    ran = subprocess.run([sys.executable, "-c", PAGE, str(out)], env=env, capture_output=True,
                         text=True, check=True)
    return out.read_bytes(), ran.stdout.split()[-1] == "1"


@pytest.mark.process
def test_a_second_page_uses_the_kept_breaks_and_is_the_same(tmp_path):
    first, looked_up = page(tmp_path / "cache", tmp_path / "first.html")
    assert looked_up
    (kept_file,) = (tmp_path / "cache" / "handformer").glob("breaks-*.jsonl")
    assert oct(kept_file.stat().st_mode & 0o777) == oct(0o600)
    second, looked_up = page(tmp_path / "cache", tmp_path / "second.html")
    assert not looked_up and second == first


@pytest.mark.process
def test_each_kept_text_is_its_breaks_found_afresh(tmp_path):
    from handformer.files.kept_table import read_table
    from handformer.render.html import wbr

    page(tmp_path / "cache", tmp_path / "first.html")
    (kept_file,) = (tmp_path / "cache" / "handformer").glob("breaks-*.jsonl")
    kept = read_table(str(kept_file))
    assert any("<wbr>" in html for html in kept.values())  # Chinese text was kept
    assert kept and all(html == str(wbr._broken(text)) for text, html in kept.items())
