"""matplotlib for handformer's figures: whether it is installed, a configuration folder it can
write, and the fonts of each language, for text and for formulas. matplotlib itself is imported
only in ``pyplot``, when a figure is drawn."""

from __future__ import annotations

import unicodedata
from pathlib import Path

from .. import i18n
from ..errors import HandformerError


def need_matplotlib() -> None:
    """A missing optional extra is one line naming the pip command, never a traceback."""
    from importlib.util import find_spec

    if find_spec("matplotlib") is None:
        raise HandformerError("figures (svg, png, train --plot) need matplotlib: "
                              "pip install -e '.[plot]' in handformer's checkout")


def writable_config_dir() -> None:
    """Point MPLCONFIGDIR at a fresh temporary folder (removed at exit) when matplotlib's own
    folders for its configuration and font cache cannot be written (a read-only HOME, HOME
    unset or a file), so it never prints its "created a temporary cache directory" warning.
    Only before matplotlib is first imported: it reads the variable once."""
    import os
    import sys

    if "matplotlib" in sys.modules:
        return
    home = Path(os.environ.get("HOME") or "~").expanduser()
    if os.environ.get("MPLCONFIGDIR"):
        folders = [Path(os.environ["MPLCONFIGDIR"])]
    else:
        folders = [Path(os.environ.get(xdg) or home / default) / "matplotlib"
                   for xdg, default in (("XDG_CONFIG_HOME", ".config"),
                                        ("XDG_CACHE_HOME", ".cache"))]
    if all(_writable(folder) for folder in folders):
        return
    import atexit
    import shutil
    import tempfile

    try:
        folder = tempfile.mkdtemp(prefix="handformer-matplotlib-")
    except OSError:
        return  # no writable temporary folder either: matplotlib says so itself
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    os.environ["MPLCONFIGDIR"] = folder


def _writable(folder: Path) -> bool:
    """What matplotlib asks of the folder: it can be made, is a folder and can be written."""
    import os

    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return folder.is_dir() and os.access(folder, os.W_OK)


def pyplot(lang: str = "en"):
    """matplotlib's pyplot on the Agg backend, set for ``lang``: its figure fonts for text,
    math_fonts for formulas; the one line of need_matplotlib where it is missing."""
    need_matplotlib()
    writable_config_dir()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fonts = [font.strip() for font in i18n.t(lang, "figure.fonts").split(",")]
    plt.rcParams.update({"font.family": fonts, "svg.hashsalt": "handformer",
                         "axes.unicode_minus": False, **math_fonts(fonts)})
    return plt


def math_fonts(fonts: list[str]) -> dict[str, str]:
    r"""matplotlib's settings for formulas. DejaVu Sans draws them (letters, digits and symbols
    alike, in every language), but it has no CJK glyph, and mathtext draws ``\text{…}`` in its
    upright font, not the figure's font list: 中文's ``N = |\text{不同词的集合}|`` came out as
    empty boxes. A formula holding such characters is drawn in the "custom" set (math_font):
    upright in the language's first figure font other than DejaVu Sans (Noto Sans CJK SC),
    italic, bold and symbols in DejaVu Sans."""
    upright = next((f for f in fonts if f != "DejaVu Sans"), "DejaVu Sans")
    return {"mathtext.fontset": "dejavusans", "mathtext.rm": upright,
            "mathtext.it": "DejaVu Sans:italic", "mathtext.bf": "DejaVu Sans:bold",
            "mathtext.sf": "DejaVu Sans", "mathtext.tt": "DejaVu Sans Mono",
            "mathtext.cal": "DejaVu Sans", "mathtext.bfit": "DejaVu Sans:italic:bold",
            "mathtext.fallback": "stixsans"}


def math_font(latex: str) -> dict[str, str]:
    """The keyword that draws ``latex`` in math_fonts' custom set where it holds a wide (CJK)
    character; none otherwise."""
    if any(unicodedata.east_asian_width(ch) in "WF" for ch in latex):
        return {"math_fontfamily": "custom"}
    return {}
