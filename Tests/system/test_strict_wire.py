"""A strict wire (issue 33, item 3): request bodies are JSON exactly as RFC 8259 writes it, and a refusal says the
line and column; an argument of the wrong type is named, with the type in the Model description's own words.
(Before: a trailing comma was accepted with 200, and `driver: 4.5` read "argument '' is invalid: The given data was
not valid JSON".)"""
import json

import pytest


@pytest.fixture
def daemon(daemon_with):
    daemon = daemon_with({})
    daemon.session("ratings-signed-in", "ratings")
    return daemon


@pytest.mark.parametrize("body,where,problem", [
    ('{"by": "1s",}', "line 1, column 13", "no trailing commas"),
    ('{\n  "by": "1s" // an hour\n}', "line 2, column 14", "a comment"),
    ('{"by": "1', "line 1, column 8", "no closing quote"),
    ('{"by": "1s", "by": "2s"}', "line 1, column 14", "appears twice"),
])
def test_a_body_that_is_not_strict_json_is_refused_with_its_place(daemon, body, where, problem):
    answer = daemon.call("POST", "/v1/sessions/ratings/clock/advance", expect=400, content=body,
                         headers={"Content-Type": "application/json"})
    error = answer.json()
    assert error["code"] == "malformedJSON" and where in error["message"] and problem in error["message"], error
    # Nothing moved.
    assert daemon.call("GET", "/v1/sessions/ratings/clock", expect=200).json()["now"] == "2026-11-01T09:00:00Z"


@pytest.mark.parametrize("driver,shown", [(4.5, "got 4.5"), ("five", 'got the string "five"'), (True, "got true"),
                                          (None, "got null"), ([4], "got an array")])
def test_an_argument_of_the_wrong_type_is_named_with_the_described_type(daemon, driver, shown):
    answer = daemon.call("POST", "/v1/sessions/ratings/actions/rate", expect=400, json={"driver": driver, "bus": 4})
    error = answer.json()
    assert error["code"] == "invalidArguments", error
    assert error["message"] == f"action 'rate': argument 'driver' must be an integer, {shown}.", error
    # The description calls it an integer too, so the two agree.
    ratings = next(model for model in daemon.call("GET", "/v1/models", expect=200).json() if model["name"] == "Ratings")
    rate = next(action for action in ratings["actions"] if action["name"] == "rate")
    assert {argument["name"]: argument["type"] for argument in rate["arguments"]}["driver"] == "integer"


def test_a_whole_number_written_with_a_point_is_an_integer(daemon):
    daemon.call("POST", "/v1/sessions/ratings/actions/rate", expect=200, json={"driver": 4.0, "bus": 5})


def test_a_string_argument_refuses_another_type(daemon):
    answer = daemon.call("POST", "/v1/sessions/ratings/actions/signIn", expect=400, json={"user": True, "password": "p"})
    assert answer.json()["message"] == "action 'signIn': argument 'user' must be a string, got true.", answer.json()


def test_a_whole_number_with_a_point_is_an_integer_field_too(daemon):
    """Found by the API fuzzer: JSON Schema's integer includes 0.0, and the strict parser once read it as a
    fraction, so a rewind to step 0.0 was refused with 400."""
    daemon.call("POST", "/v1/sessions/ratings/clock/advance", expect=200, json={"by": "1s"})
    answer = daemon.call("POST", "/v1/sessions/ratings/rewind", content='{"step": 0.0}',
                         headers={"Content-Type": "application/json"})
    assert answer.status_code == 200, answer.text


@pytest.mark.parametrize("number,reads", [("-9223372036854775809", "-9.223372036854776e+18"), ("1e-400", "0.0"),
                                          ("12345678901234567890", "1.2345678901234567e+19"),
                                          ("3.9999999999999999", "4.0"), ("4.0000000000000000001", "4.0")])
def test_a_number_that_would_be_stored_as_another_is_refused(daemon, number, reads):
    """Found: `PUT …/kv/n` with -9223372036854775809 stored -9223372036854775808, 1e-400 stored 0, and an integer
    argument of 3.9999999999999999 was taken as 4. Now each is refused with 400, naming the number, what it would
    read and what to do, and nothing is stored or done."""
    answer = daemon.call("PUT", "/v1/sessions/ratings/kv/n", expect=400, content=number, headers={"Content-Type": "application/json"})
    error = answer.json()
    assert error["code"] == "malformedJSON", error
    assert f"the number {number} cannot be kept exactly: it would read {reads}" in error["message"], error
    assert "send it as a string" in error["message"], error
    assert daemon.call("GET", "/v1/sessions/ratings/kv/n").status_code == 404
    answer = daemon.call("POST", "/v1/sessions/ratings/actions/rate", expect=400,
                         content=f'{{"driver": {number}, "bus": 4}}', headers={"Content-Type": "application/json"})
    assert f"the number {number} cannot be kept exactly" in answer.json()["message"], answer.json()
    steps = daemon.call("GET", "/v1/sessions/ratings/history", expect=200).json()["steps"]
    assert [step["kind"] for step in steps] == ["start"], steps


def test_numbers_a_float_or_an_integer_holds_are_stored_as_sent(daemon):
    for number in ["9223372036854775807", "-9223372036854775808", "0.30000000000000004", "1.7976931348623157e308", "5e-324", "4.0"]:
        put = daemon.call("PUT", "/v1/sessions/ratings/kv/n", content=number, headers={"Content-Type": "application/json"})
        assert put.status_code in (200, 204), (number, put.status_code, put.text)
        stored = daemon.call("GET", "/v1/sessions/ratings/kv/n", expect=200).json()
        assert stored == (4 if number == "4.0" else json.loads(number)), (number, stored)


@pytest.mark.parametrize("method,path,body", [
    ("POST", "/v1/sessions", '{"scenario": "offline"}'),
    ("POST", "/v1/sessions/ratings/actions/rate", '{"driver": 5, "bus": 4}'),
    ("PUT", "/v1/sessions/ratings/kv/note", '"kept"'),
    ("PUT", "/v1/sessions/ratings/network/conditions", '{"offline": true}'),
    ("PUT", "/v1/sessions/ratings/routes/extra", '{"request": {"url": "https://x.example/"}, "response": {"status": 204}}'),
    ("POST", "/v1/sessions/ratings/clock/advance", '{"by": "1s"}'),
])
@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded"])
def test_a_json_body_declared_as_another_type_is_refused_with_415_and_changes_nothing(daemon, method, path, body, content_type):
    """The API document lists only application/json: a body declared as text (or as a form, which `curl -d` says)
    is refused, naming the type and how to send JSON; before, it was read as JSON anyway (PATCH alone refused)."""
    before = daemon.call("GET", "/v1/sessions/ratings/history", expect=200).json()["steps"]
    answer = daemon.call(method, path, content=body, headers={"Content-Type": content_type})
    assert answer.status_code == 415, (answer.status_code, answer.text)
    error = answer.json()
    assert error["code"] == "unsupportedMediaType" and f"not '{content_type}'" in error["message"] and "--json" in error["message"], error
    assert daemon.call("GET", "/v1/sessions/ratings/history", expect=200).json()["steps"] == before
    # The same body as JSON, with or without a charset, is taken.
    taken = daemon.call(method, path, content=body, headers={"Content-Type": "application/json; charset=utf-8"})
    assert taken.status_code in (200, 201, 204), (taken.status_code, taken.text)


def test_invisible_characters_are_named_in_refusals(daemon):
    """A byte order mark, a NUL or a zero-width space reads as nothing in a message; each is named instead. (Before:
    "found '\\ufeff'" printed as `found ''`, a NUL in a key as `'a?b'`.)"""
    bom = daemon.call("POST", "/v1/sessions/ratings/clock/advance", content='\ufeff{"by": "1s"}'.encode(),
                      headers={"Content-Type": "application/json"}, expect=400).json()
    assert "found U+FEFF BYTE ORDER MARK (send the body without one)" in bom["message"], bom
    key = daemon.call("PUT", "/v1/sessions/ratings/kv/a%00b", json=1, expect=400).json()
    assert key["code"] == "invalidKey" and "key 'a<U+0000 NULL>b' is not allowed" in key["message"], key
    field = daemon.call("POST", "/v1/sessions", json={"scenario": "offline", "id\u200b": "x"}, expect=400).json()
    assert "unknown field 'id<U+200B ZERO WIDTH SPACE>'" in field["message"], field


def test_an_empty_key_is_named_as_the_problem(daemon):
    """PUT …/kv/ (a form's empty key field) names the key, not the method. (Before: "PUT is not allowed on …/kv/".)"""
    for method in ("PUT", "DELETE"):
        error = daemon.call(method, "/v1/sessions/ratings/kv/", json=1, expect=400).json()
        assert error["code"] == "invalidKey" and "the key is empty" in error["message"], (method, error)
