"""The tutorial's dataset and tokenizer exactly as the tutorial gives them; corpora from files."""

import pytest

from handformer.text import (
    TUTORIAL_DATASET,
    TextError,
    Vocab,
    make_example,
    read_corpus,
    tokenize,
)

# The tutorial's 23 unique words, in order of first appearance.
SPEC_WORDS = ("i drink and know things when you play the game of thrones win or die true enemy "
              "won't wait out storm he brings").split()


def test_tokenize_lowercases_drops_dots_and_commas_keeps_apostrophes():
    assert tokenize("The true enemy won't wait out the storm, He brings the storm.") == [
        "the", "true", "enemy", "won't", "wait", "out", "the", "storm", "he", "brings", "the",
        "storm"]
    assert tokenize("a,b.c") == ["a", "b", "c"]


def test_tutorial_dataset_has_30_words_23_unique():
    words = [w for s in TUTORIAL_DATASET for w in tokenize(s)]
    assert len(words) == 30
    vocab = Vocab.from_corpus(TUTORIAL_DATASET)
    assert vocab.words == tuple(SPEC_WORDS) and len(vocab.words) == 23
    assert vocab.id("<start>") == 23 and vocab.id("<end>") == 24 and len(vocab) == 25
    assert vocab.id("i") == 0 and vocab.id("brings") == 22


def test_tutorial_example_teacher_forcing():
    vocab = Vocab.from_corpus(TUTORIAL_DATASET)
    ex = make_example(vocab, "when you play the game of thrones", "you win or you die", 64)
    assert ex.src_ids == [5, 6, 7, 8, 9, 10, 11]  # 7 tokens (D17 in docs/errata.md: "the" stays)
    assert ex.tgt_tokens == ["<start>", "you", "win", "or", "you", "die"]
    assert ex.out_tokens == ["you", "win", "or", "you", "die", "<end>"]
    assert ex.tgt_ids == [23, 6, 12, 13, 6, 14] and ex.out_ids == [6, 12, 13, 6, 14, 24]
    assert vocab.decode(ex.out_ids) == ex.out_tokens


def test_unknown_word_message():
    vocab = Vocab.from_corpus(TUTORIAL_DATASET)
    with pytest.raises(TextError) as err:
        vocab.encode("you win dragons", "source sentence")
    message = str(err.value)
    assert "'dragons'" in message and "vocabulary comes from the corpus (23 words)" in message


def test_length_limit_counts_start():
    vocab = Vocab.from_corpus(TUTORIAL_DATASET)
    make_example(vocab, "you win", "you win or", 4)
    with pytest.raises(TextError, match=r"3 words \(\+1 for <start>\).*maximum length 3"):
        make_example(vocab, "you win", "you win or", 3)


def test_corpus_file(tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_bytes("\ufeffWhen in Rome,\r\n\r\ndo as the Romans do.\n".encode())
    lines = read_corpus(corpus)
    assert lines == ["When in Rome,", "do as the Romans do."]
    vocab = Vocab.from_corpus(lines)
    assert vocab.words == ("when", "in", "rome", "do", "as", "the", "romans")  # BOM dropped


def test_chinese_corpus_is_utf8(tmp_path):
    corpus = tmp_path / "zh.txt"
    corpus.write_text("我 喝 酒\n我 知道 事情\n", encoding="utf-8")
    vocab = Vocab.from_corpus(read_corpus(corpus))
    assert vocab.words == ("我", "喝", "酒", "知道", "事情")


def test_corpus_errors(tmp_path):
    with pytest.raises(TextError, match="does not exist"):
        read_corpus(tmp_path / "missing.txt")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"ok\n\xff\xfe\n")
    with pytest.raises(TextError, match=r"not UTF-8 \(byte 3\)"):
        read_corpus(bad)
    with pytest.raises(TextError, match="cannot read"):
        read_corpus(tmp_path)
