"""The truecaser: a lower-cased word target learns its corpus's case, keeps it in the checkpoint,
and gives it back to every translation (translate, evaluate, training's BLEU)."""

import json

import pytest

from handformer.errors import CheckpointError
from handformer.families.transformer.config import preset
from handformer.text import Vocab
from handformer.tokenize import target_text
from handformer.train import checkpoint, loop
from handformer.truecase import CasedVocab, learnt, recased

CORPUS = ["Tom is here.", "I saw Tom.", "Where is Paris?", "The cat sat.", "I think the dog ran.",
          "Is the THE here?"]


def test_each_word_takes_its_usual_form_away_from_the_sentence_start():
    # inside a sentence: "Tom" once, "Paris" once, "the" twice against "THE" once; "I" only
    # ever starts its sentences, so it teaches nothing
    assert dict(learnt(CORPUS)) == {"tom": "Tom", "paris": "Paris"}


def test_a_tie_keeps_the_lower_case():
    assert dict(learnt(["A Word here.", "A word here."])) == {}
    assert dict(learnt(["A Word here.", "A Word again.", "A word here."])) == {"word": "Word"}


def test_a_translation_is_recased_word_by_word_and_its_first_letter_raised():
    cases = dict(learnt(["Yes, I know.", "Do I know Tom?", "It is Tom's."]))
    assert cases == {"i": "I", "tom": "Tom", "tom's": "Tom's"}
    assert recased("i know tom .", cases) == "I know Tom ."
    assert recased("“do you know tom?”", cases) == "“Do you know Tom?”"
    assert recased("don't go, tom's here", cases) == "Don't go, Tom's here"
    assert recased("123 ...", cases) == "123 ..."
    assert recased("<unk> i know 3pm", cases) == "<unk> I know 3pm"  # a special token is not a word


def test_targets_that_do_not_begin_with_a_capital_teach_nothing():
    assert learnt(["我爱你。", "你好。"]) is None
    assert learnt(["i love you", "hello there"]) is None
    assert learnt(["Hello.", "ok then", "fine"]) is None  # 1 of 3: not most


def _run(pairs, tokenizer="words"):
    cfg = preset("small", d_model=8, heads=2, d_ff=16, layers=1)
    return loop.start(cfg, pairs, loop.Options(epochs=1, tokenizer=tokenizer, shared_vocab=False))


PAIRS = [("我 爱 你", "I love you."), ("我 想 见 汤姆", "I want to see Tom."),
         ("你 好", "Hello."), ("汤姆 是 老师", "Tom is a teacher.")]


def test_a_word_target_learns_the_case_and_the_checkpoint_keeps_it(tmp_path):
    run = _run(PAIRS)
    target = run.vocab.target
    assert isinstance(target, CasedVocab) and dict(target.cases) == {"tom": "Tom"}
    assert "tom" in target.words and "Tom" not in target.words  # the tokens stay lower-case
    assert target_text(target, ["i", "see", "tom", "."]) == "I see Tom."
    path = tmp_path / "cased.ckpt"
    checkpoint.save(path, checkpoint.Checkpoint(run.config, run.vocab, run.params))
    back = checkpoint.load(path)
    assert back.vocab == run.vocab and back.vocab.target.recased("tom .") == "Tom ."


def test_the_tutorial_tokenizer_and_a_chinese_target_stay_as_written():
    assert type(_run(PAIRS, tokenizer="tutorial").vocab.target) is Vocab
    chinese = [(t, s) for s, t in PAIRS]
    target = _run(chinese).vocab.target
    assert type(target) is Vocab and target_text(target, ["我", "爱", "你"]) == "我爱你"


@pytest.mark.parametrize("cases", [{"x": 1}, [["tom"]], [["tom", "Bob"]], [[1, 2]]])
def test_a_checkpoint_with_a_bad_truecaser_is_refused(tmp_path, cases):
    run = _run(PAIRS)
    path = tmp_path / "cased.ckpt"
    checkpoint.save(path, checkpoint.Checkpoint(run.config, run.vocab, run.params))
    raw = path.read_bytes()
    size = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8:8 + size])
    meta = json.loads(header["__metadata__"]["handformer"])
    meta["target_vocab"]["cases"] = cases
    header["__metadata__"]["handformer"] = json.dumps(meta)
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    path.write_bytes(len(text).to_bytes(8, "little") + text + raw[8 + size:])
    with pytest.raises(CheckpointError, match=r"target_vocab\.cases"):
        checkpoint.load(path)
