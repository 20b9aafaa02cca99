"""docs/server.md's request bodies, sent as written: the JSON under each `POST` heading and
every `curl -d` body answer as the page says (no `...` left for a reader to fill in)."""

from __future__ import annotations

import json
import re

import pytest

from support.paths import ROOT

DOC = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
FIRST_JSON = re.compile(r"### `POST (/api/\w+)`[^\n]*\n\n```json\n(.*?)\n```", re.S)
CURL = re.compile(r"-d '(\{.*?\})' http://127\.0\.0\.1:8000(/api/\w+)")
BODIES = ([(path, body) for path, body in FIRST_JSON.findall(DOC)]
          + [(path, body) for body, path in CURL.findall(DOC)])
STATUS = {"/api/walk": 200, "/api/compare": 200, "/api/train": 202}


def test_the_page_has_its_examples():
    assert sorted({path for path, _ in BODIES}) == ["/api/compare", "/api/train", "/api/walk"]
    assert len(BODIES) == 4


@pytest.mark.parametrize(("path", "body"), BODIES)
def test_each_example_body_is_answered_as_documented(client, path, body):
    status, answer = client.json("POST", path, json.loads(body))
    assert status == STATUS[path], answer
    if path == "/api/walk":
        assert answer["format"] == "handformer.tape/1"
    if path == "/api/train":
        client.request("DELETE", f"/api/train/{answer['id']}")
