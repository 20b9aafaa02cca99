"""Bad and oversized requests: each a clear 4xx naming what is wrong, and the server goes on."""

from __future__ import annotations

import pytest

from handformer.server.limits import FIELD_CAPS, Limits


def still_serving(client) -> None:
    status, tape = client.json("POST", "/api/walk", {"src": "the game", "tgt": "you die"})
    assert status == 200 and tape["src"]["tokens"] == ["the", "game"]


def test_oversized_body_is_413(client):
    body = b'{"src": "' + b"a" * (Limits().max_body + 10) + b'"}'
    status, _, data = client.request("POST", "/api/walk", raw=body)
    assert status == 413 and b"limit" in data
    still_serving(client)


def test_malformed_json_is_400(client):
    status, err = client.json("POST", "/api/walk", raw=b'{"src": "the game",')
    assert status == 400 and err["error"].startswith("malformed JSON")
    still_serving(client)


def test_not_json_is_415(client):
    status, _, _ = client.request("POST", "/api/walk", raw=b"src=x", content_type="text/plain")
    assert status == 415
    still_serving(client)


def test_absurd_d_model_names_field_value_and_limit(client):
    status, err = client.json("POST", "/api/walk", {"config": {"d_model": 10**6}})
    assert status == 422 and err["field"] == "config.d_model"
    assert "1,000,000" in err["error"] and f"{FIELD_CAPS['d_model']:,}" in err["error"]
    still_serving(client)


def test_the_paper_preset_is_beyond_this_servers_walk_limits(client):
    status, err = client.json("POST", "/api/walk", {"preset": "paper"})
    assert status == 422 and err["field"] == "preset" and "max_len is 512" in err["error"]
    status, err = client.json("POST", "/api/walk", {"preset": "small", "config": {
        "d_model": 512, "d_ff": 2048, "layers": 6, "heads": 8}})
    # per layer: Q, K, V, O of 512 × 512 and their biases (twice in the decoder), two linears
    # 512 × 2048 and 2048 × 512 with their biases, and a layer norm's γ, β after each sublayer
    attention, ffn, norm = 4 * 512 * 512 + 4 * 512, 2 * 512 * 2048 + 2048 + 512, 2 * 512
    n = 6 * (attention + ffn + 2 * norm) + 6 * (2 * attention + ffn + 3 * norm) + 2 * norm
    n += 3 * 25 * 512 + 25  # both embeddings and the output layer over 25 tokens, its bias
    assert status == 422 and err["field"] == "config" and f"{n:,} parameters" in err["error"]
    still_serving(client)


@pytest.mark.parametrize("epochs", [-3, 0, Limits().max_epochs + 1, "ten", 2.5])
def test_bad_epochs_are_refused_naming_epochs(client, epochs):
    status, err = client.json("POST", "/api/train", {"epochs": epochs})
    # a string is the wrong JSON type (400); the numbers are wrong values (422)
    assert status == (400 if isinstance(epochs, str) else 422) and err["field"] == "epochs"
    still_serving(client)


@pytest.mark.parametrize(("body", "field"), [
    ({"src": "word " * 60}, "src"),
    ({"tgt": "x" * 600}, "tgt"),
    ({"corpus": "a b\n" * 500}, "corpus"),
    ({"config": {"heads": "two"}}, "config.heads"),
    ({"config": {"nonsense": 1}}, "config.nonsense"),
    ({"sentence": "hi"}, "sentence"),
    ({"preset": "huge"}, "preset"),
    ({"src": "hello world"}, "src"),  # not in the vocabulary: the engine's own error
    ({"config": {"d_model": 7}}, "config.d_model"),  # odd: the engine's own error
    ({"config": {"d_model": 6, "heads": 4}, "preset": "small"}, "config.d_model"),
])
def test_refusals_name_their_field(client, body, field):
    status, err = client.json("POST", "/api/walk", body)
    assert status == (400 if body.get("config") == {"heads": "two"} else 422), err
    assert err["field"] == field, err
    still_serving(client)


def test_engine_errors_keep_their_message(client):
    status, err = client.json("POST", "/api/walk", {"src": "hello world"})
    assert "'hello', 'world'" in err["error"] and "vocabulary" in err["error"]


def test_a_path_is_just_text(client, tmp_path):
    """A corpus is text, never opened as a file: a path's words are looked up as words."""
    secret = tmp_path / "secret.txt"
    secret.write_text("password hunter two\n", encoding="utf-8")
    status, err = client.json("POST", "/api/walk", {"corpus": str(secret), "src": "password"})
    assert status == 422 and err["field"] == "src"


def test_foreign_host_is_refused_and_headers_are_set(server, client):
    import urllib.error
    import urllib.request

    req = urllib.request.Request(server.url + "/", headers={"Host": "evil.example:80"})
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(req, timeout=10)
    assert caught.value.code == 403
    status, headers, _ = client.request("GET", "/")
    csp = headers["content-security-policy"]
    assert status == 200 and "script-src 'self'" in csp and "unsafe-inline" not in csp.split(
        "script-src")[1].split(";")[0]
