"""A model's translations scored against the references (the translations are the family's
greedy ones: its registry entry's ``pairs.translate_all``).

The scores are the ones the field reports, computed by sacrebleu: its default corpus BLEU
(cased; its ``13a`` tokenizer for English targets, its ``zh`` tokenizer, every Chinese character
a word, for Chinese ones), so the score does not depend on how handformer's own tokenizer cut
the words; chrF2 (character 6-grams, β 2); and, beside them, the lower-cased BLEU, which
forgives a capital letter that a lower-cased vocabulary cannot produce.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import HandformerError
from ..text import Sides, Vocab


@dataclass(frozen=True)
class Scores:
    """sacrebleu's default BLEU (cased), chrF2 and the lower-cased BLEU, each 0–100, and the
    BLEU tokenizer they were computed with."""
    bleu: float
    chrf: float
    bleu_lower: float
    tokenize: str

    def as_stats(self, prefix: str) -> dict:
        """The three numbers under a run's history names (``val_bleu``, ``val_chrf``, …)."""
        return {f"{prefix}bleu": self.bleu, f"{prefix}chrf": self.chrf,
                f"{prefix}bleu_lower": self.bleu_lower}


def _sacrebleu():
    try:
        import sacrebleu
    except ImportError:
        raise HandformerError("BLEU needs the sacrebleu package: "
                              "pip install -e '.[corpus]' in handformer's checkout") from None
    return sacrebleu


def bleu_tokenizer(target: str) -> str:
    """sacrebleu's tokenizer for a target language: 'zh' splits Chinese by character."""
    return "zh" if target == "zh" else "13a"


def corpus_bleu(hypotheses: list[str], references: list[str], target: str = "en",
                lowercase: bool = False) -> float:
    """sacrebleu's corpus BLEU (0–100), cased unless ``lowercase``."""
    return _sacrebleu().corpus_bleu(hypotheses, [references], tokenize=bleu_tokenizer(target),
                                    lowercase=lowercase).score


def corpus_scores(hypotheses: list[str], references: list[str], target: str = "en") -> Scores:
    """BLEU (cased), chrF2 and lower-cased BLEU of the hypotheses against one reference each."""
    chrf = _sacrebleu().corpus_chrf(hypotheses, [references]).score
    return Scores(corpus_bleu(hypotheses, references, target), chrf,
                  corpus_bleu(hypotheses, references, target, lowercase=True),
                  bleu_tokenizer(target))


def scores_of(params, cfg, vocab: Vocab | Sides, pairs, source: str) -> Scores:
    """The scores of the model's greedy translations of ``pairs``' sources against their
    targets (NaN for no pairs)."""
    from .datasets import target_language

    if not pairs:
        nan = float("nan")
        return Scores(nan, nan, nan, bleu_tokenizer(target_language(source)))
    from ..families.registry import for_pairs

    hyps = for_pairs().pairs.translate_all(params, cfg, vocab, [s for s, _ in pairs])
    return corpus_scores(hyps, [t for _, t in pairs], target_language(source))


def bleu_of(params, cfg, vocab: Vocab | Sides, pairs, source: str) -> float:
    """The cased BLEU of the model's greedy translations of ``pairs`` (NaN for no pairs)."""
    return scores_of(params, cfg, vocab, pairs, source).bleu
