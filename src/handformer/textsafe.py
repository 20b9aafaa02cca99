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
# line and paragraph separators: characters that move the cursor or reorder what is shown.
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029"
                    "\u202a-\u202e\u2066-\u2069]")


def _stand_in(match: re.Match) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # the Control Pictures block: ␀ … ␟, ␛ for ESC
    return "\u2421" if code == 0x7F else "\ufffd"


def shown(text: str) -> str:
    """``text`` safe to print: each control character replaced by one visible character."""
    if text.isascii() and text.isprintable() or not UNSAFE.search(text):
        return text  # the usual line: one scan, no new string
    return UNSAFE.sub(_stand_in, text)


def json_escaped(text: str) -> str:
    """JSON text with the unsafe characters written as \\uXXXX escapes: the same data when
    parsed, nothing a terminal acts on when printed (json.dumps escapes only C0)."""
    return UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def normalized(text: str) -> str:
    """NFC: one spelling for every accented letter, whatever the editor saved."""
    return unicodedata.normalize("NFC", text)
