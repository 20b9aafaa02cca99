"""`handformer walk --lang zh` in the terminal: no line break cuts a word (jieba, run here on
each whole paragraph, is the judge), and the punctuation rules still hold."""

import pytest
from click.testing import CliRunner

from handformer.cli import main
from handformer.render.common import breaks
from handformer.render.terminal import screen as terminal
from support.zh_words import hanzi_line_breaks, split_words, terminal_text

pytest.importorskip("jieba", reason="jieba judges the breaks (pip install jieba)")

CLOSING, OPENING = set("）”’，。、：；！？》」』"), set("（“‘《「『")


def zh_walk(monkeypatch, *args: str) -> tuple[str, list[str]]:
    """The walk's output, and every paragraph the terminal renderer wrapped (as narrated)."""
    told, real = [], terminal._wrap
    monkeypatch.setattr(terminal, "_wrap", lambda text, width: told.append(text) or real(text, width))
    result = CliRunner().invoke(main, ["walk", "--lang", "zh", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output, told


def words_cut(output: str, paragraphs: list[str]) -> tuple[int, list[str]]:
    found = hanzi_line_breaks(output, paragraphs)
    return len(found), [cut for paragraph, at in found for cut in split_words(paragraph, [at])]


@pytest.mark.parametrize("args", [(), ("--backward",), ("--width", "60"),
                                  ("--backward", "--width", "60")])
def test_no_line_break_cuts_a_word(monkeypatch, args):
    output, paragraphs = zh_walk(monkeypatch, *args)
    checked, cut = words_cut(output, paragraphs)
    assert checked, "no line broke between two Hanzi: nothing was judged"
    assert cut == []
    lines = [terminal_text(line) for line in output.splitlines() if terminal_text(line)]
    assert not [x for x in lines if x[0] in CLOSING]
    assert not [x for x in lines if x[-1] in OPENING]


def test_the_check_catches_a_wrap_that_breaks_between_any_two_hanzi(monkeypatch):
    """As before the lexicon: every gap between two Hanzi allowed. jieba finds the cut words."""
    monkeypatch.setattr(breaks, "hanzi_breaks", breaks.hanzi_pairs)  # wrap imports it when needed
    output, paragraphs = zh_walk(monkeypatch, "--width", "60")
    checked, cut = words_cut(output, paragraphs)
    assert len(cut) >= 3, cut
    assert "的输入相⏎加。" in cut  # 相加 (add), cut at width 60 by the old rule


def test_a_deliberately_split_word_is_caught():
    paragraph = "残差连接把子层的输入与输出相加。"
    at = paragraph.index("相加") + 1
    assert split_words(paragraph, [at]) == ["与输出相⏎加。"]
    assert split_words(paragraph, [at + 1]) == []  # after 加, before 。: no word cut
