"""Training pairs from the corpus box: cut at a tab, else at the first comma of either width."""

from __future__ import annotations

from handformer.server.training import split_lines


def test_a_tab_or_the_first_comma_of_either_width_cuts_a_line():
    assert split_lines(["我爱你，I love you", "a b\tc, d", "x, y, z", "winter is coming"]) == [
        ("我爱你", "I love you"), ("a b", "c, d"), ("x", "y, z"),
        ("winter is coming", "winter is coming")]
