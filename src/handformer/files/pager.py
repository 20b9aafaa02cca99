"""A walk taller than the terminal goes through a pager (`less -R`, as git and man do), so its
first screen is read first and its end is one key away. Only when standard output is a
terminal: a pipe, a file or `--format` other than the terminal's gets the text as it is.
HANDFORMER_PAGER names another pager; set to `cat` or to nothing, it turns paging off."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess

DEFAULT = "less -R"  # -R: the walk's colours pass through as colours, not as escape codes
OFF = ("", "cat")


def pager_command(environ=None) -> list[str] | None:
    """The pager to run (HANDFORMER_PAGER, else `less -R` where less is installed), or None."""
    environ = os.environ if environ is None else environ
    chosen = environ.get("HANDFORMER_PAGER", DEFAULT).strip()
    if chosen in OFF:
        return None
    command = shlex.split(chosen)
    return command if shutil.which(command[0]) else None


def wanted(stream, text: str, environ=None) -> bool:
    """Whether ``text`` should be paged: ``stream`` is a terminal and the text is taller."""
    try:
        if not stream.isatty():
            return False
    except (AttributeError, ValueError):  # a closed or test stream
        return False
    return text.count("\n") > shutil.get_terminal_size().lines and bool(pager_command(environ))


def page(text: str, encoding: str = "utf-8", environ=None) -> bool:
    """Show ``text`` through the pager; False when none could start (then print it plainly).
    A reader who quits the pager early ends the walk quietly."""
    command = pager_command(environ)
    try:
        data = text.encode(encoding)
        pager = None if command is None else subprocess.Popen(command, stdin=subprocess.PIPE)
    except (UnicodeEncodeError, OSError):  # printed plainly, its error is said there
        return False
    if pager is None:
        return False
    try:
        pager.stdin.write(data)
        pager.stdin.close()
    except (BrokenPipeError, KeyboardInterrupt):
        pass
    _wait(pager)
    return True


def _wait(pager: subprocess.Popen) -> None:
    """Wait for the reader to leave the pager; Ctrl-C belongs to the pager meanwhile."""
    while True:
        try:
            pager.wait()
            return
        except KeyboardInterrupt:
            continue
