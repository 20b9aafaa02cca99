"""Tokenizers for real text; every expectation below is written out by hand."""

import pytest
from click.testing import CliRunner

from handformer.cli import main
from handformer.text import UNK, TextError, Vocab
from handformer.tokenize import TokenizerError, corpus_warning, detokenize, tokenize


def test_tutorial_rule_is_unchanged():
    line = "The true enemy won't wait out the storm, He brings the storm."
    assert tokenize(line) == ["the", "true", "enemy", "won't", "wait", "out", "the", "storm",
                              "he", "brings", "the", "storm"]
    assert tokenize("Winter is coming!") == ["winter", "is", "coming!"]


def test_english_words_split_punctuation_off():
    assert tokenize("Winter is coming!", "words") == ["winter", "is", "coming", "!"]
    assert tokenize("Hello, teacher! Won't you?", "words") == [
        "hello", ",", "teacher", "!", "won't", "you", "?"]
    assert tokenize("a well-known (rule).", "words") == ["a", "well-known", "(", "rule", ")",
                                                         "."]


def test_chinese_by_characters_with_full_width_punctuation():
    assert tokenize("你爱我，我爱你。", "char") == ["你", "爱", "我", "，", "我", "爱", "你", "。"]
    assert tokenize("老师，您好！", "char") == ["老", "师", "，", "您", "好", "！"]
    # full-width letters and digits read as ASCII; the full-width mark stays itself
    assert tokenize("ＡＢＣ１２３！", "char") == ["abc123", "！"]
    assert tokenize("我有3本书", "char") == ["我", "有", "3", "本", "书"]


def test_words_keeps_spaced_chinese_words():
    assert tokenize("我 喜欢 学 中文。", "words") == ["我", "喜欢", "学", "中文", "。"]


def test_jieba_words():
    pytest.importorskip("jieba")
    assert tokenize("我喜欢学中文", "jieba") == ["我", "喜欢", "学", "中文"]
    assert tokenize("老师，您好！", "jieba")[:2] == ["老师", "，"]


def test_unknown_tokenizer_is_refused():
    with pytest.raises(TokenizerError, match="choose one of tutorial, words, char, jieba, bpe"):
        tokenize("x", "sentencepiece")


def test_detokenize_glues_chinese_and_punctuation():
    assert detokenize(["winter", "is", "coming", "!"]) == "winter is coming!"
    assert detokenize(["你", "爱", "我", "，", "我", "爱", "你", "。"]) == "你爱我，我爱你。"
    assert detokenize(["he", "said", "(", "twice", ")", "."]) == "he said (twice)."


def test_vocabulary_limits_by_frequency_and_count():
    lines = ["a b a c", "a b d"]  # counts a 3, b 2, c 1, d 1
    assert Vocab.from_corpus(lines, tokenizer="words").words == ("a", "b", "c", "d")
    assert Vocab.from_corpus(lines, tokenizer="words", min_count=2).words == ("a", "b")
    # the two most frequent, kept in first-appearance order; a tie goes to the earlier word
    assert Vocab.from_corpus(["d c c b b b"], tokenizer="words", max_size=2).words == ("c", "b")
    assert Vocab.from_corpus(["x y z"], tokenizer="words", max_size=2).words == ("x", "y")
    vocab = Vocab.from_corpus(lines, specials=("<start>", "<end>", UNK), tokenizer="words",
                              min_count=2)
    assert vocab.encode("a c b") == [0, vocab.id(UNK), 1]
    assert vocab.unknown("a c b") == ["c"]


def test_corpus_warning_says_what_happened_to_a_word():
    said = corpus_warning(["Winter is coming!"], "words")
    assert said == "tokenizer words: 'coming!' → coming !"
    said = corpus_warning(["Winter is coming!"], "tutorial")
    assert "'coming!' keeps its punctuation" in said and "--tokenizer words" in said
    assert corpus_warning(["winter is coming"], "words") is None


def test_unknown_word_error_points_at_the_tokenizer():
    vocab = Vocab.from_corpus(["Winter is coming!"])
    with pytest.raises(TextError, match="The corpus has 'coming!'.*--tokenizer words"):
        vocab.encode("winter is coming")


def test_walk_corpus_with_words_and_char_tokenizers(tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_text("Winter is coming!\n你爱我，我爱你。\n", encoding="utf-8")
    run = CliRunner()
    result = run.invoke(main, ["walk", "--corpus", str(corpus), "--src", "winter is coming",
                               "--tgt", "winter", "--steps", "3"])
    assert result.exit_code == 2 and "--tokenizer words" in result.output
    result = run.invoke(main, ["walk", "--corpus", str(corpus), "--tokenizer", "char",
                               "--src", "winter is coming", "--tgt", "我爱你", "--steps", "3",
                               "--width", "200"])
    assert result.exit_code == 0, result.output
    assert "'coming!' → coming !" in result.output  # the warning (stderr is mixed in)
    assert "你→4, 爱→5, 我→6, ，→7" in result.output  # winter is coming ! take ids 0-3


def test_bpe_needs_the_merges_its_vocabulary_holds():
    with pytest.raises(TokenizerError, match="--family gpt"):
        tokenize("the storm", "bpe")
