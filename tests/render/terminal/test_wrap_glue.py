"""A Chinese line never ends with a number whose measure word starts the next line ("25 ⏎个词元"),
nor with "第" before its number, nor with "=" before what it equals; the page keeps them
together with a no-break space."""

import re

import pytest
from click.testing import CliRunner

from handformer.cli import main
from handformer.render.common.breaks import NBSP, glue
from handformer.render.terminal.wrap import wrap

TEXT = ("这个模型有编码器 1 层、解码器 1 层，每个词是一行 d_model = 6 个数，词汇表共 25 个词元；"
        "第 12 步的分数在 2.826 到 24.662 之间，L = 3.385。")


def split_measure(lines: list[str]) -> list[str]:
    bad = []
    for a, b in zip(lines, lines[1:], strict=False):
        if re.search(r"\d$", a) and re.match(r"\s*[\u4e00-\u9fff]", b):
            bad.append(f"{a!r} | {b!r}")
        if a.rstrip().endswith(("第", "=")):
            bad.append(f"{a!r} | {b!r}")
    return bad


@pytest.mark.parametrize("width", range(12, 61, 3))
def test_a_number_keeps_its_measure_word_at_every_width(width):
    lines = wrap(TEXT, width)
    assert "".join(lines).replace(" ", "") == TEXT.replace(" ", "")  # nothing lost or added
    assert NBSP not in "".join(lines)
    assert split_measure(lines) == []


def test_glue_puts_no_break_spaces_only_where_a_break_is_wrong():
    assert glue("共 25 个词元") == f"共{NBSP}25{NBSP}个词元"
    assert glue("第 1 层") == f"第{NBSP}1{NBSP}层"
    assert glue("L = 3.385") == f"L{NBSP}={NBSP}3.385"
    assert glue("when you play") == "when you play"
    assert glue("so p = 0.130 and d_model = 6") == f"so p{NBSP}={NBSP}0.130 and d_model ={NBSP}6"
    assert glue("−ln 25 (ln 25)") == f"−ln{NBSP}25 (ln{NBSP}25)"
    assert glue("loge 2") == "loge 2"
    assert glue("概率 p = 0.130，即 ln 25") == f"概率 p{NBSP}={NBSP}0.130，即 ln{NBSP}25"
    assert glue("概率(p = 0.130)") == f"概率(p{NBSP}={NBSP}0.130)"


@pytest.mark.parametrize("width", range(10, 40))
def test_a_short_symbol_keeps_its_equals_sign_and_ln_its_number(width):
    text = "平均损失是 L = 3.385，比均匀猜测的 ln 25 = 3.219 更差；第一个位置的 p = 0.130。"
    lines = wrap(text, width)
    for a, b in zip(lines, lines[1:], strict=False):
        assert not b.lstrip().startswith("="), (a, b)
        assert not (a.rstrip().endswith("ln") and b.lstrip()[:1].isdecimal()), (a, b)


def test_the_chinese_walk_at_width_60_keeps_numbers_with_their_measure_words():
    out = CliRunner().invoke(main, ["walk", "--lang", "zh", "--width", "60"]).output
    prose = [line for line in out.splitlines()
             if line.startswith(" ") and re.search(r"[\u4e00-\u9fff]", line)
             and len(re.findall(r"-?\d+\.\d+", line)) < 3]  # paragraphs, not matrix rows
    assert len(prose) > 100
    lines = out.splitlines()
    bad = [f"{a!r} | {b!r}" for a, b in zip(lines, lines[1:], strict=False)
           if a in prose and re.search(r"\d$", a) and re.match(r"\s*[\u4e00-\u9fff]", b)]
    assert bad == []
