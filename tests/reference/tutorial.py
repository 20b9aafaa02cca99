"""The tutorial's example as the project's specification spells it, written out here rather
than read from the engine: its three sentences, the pair it walks, its sizes, its tokenizing."""

from .model import Sizes

DATASET = ["I drink and I know things.",
           "When you play the game of thrones, you win or you die.",
           "The true enemy won't wait out the storm, He brings the storm."]
SRC, TGT = "when you play the game of thrones", "you win or you die"
TUTORIAL = Sizes(d_model=6, enc_heads=1, dec_heads=2, d_k=4, d_v=4, ffn="single",
                 attn_bias=False, scale_embeddings=False, final_norm=False)


def words(sentence: str) -> list[str]:
    """Lower-case, drop "." and ",", split on white space."""
    return sentence.lower().replace(".", "").replace(",", "").split()


def vocabulary() -> list[str]:
    """Words in order of first appearance, then <start> and <end>."""
    seen = []
    for line in DATASET:
        for w in words(line):
            if w not in seen:
                seen.append(w)
    return seen + ["<start>", "<end>"]
