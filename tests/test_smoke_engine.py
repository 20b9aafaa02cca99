"""The engine against torch.nn.Transformer on one small config (full coverage: test_model_torch)."""

import numpy as np

from handformer.config import preset
from handformer.interop.torch_ref import TorchReference
from handformer.model import forward, init_params
from handformer.tape import Tape


def test_small_preset_matches_torch_at_every_stage():
    cfg = preset("small")
    params = init_params(cfg, 25)
    tape = Tape(params)
    src, tgt = np.array([5, 6, 7, 8, 9, 10, 11]), np.array([23, 6, 12, 13, 6, 14])
    forward(tape, cfg, src, tgt)
    reference = TorchReference(params, cfg).stages(src, tgt)
    assert set(reference) >= {"src_embed.out", "encoder.1.out", "decoder.1.out", "generator.logits"}
    for name, expected in reference.items():
        np.testing.assert_allclose(tape[name], expected, rtol=0, atol=1e-10, err_msg=name)


def test_walk_never_imports_torch_jinja2_or_matplotlib():
    """The start-up path stays light (benchmarks/startup.py measures its time)."""
    import subprocess
    import sys

    code = (
        "import contextlib, io, sys\n"
        "from handformer.cli import main\n"
        "for lang in ('en', 'zh'):\n"
        "    with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "        main(['walk', '--lang', lang], standalone_mode=False)\n"
        "    assert len(out.getvalue()) > 1000\n"
        "print(sorted(m for m in ('torch', 'jinja2', 'matplotlib') if m in sys.modules))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "[]"
