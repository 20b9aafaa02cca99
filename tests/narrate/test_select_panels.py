"""`--panels 68-75`: panels by the one number each carries (issue 19), in every text format;
with --steps it is refused, and a number past the last panel names the range."""

import re

from click.testing import CliRunner

from handformer import api, narrate
from handformer.cli import main


def test_panels_keep_exactly_the_numbered_panels_in_order():
    sections = narrate.build(api.walk(backward=True))
    kept = narrate.select(sections, "panels:68-70,3")
    assert [s.panel for s in kept] == [3, 68, 69, 70]
    assert [s.heading for s in kept] == [s.heading for s in sections if s.panel in (3, 68, 69, 70)]


def test_the_terminal_and_markdown_draw_the_panels_asked_for_with_their_numbers():
    for fmt, pattern in (("terminal", r"^Step (\d+) · "), ("markdown", r"^## (\d+) · ")):
        result = CliRunner().invoke(main, ["walk", "--backward", "--panels", "70-72",
                                           "--format", fmt, "--width", "100"])
        assert result.exit_code == 0, result.output
        found = re.findall(pattern, result.output, flags=re.M)
        assert sorted(set(found)) == ["70", "71", "72"], (fmt, found)


def test_bad_panel_choices_are_refused_with_the_range():
    runner = CliRunner()
    past = runner.invoke(main, ["walk", "--panels", "3-999"])
    assert past.exit_code == 2 and "numbered 1 to" in past.output
    both = runner.invoke(main, ["walk", "--panels", "3", "--steps", "4"])
    assert both.exit_code == 2 and "give one of them" in both.output
    words = runner.invoke(main, ["walk", "--panels", "x"])
    assert words.exit_code == 2 and "'x'" in words.output


def test_the_help_says_which_numbers_each_option_takes():
    text = " ".join(CliRunner().invoke(main, ["walk", "--help"]).output.split())
    assert "--panels TEXT only these panels, by the number each one carries" in text
    assert "to pick panels by their own numbers use --panels" in text
