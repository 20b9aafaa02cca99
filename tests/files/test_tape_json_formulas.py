"""A tape read back from JSON keeps every step's formula, BERT-family ops included."""

import json
import subprocess
import sys

import numpy as np
import pytest


@pytest.mark.process
def test_gelu_and_pooling_formulas_survive_a_round_trip_in_a_fresh_process(tmp_path):
    from handformer.engine.tape import Tape
    from handformer.families.bert import ops  # noqa: F401  (registers gelu, mean_pool, l2_normalize)
    from handformer.files.tape_json import dumps

    tape = Tape({})
    x = tape.constant("x", np.array([[0.5, -1.0], [2.0, 0.0]]))
    g = tape.run("gelu", "gelu", [x])
    tape.run("pooled", "l2_normalize", [g])
    path = tmp_path / "t.json"
    path.write_text(dumps(tape), encoding="utf-8")
    script = (
        "import sys, json\n"
        "from handformer.files.tape_json import loads\n"
        f"t = loads(open({str(path)!r}, encoding='utf-8').read())\n"
        "print(json.dumps([t.index['gelu'].formula, t.index['pooled'].formula]))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    gelu_formula, norm_formula = json.loads(out.stdout)
    assert gelu_formula == tape.index["gelu"].formula and "erf" in gelu_formula.lower()
    assert norm_formula == tape.index["pooled"].formula and norm_formula
