"""The `handformer walk` start-up path: no torch, jinja2, matplotlib or rich imported."""

import pytest

from support.processes import walk_in_a_fresh_process


@pytest.mark.parametrize("args,first_title", [
    (["walk", "--lang", "zh"], "第 1 步 · 全局概览：这里计算的模型"),  # the overview opens the walk
    (["walk", "--steps", "1"], "Step 2 · Define the dataset"),  # panel 2: the overview is 1
])
def test_walk_imports_no_heavy_module(args, first_title):
    out, heavy = walk_in_a_fresh_process(*args)
    assert heavy == []
    assert out.lstrip().startswith(first_title)


def test_each_command_is_found_in_the_module_that_defines_it():
    """COMMAND_MODULES (the lazy map) names, for every command, the module whose COMMANDS
    holds it, and misses none."""
    import importlib

    from handformer.commands import COMMAND_MODULES

    defined = {}
    for module in ("commands.walk", "commands.verify", "commands.train", "commands.translate",
                   "commands.evaluate",
                   "commands.serve", "commands.exercises", "families.bert.commands",
                   "families.gpt.commands"):
        commands = importlib.import_module(f"handformer.{module}").COMMANDS
        defined |= {command.name: module for command in commands}
    assert COMMAND_MODULES == defined


def test_walk_imports_no_other_command_module():
    import subprocess
    import sys

    code = ("import sys\nfrom handformer.cli import main\n"
            "try:\n    main(['walk', '--steps', '1'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('handformer.commands.')),"
            " file=sys.stderr)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120, check=True)
    assert result.stderr.splitlines()[-1] == "['handformer.commands.walk']"
