"""Text from files on its way in (one Unicode form) and on its way out (no control sequences).

In: a sentence typed on one system and a corpus saved on another may spell "é" as one code
point or as "e" plus a combining accent; NFC makes them the same word. Out: words come from
corpora, tapes and checkpoints that other people made, and a word holding ESC ] 52 (a clipboard
write), ESC [ 2 J (clear the screen), NUL or a right-to-left override would act on the reader's
terminal. ``shown`` swaps each such character for a visible stand-in of the same width.
"""

from __future__ import annotations

import re
import unicodedata

# C0 controls but tab and newline, DEL, C1 controls, bidirectional overrides and isolates,
# line and paragraph separators: characters that move the cursor or reorder what is shown;
# and lone surrogates, which are no text at all (no encoding can write them).
# Every one of them is unprintable (str.isprintable), so printable text is safe as it is. The
# patterns are compiled by ``re`` when first used: a walk's lines are printable and need none.
UNSAFE = ("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029"
          "\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE = r"\\u[dD][89a-fA-F]"  # how JSON text spells one


def _stand_in(match: re.Match) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # the Control Pictures block: ␀ … ␟, ␛ for ESC
    return "\u2421" if code == 0x7F else "\ufffd"


def shown(text: str) -> str:
    """``text`` safe to print: each control character replaced by one visible character."""
    if _printable(text) or not re.search(UNSAFE, text):
        return text  # the usual text: no new string
    return re.sub(UNSAFE, _stand_in, text)


def _printable(text: str) -> bool:
    """Printable but for line breaks, tabs and no-break spaces (a page, a table): then it holds
    no unsafe character, each of which is unprintable. Told by C loops that cost a third of
    the pattern's search (a page is most of a megabyte)."""
    return text.replace("\n", " ").replace("\t", " ").replace("\xa0", " ").isprintable()


def one_line(text: str) -> str:
    """``text`` shown safe on one line: a newline in a file name cannot forge a second
    line (an "error:" that handformer never said)."""
    return shown(text).replace("\n", "\u240a").replace("\t", "\u2409")


def json_loads(text: str, what: str, error: type[Exception]):
    """Parsed JSON, refused with ``error`` when a string in it holds a lone surrogate
    (``"\\ud800"``): it parses, but no page, tape or terminal can write it later."""
    import json

    data = json.loads(text)  # its errors (and RecursionError) are the caller's to word
    if re.search(_SURROGATE_ESCAPE, text) and _holds_surrogate(data):
        raise error(f"{what} holds a lone surrogate escape (such as \\ud800), which is not "
                    "a character; remove it")
    return data


def _holds_surrogate(value) -> bool:
    if isinstance(value, str):
        return SURROGATE.search(value) is not None
    if isinstance(value, dict):
        return any(_holds_surrogate(k) or _holds_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_holds_surrogate(v) for v in value)
    return False


def json_escaped(text: str) -> str:
    """JSON text with the unsafe characters written as \\uXXXX escapes: the same data when
    parsed, nothing a terminal acts on when printed (json.dumps escapes only C0)."""
    return re.sub(UNSAFE, lambda m: f"\\u{ord(m.group()):04x}", text)


def normalized(text: str) -> str:
    """NFC: one spelling for every accented letter, whatever the editor saved."""
    return unicodedata.normalize("NFC", text)
