"""textsafe: control characters shown as one visible character each; JSON keeps the data."""

import json
import re

from handformer.textsafe import UNSAFE, json_escaped, normalized, shown


def test_control_characters_become_visible_stand_ins_of_the_same_length():
    text = "a\x1b[2Jb\x07c\x00d\x7fe\x9bf\u202eg\th\n"
    assert shown(text) == "a\u241b[2Jb\u2407c\u2400d\u2421e\ufffdf\ufffdg\th\n"
    assert len(shown(text)) == len(text)


def test_every_unsafe_character_is_unprintable():
    """shown skips the pattern's search for text printable but for line breaks, tabs and
    no-break spaces: such text holds no unsafe character only because none is printable."""
    assert not [c for c in map(chr, range(0x110000)) if re.match(UNSAFE, c) and c.isprintable()]
    for c in ("\x1b", "\x85", "\u2028", "\u202e", "\ud800"):
        assert shown(f"a\nb\t\u00a0{c}") == "a\nb\t\u00a0" + ("\u241b" if c == "\x1b" else "\ufffd")


def test_ordinary_text_is_untouched():
    text = "Step 7 · Q Kᵀ / √d_k → 注意力 ─── café"
    assert shown(text) == text


def test_json_escapes_keep_the_data_and_hide_the_bytes():
    word = "\u202eevil\x9b31m"
    text = json_escaped(json.dumps({"w": word}, ensure_ascii=False))
    assert "\u202e" not in text and "\x9b" not in text
    assert json.loads(text) == {"w": word}


def test_nfc_makes_one_spelling():
    assert normalized("cafe\u0301") == "caf\u00e9"
