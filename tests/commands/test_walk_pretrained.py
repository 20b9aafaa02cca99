"""`walk --pretrained` refuses the options it cannot honour instead of ignoring them."""

import pytest
from click.testing import CliRunner

from handformer.cli import main


@pytest.mark.parametrize("extra, named", [
    (["--backward"], "--backward"),
    (["--tgt", "you win"], "--tgt"),
    (["--preset", "paper"], "--preset"),
    (["--d-model", "8", "--heads", "2"], "--d-model, --heads"),
])
def test_options_that_do_not_apply_are_named(extra, named):
    result = CliRunner().invoke(main, ["walk", "--pretrained", "all-minilm-l6-v2",
                                       "--src", "hello there", *extra])
    assert result.exit_code == 2
    assert named in result.output and "Traceback" not in result.output


def test_a_sentence_is_required():
    result = CliRunner().invoke(main, ["walk", "--pretrained", "all-minilm-l6-v2"])
    assert result.exit_code == 2 and "--src" in result.output
