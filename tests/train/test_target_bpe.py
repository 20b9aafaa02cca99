"""`train --target-bpe N`: the target side as byte-level BPE, cased, every byte in its table,
so no translation holds <unk>; its merges are bpe.learn's (itself checked against Hugging
Face's trainer), learnt faster; checkpoints keep it."""

import pytest

from handformer import bpe
from handformer.train import checkpoint, loop
from handformer.train.target_bpe import learn_merges, target_vocab
from support.clirun import run_here

NAMES = ["Tom", "Mary", "Paris", "London", "Beijing", "Ken", "Anna", "Oslo"]
VERBS = ["likes", "visits", "sees", "paints", "knows", "misses"]


def made_up_pairs(n: int) -> list[tuple[str, str]]:
    """Chinese-looking sources and cased English targets; the numbers make most targets' last
    word one no other pair has (a word a word vocabulary would read as <unk>)."""
    return [(f"{'甲乙丙丁戊己庚辛'[i % 8]}{'说看想走'[i % 4]} {i}",
             f"{NAMES[i % 8]} {VERBS[i % 6]} {NAMES[(i // 8) % 8]} number{i}.")
            for i in range(n)]


def test_the_merges_are_bpe_learns():
    lines = [t for _, t in made_up_pairs(150)] + ["Who's there? It's me, Anna!", "naïve café"]
    for merges in (1, 30, 120):
        expected = [tuple(m["pair"]) for m in bpe.learn(lines, merges)["merges"]]
        assert learn_merges(lines, merges) == expected


def test_every_byte_is_in_the_table_and_text_comes_back_as_written():
    vocab = target_vocab([t for _, t in made_up_pairs(60)], 40)
    assert len(vocab.words) == 256 + 40 and "<unk>" not in vocab.tokens
    for text in ("Zoë met KEN in Zürich!", "number99999.", "“Quotes” — and 中文"):
        ids = vocab.encode(text)
        assert vocab.joined(vocab.decode(ids)) == text  # cased, every byte kept
        assert vocab.tokenize(text) == bpe.segment(text, list(vocab.merges))["tokens"]


@pytest.fixture
def folder(tmp_path):
    lines = "".join(f"{s}\t{t}\n" for s, t in made_up_pairs(200))
    (tmp_path / "p.tsv").write_text(lines, "utf-8")
    return tmp_path


def test_no_translation_holds_unk_and_the_checkpoint_keeps_the_vocabulary(folder):
    out = run_here("train", "--pairs", "p.tsv", "--preset", "small", "--d-model", "16",
                   "--heads", "2", "--d-ff", "16", "--layers", "1", "--epochs", "2",
                   "--target-bpe", "60", "--quiet", cwd=folder)
    assert out.returncode == 0, out.stderr.decode()
    ckpt = checkpoint.load(folder / "handformer.ckpt")
    target = ckpt.vocab.target
    assert target.tokenizer == "bpe" and len(target.merges) == 60
    assert "<unk>" not in target.tokens and "<unk>" in ckpt.vocab.source.tokens
    pairs = made_up_pairs(200)
    test = loop.held_out(ckpt, pairs, "test")
    trained_words = {w for _, t in loop.held_out(ckpt, pairs, "train") for w in t.split()}
    unseen = [t for _, t in test if not set(t.split()) <= trained_words]
    assert unseen  # test targets with a word the training part never had ...
    for text in unseen:  # ... read back whole, cased, with no <unk>
        assert target.joined(target.decode(target.encode(text))) == text
    from handformer.families.registry import for_pairs

    hyps = for_pairs().pairs.translate_all(ckpt.params, ckpt.config, ckpt.vocab,
                                           [s for s, _ in test])
    assert len(hyps) == len(test) and not any("<unk>" in h for h in hyps)
    evaluated = run_here("evaluate", "--checkpoint", "handformer.ckpt", "--pairs", "p.tsv",
                         "--beam", "2", "--output", "hyps.txt", cwd=folder)
    assert evaluated.returncode == 0, evaluated.stderr.decode()
    assert "<unk>" not in (folder / "hyps.txt").read_text("utf-8")


def test_a_shared_vocabulary_is_refused_in_one_line(folder):
    out = run_here("train", "--pairs", "p.tsv", "--shared-vocab", "--target-bpe", "10",
                   cwd=folder)
    lines = out.stderr.decode().splitlines()
    assert out.returncode == 2 and len(lines) == 1 and "one vocabulary per side" in lines[0]


@pytest.mark.parametrize("source, given, merges", [
    ("tatoeba:zh-en:simplified", {}, 4000),  # the default: English as BPE
    ("tatoeba:zh-en:as-written", {"target_bpe": 900}, 900),
    ("tatoeba:zh-en:simplified", {"target_bpe": 0}, None),  # 0: words, truecased
    ("tatoeba:zh-en:simplified", {"shared_vocab": True}, None),  # one table: words
    ("tatoeba:en-zh:simplified", {}, None),  # a Chinese target stays characters
    ("hsk:zh-en:1,2,3", {}, None),  # 1,546 pairs: too few for 4,000 merges
    ("p.tsv", {}, None),
])
def test_tatoeba_into_english_defaults_to_a_bpe_target(source, given, merges):
    from handformer.commands.train_options import corpus_defaults

    assert corpus_defaults(given, source, "small").get("target_bpe") == merges
