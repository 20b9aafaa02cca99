"""The shipped lexicon of our Chinese words, and where a line may break between two Hanzi."""

import subprocess
import sys
from pathlib import Path

import pytest

from handformer.render.common import breaks, lexicon
from handformer.render.terminal.wrap import wrap


def test_the_shipped_lexicon_is_made_from_the_tables_as_they_are():
    pytest.importorskip("jieba", reason="the lexicon is made by jieba (pip install jieba)")
    assert lexicon.generated() == Path(lexicon.LEXICON).read_text(encoding="utf-8"), (
        "i18n/zh_words.txt is stale: regenerate it with python -m handformer.render.common.lexicon")


def test_the_lexicon_holds_words_of_two_or_more_hanzi():
    """Nothing but Hanzi: a word lies inside one run of Hanzi, the only text breaks scans."""
    words = lexicon.words()
    assert {"注意力", "编码器", "解码器", "归一化"} <= words  # words of our own text
    assert all(len(w) >= 2 and all(map(lexicon.is_hanzi, w)) for w in words)
    assert "的" not in words


def test_the_runs_of_hanzi_are_those_of_is_hanzi():
    """breaks marks Hanzi with a table of code points: the same characters as is_hanzi, at
    every block edge and past the table's end."""
    edges = [0x33FF, 0x3400, 0x4DBF, 0x4DC0, 0x4DFF, 0x4E00, 0x9FFF, 0xA000, 0xF8FF, 0xF900,
             0xFAFF, 0xFB00, 0xFF0C, 0x20000]
    chars = [chr(c + d) for c in edges for d in (-1, 0, 1)] + ["a", " ", "，", "中"]
    text = "".join(a + b for a in chars for b in chars)
    expected = [i for i in range(1, len(text))
                if lexicon.is_hanzi(text[i - 1]) and lexicon.is_hanzi(text[i])]
    assert breaks.hanzi_pairs(text) == expected


def test_a_word_is_never_split():
    assert breaks.hanzi_breaks("注意力") == []
    assert breaks.hanzi_breaks("多头注意力") == [2]  # 多头 | 注意力
    assert breaks.hanzi_breaks("残差连接与层归一化") == [2, 4, 5, 6]  # 残差|连接|与|层|归一化
    assert breaks.pieces("自注意力，编码器") == ["自", "注意力，编码器"]


def test_every_occurrence_of_every_word_counts_not_one_segmentation(monkeypatch):
    """研究生命: a greedy longest-first cut (研究生 | 命) would allow a break before 命; 生命
    is a word too, so no break is allowed anywhere."""
    monkeypatch.setattr(breaks, "words", lambda: frozenset({"研究", "研究生", "生命"}))
    breaks._lengths_by_first_two.cache_clear()
    breaks._run_breaks.cache_clear()
    try:
        assert breaks.hanzi_breaks("研究生命") == []
        assert breaks.hanzi_breaks("研究生活") == [3]  # 研究生 | 活: 生活 is not known here
    finally:
        breaks._lengths_by_first_two.cache_clear()
        breaks._run_breaks.cache_clear()


def test_only_gaps_between_two_hanzi_are_breaks():
    assert breaks.hanzi_breaks("Q 和 K") == []
    assert breaks.hanzi_breaks("值为0.540的") == [1]  # 值 | 为; never next to a digit
    assert breaks.hanzi_pairs("值为0.540的值") == [1, 8]  # 值|为, 的|值


def test_wrap_keeps_words_whole_and_obeys_punctuation():
    text = "多头注意力把注意力分给每个头，再由“编码器”读入。"
    inside = {at + k for word in ("注意力", "编码器") for at in range(len(text))
              if text.startswith(word, at) for k in (1, 2)}
    assert inside == {3, 4, 7, 8, 19, 20}
    for width in range(8, 30):
        lines = wrap(text, width)
        assert "".join(lines) == text
        assert all(line[0] not in "，。”" and line[-1] not in "“" for line in lines), lines
        ends = [len("".join(lines[:k])) for k in range(1, len(lines))]
        assert not set(ends) & inside, (width, lines)


def test_a_run_wider_than_the_line_is_cut_to_fit():
    assert wrap("注意力", 4) == ["注意", "力"]


@pytest.mark.process
def test_the_english_walk_never_reads_the_lexicon_and_never_imports_jieba():
    """Past its first panel: the overview credits the Chinese comic by its title, a run of
    Hanzi that the whole English walk breaks with the lexicon (read once, about 2 ms)."""
    code = ("import sys\nfrom handformer.cli import main\nfrom handformer.render.common import lexicon\n"
            "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            "print(lexicon.words.cache_info().currsize, 'jieba' in sys.modules, file=sys.stderr)\n")
    read = {}
    for lang in ("en", "zh"):
        result = subprocess.run([sys.executable, "-c", code, "walk", "--lang", lang,
                                 "--steps", "1-13"],
                                capture_output=True, text=True, timeout=120, check=True)
        read[lang] = result.stderr.split()[-2:]
    assert read == {"en": ["0", "False"], "zh": ["1", "False"]}


def test_the_page_filter_escapes_first_then_marks_the_breaks():
    pytest.importorskip("jinja2", reason="the page needs jinja2")
    from markupsafe import Markup

    from handformer.render.html.page import with_breaks

    hostile = "自注意力<script>alert('多头')</script>&amp;"
    out = with_breaks(hostile)
    assert isinstance(out, Markup)
    assert out == ("自<wbr>注意力&lt;script&gt;alert(&#39;多头&#39;)&lt;/script&gt;&amp;amp;")
    assert out.replace("<wbr>", "").unescape() == hostile  # nothing lost, nothing added
    with pytest.raises(TypeError):
        with_breaks(Markup("<b>注意力</b>"))  # markup would be escaped twice
