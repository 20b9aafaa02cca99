"""handformer.bpe: byte-level BPE learnt by hand. Its merges, in order, are those of Hugging
Face's byte-level BpeTrainer on the same lines (ties included), its segmentation that of the
tokenizer the trainer makes; small cases are worked by hand in the tests."""

import pytest

from handformer.bpe import BpeVocab, byte_symbols, learn, pieces, segment, text_of
from handformer.errors import TextError
from handformer.text import TUTORIAL_DATASET

CHINESE = ["我爱你，你爱我。", "I love you and you love me.", "你好，世界！Hello, world!",
           "我们学习中文，我们喜欢中文。", "学习 is learning; 中文 is Chinese.", "中文很好，我爱中文。"]
CORPORA = {"tutorial": list(TUTORIAL_DATASET), "chinese": CHINESE}


def trained_by_hugging_face(lines, merges: int):
    """(merges in order, tokenizer): the trainer set as GPT-2's byte level, the vocabulary the
    256 byte symbols, our two markers and ``merges`` more."""
    tokenizers = pytest.importorskip("tokenizers")
    from tokenizers import models, pre_tokenizers, trainers

    tok = tokenizers.Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    alphabet = pre_tokenizers.ByteLevel.alphabet()
    trainer = trainers.BpeTrainer(vocab_size=len(alphabet) + 2 + merges,
                                  initial_alphabet=alphabet, special_tokens=["<start>", "<end>"],
                                  show_progress=False)
    tok.train_from_iterator(lines, trainer)
    import json

    told = json.loads(tok.to_str())["model"]["merges"]
    return [tuple(m.split(" ")) if isinstance(m, str) else tuple(m) for m in told], tok


@pytest.mark.parametrize("corpus", sorted(CORPORA))
@pytest.mark.parametrize("merges", [1, 4, 20, 60, 200])
def test_the_merges_are_hugging_faces_in_the_same_order(corpus, merges):
    """200 runs both corpora out of pairs: both stop at the same merge."""
    theirs, _ = trained_by_hugging_face(CORPORA[corpus], merges)
    ours = [tuple(m["pair"]) for m in learn(CORPORA[corpus], merges)["merges"]]
    assert ours == theirs
    assert any(m["ties"] for m in learn(CORPORA[corpus], merges)["merges"]) or merges < 4


@pytest.mark.parametrize("corpus, text", [
    ("tutorial", "when you play the game of thrones you win or you die"),
    ("tutorial", "The storm won't wait, things know  it"),
    ("chinese", "我爱中文 and you love 世界！"),
])
def test_a_text_splits_as_hugging_faces_tokenizer_splits_it(corpus, text):
    theirs, tok = trained_by_hugging_face(CORPORA[corpus], 30)
    assert segment(text, theirs)["tokens"] == tok.encode(text).tokens


def test_byte_symbols_follow_gpt2s_table():
    table = byte_symbols()
    assert len(set(table)) == 256
    assert table[ord("a")] == "a" and table[ord("!")] == "!" and table[0xE6] == "æ"
    # the 68 moved bytes take U+0100 on in byte order: 0-32 first, so space (32) is U+0120
    assert table[0] == "\u0100" and table[ord(" ")] == "Ġ" and table[ord("\n")] == "Ċ"
    assert table[127] == chr(0x100 + 33)  # DEL: after the 33 bytes 0..32
    assert table[0x88] == chr(0x100 + 33 + (0x88 - 127))  # 136: the 10th of 127..160


def test_a_chinese_character_is_three_byte_symbols():
    # 我 is U+6211 = UTF-8 e6 88 91: æ (kept), 0x88 → U+012A Ī, 0x91 → U+0133 ĳ
    assert segment("我", [])["tokens"] == ["æ", "Ī", "ĳ"]
    assert text_of(["æ", "Ī", "ĳ"]) == "我"


def test_gpt2_split_keeps_the_space_with_the_word_after_it():
    assert pieces("I won't stop") == ["I", " won", "'t", " stop"]
    assert pieces("  hi") == [" ", " hi"]  # the last space of a run goes with the word
    assert pieces("ab12!?") == ["ab", "12", "!?"]
    assert pieces("我爱你，") == ["我爱你", "，"]


def test_merges_by_hand():
    """"abab" and "ab": a b occurs 2 + 1 = 3 times, b a once → ab; then ab ab once → abab."""
    told = learn(["abab", "ab"], 5)
    assert [(m["pair"], m["count"]) for m in told["merges"]] == [
        (["a", "b"], 3), (["ab", "ab"], 1)]
    assert told["asked"] == 5  # the third found no pair left
    # "ab abab": pieces "ab", " abab" → a b | Ġ a b a b → ab | Ġ ab ab → ab | Ġ abab
    done = segment("ab abab", [("a", "b"), ("ab", "ab")])
    assert done["symbols"] == ["a", "b", "Ġ", "a", "b", "a", "b"]
    assert [s["tokens"] for s in done["steps"]] == [["ab", "Ġ", "ab", "ab"], ["ab", "Ġ", "abab"]]


def test_a_tie_goes_to_the_smaller_ids():
    """"ba" and "ab": both pairs once; a (U+0061) comes before b, so a b is merged."""
    assert learn(["ba", "ab"], 1)["merges"][0]["pair"] == ["a", "b"]
    assert learn(["ba", "ab"], 1)["merges"][0]["ties"] == 1
    # a merged token is numbered after every byte symbol: Ġ (U+0120) b beats ab c
    assert learn([" b ab", "abc"], 2)["merges"][1]["pair"] == ["Ġ", "b"]


def test_a_byte_the_corpus_never_had_is_refused_by_name():
    vocab = BpeVocab.learnt(["abc"], 2)
    assert vocab.tokens[:3] == ["a", "b", "c"]
    with pytest.raises(TextError, match=r"'é'|'Ã'"):
        vocab.encode("é")
