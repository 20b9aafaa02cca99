"""`--steps`: tutorial step numbers, ranges, single numbers, comma lists; bad specs name the valid."""

import pytest

from handformer import api, narrate
from handformer.errors import HandformerError


@pytest.fixture(scope="module")
def sections():
    return narrate.build(api.walk())


def numbers(selected):
    return sorted({s.number for s in selected}, key=lambda n: (int(n.rstrip("b")), n))


def test_a_range_keeps_the_lettered_steps_inside_it(sections):
    assert numbers(narrate.select(sections, "7-9")) == ["7", "7b", "8", "9"]


def test_a_single_number_keeps_its_continuation(sections):
    assert numbers(narrate.select(sections, "12")) == ["12", "12b"]
    assert numbers(narrate.select(sections, "12b")) == ["12b"]


def test_comma_lists_and_spaces(sections):
    assert numbers(narrate.select(sections, " 4, 6 ,13")) == ["4", "6", "13"]
    assert numbers(narrate.select(sections, "1-2,11")) == ["1", "2", "11"]


def test_no_spec_keeps_everything_in_order(sections):
    assert narrate.select(sections, None) == sections
    assert narrate.select(sections, "") == sections
    kept = narrate.select(sections, "5,4")
    assert [s.id for s in kept] == ["src_embed.tok", "src_embed.pos"]


@pytest.mark.parametrize("spec", ["99", "abc", "7-", "9-7", "1-2-3", "15"])
def test_bad_specs_name_the_valid_numbers(sections, spec):
    with pytest.raises(HandformerError) as err:
        narrate.select(sections, spec)
    message = str(err.value)
    assert repr(spec.strip()) in message
    assert "1, 2, 3, 4, 5, 6, 7, 7b, 8, 9, 10, 11, 12, 12b, 13" in message


def test_backward_steps_can_be_selected():
    sections = narrate.build(api.walk(backward=True))
    assert {s.phase for s in narrate.select(sections, "14-16")} == {"loss", "backward", "update"}
