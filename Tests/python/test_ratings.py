"""Ratings through scenarios, from Python."""
import pytest


def test_signing_in_and_rating(scenario):
    session = scenario("ratings-signed-out")
    session.perform("signIn", user="alice", password="correct horse")
    state = session.perform("rate", driver=5, bus=4)
    assert state["lastSubmitted"] == {"driver": 5, "bus": 4}
    posted = session.requests()[-1]
    assert posted["route"] == "rate" and '"driver":5' in posted["body"]


def test_an_expired_token_signs_the_user_out(scenario):
    state = scenario("ratings-expired-token").perform("fetchRating")
    assert state.get("user") is None  # absent: Swift leaves out nil fields
    assert state["error"] == "You were signed out: Your token expired at 2026-11-01T08:00:00Z; sign in again."


def test_an_unmatched_request_is_explained(scenario):
    session = scenario("ratings-signed-in")
    session.http.put(f"/v1/sessions/{session.id}/kv/session", json={"user": "bob", "token": "tok-bob"})
    session.perform("fetchRating")
    with pytest.raises(AssertionError) as failure:
        session.assert_no_unmatched_requests()
    message = str(failure.value)
    assert "GET https://api.busratings.example/v1/rating matched no route" in message
    assert "closest route 'rating' differs in headers.Authorization: expected Bearer tok-alice-1, got Bearer tok-bob" in message
