"""The overview says what --norm pre and --tie-embeddings change, and for the paper preset its
parameter count beside Table 3's 65M (counted again here from the paper's shapes)."""

import pytest

import handformer
from handformer.narrate import walkthrough
from handformer.render.registry import Options


def overview_text(tape, lang="en") -> str:
    sections = walkthrough(tape, Options(lang=lang, level="overview"))
    return " ".join(" ".join(s.paragraphs) for s in sections if s.id == "overview")


def paper_parameters(vocab: int, tied: bool, d=512, d_ff=2048, n=6) -> int:
    """The base model's parameters, by hand: per attention W^Q, W^K, W^V, W^O and their
    biases; per feed-forward W_1, b_1, W_2, b_2; per layer norm γ, β; n encoder layers (one
    attention, one FFN, two norms), n decoder layers (two attentions, one FFN, three norms),
    a final norm after each stack (torch.nn.Transformer's), the embeddings and W_out, b_out."""
    attention = 4 * d * d + 4 * d
    ffn = d * d_ff + d_ff + d_ff * d + d
    norm = 2 * d
    stacks = n * (attention + ffn + 2 * norm) + n * (2 * attention + ffn + 3 * norm) + 2 * norm
    tables = (1 if tied else 3) * vocab * d
    return stacks + tables + vocab


def test_the_paper_preset_states_its_count_beside_table_3():
    tape = handformer.walk(preset="paper")
    text = overview_text(tape)
    assert f"{paper_parameters(37_000, True):,} parameters" in text
    assert f"{paper_parameters(37_000, False):,}" in text
    assert "65M" in text
    here = sum(v.size for v in tape.params.values())
    assert here == paper_parameters(25, False) and f"{here:,} in this run" in text
    assert "参数" in overview_text(tape, "zh")


@pytest.mark.parametrize("lang, words", [("en", ["Pre-norm: each sublayer reads LN(X)", "W_out = Eᵀ"]),
                                         ("zh", ["前置归一化", "共享嵌入"])])
def test_the_switches_are_told_in_the_overview(lang, words):
    tape = handformer.walk(norm="pre", tie_embeddings=True, final_norm=True)
    text = overview_text(tape, lang)
    for word in words:
        assert word in text
    plain = overview_text(handformer.walk(), lang)
    assert not any(word in plain for word in words)


def test_the_recap_compares_the_loss_with_guessing_and_tells_a_small_change_apart():
    import math

    tape = handformer.walk(backward=True)
    sections = walkthrough(tape, Options(level="overview"))
    recap = " ".join(next(s for s in sections if s.id == "recap").paragraphs)
    loss = float(tape["loss"])
    assert f"ln 25 = {math.log(25):.3f}" in recap  # 25 tokens, each with p = 1/25
    assert (loss > math.log(25)) == ("did worse than that" in recap)
    from handformer.narrate.overview import apart

    assert apart(0.005612, 0.005571) == ("0.00561", "0.00557")
    assert apart(3.3851, 2.9893) == ("3.385", "2.989")
