"""Class "environment": figures when matplotlib's folders cannot be written (a read-only HOME,
HOME a file, HOME under /proc). The figure is drawn, stderr holds only the "wrote" line (no
matplotlib warning), and the temporary folder used instead is gone afterwards."""

import importlib.util
import subprocess

import pytest

from support.clirun import run
from support.unprivileged import as_nobody, env_for_nobody

pytestmark = [pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None,
                                 reason="figures need matplotlib"),
              pytest.mark.process]  # a HOME and a user of the case's own
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"  # the PNG specification, section 5.2


@pytest.mark.parametrize("home", ["file", "/proc", "read-only"])
def test_figures_with_an_unwritable_home_print_no_warning(tmp_path, open_folder, home):
    """Root writes into read-only folders, so as root the read-only case runs as user nobody."""
    base, user, env = tmp_path, [], {}
    if home == "file":
        home = tmp_path / "home-is-a-file"
        home.write_text("", encoding="utf-8")
    elif home == "read-only":
        base, user, env = open_folder, as_nobody(), env_for_nobody()
        home = base / "home"
        (home / ".config").mkdir(parents=True)
        (home / ".cache").mkdir()
        for folder in (home / ".config", home / ".cache", home):
            folder.chmod(0o555)
    tmp, out = base / "tmp", base / "out"
    for folder in (tmp, out):
        folder.mkdir()
        folder.chmod(0o777)
    env |= {"HOME": str(home), "TMPDIR": str(tmp), "XDG_CONFIG_HOME": "", "XDG_CACHE_HOME": "",
            "MPLCONFIGDIR": ""}
    result = run("walk", "--format", "png", "--step", "src_embed.tok", "-o", "f.png", cwd=out,
                 env=env, user=user)
    assert result.returncode == 0, result.stderr.decode()
    assert result.stderr.decode().strip().splitlines() == ["wrote f.png"]
    assert (out / "f.png").read_bytes().startswith(PNG_SIGNATURE)
    assert list(tmp.iterdir()) == []  # the temporary config folder removed at exit
    if user:  # nobody really could not write there
        probe = subprocess.run([*user, "mkdir", str(home / ".config" / "probe")],
                               capture_output=True, text=True)
        assert probe.returncode != 0 and "Permission denied" in probe.stderr
