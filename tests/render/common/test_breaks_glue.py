"""breaks._glued_at walks back over the word before a space only when the text there ends in
a function's name: it must judge every space as walking back always judged it."""

from hypothesis import given
from hypothesis import strategies as st

from handformer.render.common import breaks

# Hanzi, counting words, digits, "=", "(", the letters of ln, log and exp, a minus sign, white
# space of several kinds.
ALPHABET = "个词元层第共约注意力0123456789=(lnogexpabcX−.，。 \t\u00a0"


def glued_at_walking_back_always(text: str, i: int) -> bool:
    """_glued_at as it read before: the word before the space read for every digit after it."""
    before = text[i - 1] if i else ""
    after = text[i + 1:i + 2]
    if text[i] == " " and before.isdecimal() and "\u3400" <= after <= "\u9fff":
        return True
    if before in breaks._COUNTING and after.isdecimal():
        return True
    if text[i] != " " or after == "" or after.isspace():
        return False
    word = breaks._word_before(text, i)
    return before == "=" or (after == "=" and 0 < len(word) <= breaks.SHORT_SYMBOL) \
        or (after.isdecimal() and breaks._names_a_function(word))


def _spaces(text: str) -> list[int]:
    return [i for i, char in enumerate(text) if char.isspace()]


@given(st.text(alphabet=ALPHABET, max_size=40))
def test_each_space_is_judged_as_before(text):
    for i in _spaces(text):
        assert breaks._glued_at(text, i) == glued_at_walking_back_always(text, i), (text, i)


def test_function_names_before_a_number():
    for text in ["词 ln 25", "词 −ln 25", "词 (log 2", "词 exp 1", "词 xln 2", "词 aexp 1",
                 "词ln 2", "词 ln  2", "第 ln 2", "ln 2", "词 lnx 2", "词 l 2"]:
        for i in _spaces(text):
            assert breaks._glued_at(text, i) == glued_at_walking_back_always(text, i), (text, i)
        assert breaks.glue(text).count(breaks.NBSP) == sum(
            glued_at_walking_back_always(text, i) for i in _spaces(text)), text
