"""Class "environment": figures when matplotlib's folders cannot be written (a read-only HOME,
HOME a file, HOME under /proc). The figure is drawn, stderr holds only the "wrote" line (no
matplotlib warning), and the temporary folder used instead is gone afterwards."""

import importlib.util

import pytest

from support.clirun import run

pytestmark = pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None,
                                reason="figures need matplotlib")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"  # the PNG specification, section 5.2


@pytest.mark.parametrize("home", ["file", "/proc", "read-only"])
def test_figures_with_an_unwritable_home_print_no_warning(tmp_path, home):
    if home == "file":
        home = tmp_path / "home-is-a-file"
        home.write_text("", encoding="utf-8")
    elif home == "read-only":
        home = tmp_path / "home"
        (home / ".config").mkdir(parents=True)
        (home / ".cache").mkdir()
        for folder in (home / ".config", home / ".cache", home):
            folder.chmod(0o555)
        try:
            (home / ".config" / "probe").mkdir()
        except PermissionError:
            pass
        else:
            pytest.skip("this user writes into read-only folders (root)")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {"HOME": str(home), "TMPDIR": str(tmp), "XDG_CONFIG_HOME": "", "XDG_CACHE_HOME": "",
           "MPLCONFIGDIR": ""}
    out = tmp_path / "out"
    out.mkdir()
    result = run("walk", "--format", "png", "--step", "src_embed.tok", "-o", "f.png", cwd=out,
                 env=env)
    assert result.returncode == 0, result.stderr.decode()
    assert result.stderr.decode().strip().splitlines() == ["wrote f.png"]
    assert (out / "f.png").read_bytes().startswith(PNG_SIGNATURE)
    assert list(tmp.iterdir()) == []  # the temporary config folder removed at exit
