"""`handformer walk` end to end through click: languages, presets, --steps, --backward, render."""

import re
import time

import pytest
from click.testing import CliRunner

from handformer.cli import main


def run(*args):
    result = CliRunner().invoke(main, ["walk", *args], catch_exceptions=False)
    return result


def test_walk_prints_the_whole_tutorial_walkthrough():
    result = run("--width", "100")
    assert result.exit_code == 0, result.output
    out = result.output
    # panels numbered in reading order; the tutorial's own step under each heading
    assert re.search(r"Step 2 · Define the dataset ─+\n the tutorial's step 1\n", out)
    assert re.search(r"Step 66 · The predicted word[^\n]*\n the tutorial's step 13\n", out)
    assert out.index("Step 2 · Define the dataset") < out.index("Step 8 · Multi-head") \
        < out.index("Step 26 · Masked") < out.index("Step 66 · The predicted word")
    assert "0.540" in out and "0.999" in out
    assert "Gradient of" not in out


def test_walk_in_chinese():
    result = run("--lang", "zh", "--width", "100")
    assert result.exit_code == 0
    out = result.output
    assert re.search(r"第 2 步 · 定义数据集 ─+\n 原教程第 1 步\n", out)
    assert "第 66 步 · 每个位置预测出的词" in out
    assert "掩码多头注意力" in out and "残差连接与层归一化" in out
    han = len(re.findall(r"[\u4e00-\u9fff]", out))
    assert han > 3000


def test_walk_steps_range_and_bad_spec():
    result = run("--steps", "7-9", "--width", "100")
    assert result.exit_code == 0
    said = re.findall(r"^ the tutorial's step (\w+)$", result.output, flags=re.M)
    assert set(said) == {"7", "8", "9"}  # the heads joined ("7b") are part of its step 7
    titles = [int(n) for n in re.findall(r"^Step (\d+) ·", result.output, flags=re.M)]
    assert titles == list(range(8, 8 + len(titles))) and len(titles) == len(said)
    bad = run("--steps", "42")
    assert bad.exit_code == 2
    assert "error: --steps '42'" in bad.output and "12b" in bad.output


def test_walk_backward_tells_loss_gradients_and_update():
    result = run("--backward", "--lr", "0.5", "--steps", "14-16", "--width", "100")
    assert result.exit_code == 0
    out = result.output
    assert out.index("Step 67 · The loss") < out.index("Step 68 · Gradient of the logits") \
        < out.index("Updating the source embedding table E_src")
    assert "tutorial's step" not in out  # the tutorial stops at its step 13
    assert "θ ← θ - 0.5 g" in out and "─  D10  ─" in out and "─  D9  ─" in out


@pytest.mark.slow
def test_walk_paper_preset_is_elided_and_quick():
    start = time.perf_counter()
    result = run("--preset", "paper", "--width", "100")
    elapsed = time.perf_counter() - start
    assert result.exit_code == 0
    out = result.output
    assert "X  (7×512)" in out and "⋯" in out
    from rich.cells import cell_len

    assert max(cell_len(line) for line in out.splitlines()) <= 100
    assert elapsed < 30  # a few seconds on an idle machine; generous for a busy CI box


def test_walk_writes_a_file_and_renders_a_saved_tape(tmp_path):
    tape_file, text_file = tmp_path / "tape.json", tmp_path / "walk.txt"
    assert run("--format", "json", "-o", str(tape_file)).exit_code == 0
    assert run("-o", str(text_file), "--steps", "5").exit_code == 0
    again = CliRunner().invoke(main, ["render", str(tape_file), "--steps", "5", "-o",
                                      str(tmp_path / "again.txt")])
    assert again.exit_code == 0, again.output
    assert (tmp_path / "again.txt").read_text() == text_file.read_text()
