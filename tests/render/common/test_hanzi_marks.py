"""breaks.hanzi_marks reads the high byte of each UTF-16 unit: it must mark exactly the
characters lexicon.is_hanzi calls Hanzi, row by row and where a row cannot tell."""

from handformer.render.common import breaks
from handformer.render.common.lexicon import is_hanzi


def _slow_marks(text: str) -> bytes:
    return bytes(1 if is_hanzi(c) else 0 for c in text)


def test_every_character_of_the_bmp_is_marked_as_is_hanzi_marks_it():
    every = "".join(map(chr, range(0x10000)))  # lone surrogates included
    assert breaks.hanzi_marks(every) == _slow_marks(every)
    for start in range(0, 0x10000, 0x100):  # each row alone, as most text meets it
        row = "a" + "".join(map(chr, range(start, start + 0x100)))
        assert breaks.hanzi_marks(row) == _slow_marks(row), hex(start)


def test_row_4d_and_characters_beyond_the_bmp_keep_one_mark_per_character():
    for text in ["注意\u4dbf\u4dc0力", "\u4dbf\u4dbe", "词😀元之\U00020000\U00020001值",
                 "值\ud800值值", "注意力"]:
        assert breaks.hanzi_marks(text) == _slow_marks(text), repr(text)
        assert len(breaks.hanzi_marks(text)) == len(text)


def test_runs_are_found_where_the_marks_say():
    assert breaks.hanzi_runs("x 注意力 = 0.5 的值\u4dbf\u4dc0值值") == [
        (2, "注意力"), (12, "的值\u4dbf"), (16, "值值")]
    assert breaks.hanzi_runs("😀注意") == [(1, "注意")]
    assert breaks.hanzi_runs("plain text") == []
