"""Where the tests' files are, for any test however deep in the tree."""

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent  # the repository
GOLDEN = TESTS / "golden"
SUPPORT = TESTS / "support"
