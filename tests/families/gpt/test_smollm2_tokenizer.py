"""SmolLM2's tokenizer by hand (gguf_tokenizer.py, from the GGUF file's own vocabulary and
merges) gives the ids of the tokenizer transformers builds from the same file."""

from __future__ import annotations

import pytest

from .smollm2_file import gguf_path

# The 98 MB model file is read (seconds) by every module here: make test, not make check.
pytestmark = pytest.mark.slow

SENTENCES = [
    "when you play the game of thrones you",
    "when you play the game of thrones you win or you die",
    "The quick brown fox jumps over the lazy dog.",
    "Hello, world!",
    "I can't believe it's not butter; they'll say we'd've known.",
    "She's here, isn't she? You're right, I'm sure.",
    "  leading spaces and trailing spaces   ",
    "tabs\tand\nnewlines\n\nand\r\nwindows line ends",
    "Numbers: 3.14159, 2,718, 1000000 and 42nd.",
    "Email me at someone@example.com or visit https://huggingface.co/HuggingFaceTB.",
    "UPPER CASE WORDS AND MiXeD cAsE",
    "A sentence with — em dashes – and “curly quotes” and ‘single ones’.",
    "Ünïcödé àccents: café, naïve, façade, jalapeño, Straße.",
    "Ελληνικά, русский язык, עברית, العربية.",
    "我爱自然语言处理。",
    "今天天气很好，我们去公园散步吧！",
    "机器学习和深度学习是人工智能的分支。",
    "中文和English混合的句子。",
    "日本語のテキストも試してみましょう。",
    "한국어 문장도 있습니다.",
    "😀😃😄😁 emoji at the start",
    "I love 🍕 and 🍣!",
    "👩‍👩‍👧‍👦 a family emoji with joiners",
    "🇫🇷🇯🇵 flags",
    "✨ sparkles ✨",
    "def add(a, b):\n    return a + b\n",
    "for (int i = 0; i < n; ++i) { sum += x[i]; }",
    "import numpy as np\nx = np.zeros((3, 4), dtype=np.float64)",
    "SELECT name, COUNT(*) FROM users WHERE age > 30 GROUP BY name;",
    "<div class=\"header\"><a href=\"/\">Home</a></div>",
    "const f = (x) => x ** 2; // square",
    "if __name__ == \"__main__\":\n\tmain()",
    "    indented    code    with    runs    of    spaces",
    "#include <stdio.h>\nint main(void) { printf(\"hi\\n\"); }",
    "$ pip install -e '.[smollm2]' && pytest -q",
    "{\"key\": [1, 2, 3], \"nested\": {\"a\": null}}",
    "a=b+c*d/e-f%g^h&i|j~k",
    "<|im_start|>user\nWhat is the capital of France?<|im_end|>\n<|im_start|>assistant\n",
    "<|endoftext|>",
    "text before <|im_end|> and after",
    "<filename>main.py<file_sep>print(1)",
    "The year 2026 and the number 123456789.",
    "Hyphen-ated, under_scored and dot.ted words.",
    "Don't split contractions like THEY'RE or We'Ll differently?",
    "Repeated!!!!! punctuation??? and ... ellipses…",
    "½ ¼ ¾ ² ³ µ © ® ™ ° ± × ÷",
    "A very long word: pneumonoultramicroscopicsilicovolcanoconiosis.",
    "Transformers use attention: softmax(QK^T / sqrt(d_k)) V.",
    "RoPE turns q and k by their positions; RMSNorm scales by 1/rms(x).",
    "SmolLM2 is a family of compact language models.",
    "x",
    " ",
    "\n",
    "混合 mixed 😀 code `print(\"你好\")` end.",
]


@pytest.fixture(scope="module")
def both():
    pytest.importorskip("transformers", reason="needs transformers (pip)")
    from transformers import AutoTokenizer

    from handformer.families.gpt.gguf_model import fields_of, reader
    from handformer.families.gpt.gguf_tokenizer import GgufVocab

    path = gguf_path()
    theirs = AutoTokenizer.from_pretrained(str(path.parent), gguf_file=path.name)
    return GgufVocab.from_fields(fields_of(reader(path))), theirs


def test_at_least_fifty_sentences_of_every_kind():
    assert len(SENTENCES) >= 50
    assert any("\u4e00" <= ch <= "\u9fff" for s in SENTENCES for ch in s)
    assert any(ord(ch) >= 0x1F300 for s in SENTENCES for ch in s)


@pytest.mark.parametrize("text", SENTENCES)
def test_ids_as_transformers_builds_them_from_the_file(both, text):
    ours, theirs = both
    assert ours.encode(text) == theirs(text, add_special_tokens=False)["input_ids"]


def test_thrones_splits_into_two_tokens_by_the_files_merges(both):
    ours, _ = both
    told = ours.merges_fired("when you play the game of thrones you")
    assert told["tokens"] == ours.tokenize("when you play the game of thrones you")
    assert "Ġth" in told["tokens"] and "rones" in told["tokens"]
    assert ours.joined(told["tokens"]) == "when you play the game of thrones you"
