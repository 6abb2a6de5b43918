"""JSON subsets and journal reading, without a daemon."""
import pytest

from scenariod_pytest import contains, first_difference
from scenariod_pytest.journal import difference, is_request
from scenariod_pytest.opener import session_id_prefix
from scenariod_pytest.session import duration_seconds, instant

import re


def test_a_subset_names_the_pointer_where_it_first_differs():
    actual = {"user": "alice", "items": [{"id": 1, "tags": ["a/b"]}], "on": True}
    assert contains(actual, {"items": [{"id": 1}]})
    assert first_difference(actual, {"items": [{"id": 2}]}) == "/items/0/id: expected 2, got 1"
    assert first_difference(actual, {"items": []}) == '/items: expected 0 elements, got 1: [{"id":1,"tags":["a/b"]}]'
    assert first_difference({"a/b": 1}, {"a/b": 2}) == "/a~1b: expected 2, got 1"
    assert first_difference(actual, {"missing": 1}) == "/missing: expected 1, got nothing (no such member)"


def test_a_boolean_is_never_a_number_but_numbers_compare_by_value():
    assert contains({"n": 1}, {"n": 1.0})
    assert not contains({"n": True}, {"n": 1})
    assert not contains({"n": 1}, {"n": True})
    assert first_difference(5, "5") == 'the value: expected "5", got 5'


def test_configuration_changes_are_not_requests():
    assert is_request({"method": "GET", "url": "https://example.com/"})
    assert is_request({"method": "GET", "url": "https://example.com/", "kind": "request"})
    assert not is_request({"method": "SET", "url": "network:conditions"})
    assert not is_request({"method": "PUT", "url": "kv:session", "kind": "keyValue"})


def test_a_request_differs_first_in_its_method_then_its_url_headers_and_body():
    entry = {"method": "POST", "url": "https://x/y", "headers": ["Authorization: Bearer a"], "body": '{"stars": 4}'}
    assert difference(entry, "GET", "https://x/y") == "/method: expected GET, got POST"
    assert difference(entry, "POST", "https://x/z") == "/url: expected https://x/z, got https://x/y"
    assert difference(entry, "POST", "https://x/y", headers={"authorization": "Bearer b"}) == \
        "/headers/authorization: expected Bearer b, got Bearer a"
    assert difference(entry, "POST", "https://x/y", body_containing={"stars": 5}) == "/body/stars: expected 5, got 4"
    assert difference(entry, "POST", "https://x/y", body_containing={"stars": 4}, headers={"AUTHORIZATION": "Bearer a"}) is None


def test_durations_and_instants_read_as_the_daemon_writes_them():
    assert duration_seconds("1h30m") == 5400
    assert duration_seconds("500ms") == 0.5
    with pytest.raises(ValueError, match="not a duration"):
        duration_seconds("5 minutes")
    assert instant("2026-11-01T09:00:00.750Z") > instant("2026-11-01T09:00:00Z")


def test_session_ids_fit_the_api_and_differ_by_run_and_test():
    pattern = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
    long_name = "test_" + "x" * 100 + "[param with spaces/and:colons]"
    prefix = session_id_prefix(long_name, "gw12", "run1", "tests/a.py::" + long_name)
    assert pattern.match(prefix + "-99"), prefix
    assert session_id_prefix("test_a", "gw0", "run1", "a.py::test_a") != session_id_prefix("test_a", "gw0", "run2", "a.py::test_a")
    assert session_id_prefix("__weird", "main", "r", "n").startswith("weird-main-")
