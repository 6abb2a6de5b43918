"""Ratings through scenarios, from Python, with the installed pytest plugin only."""
import pytest


def test_signing_in_and_rating(scenario):
    session = scenario("ratings-signed-out")
    session.perform("signIn", user="alice", password="correct horse")
    state = session.perform("rate", driver=5, bus=4)
    assert state["lastSubmitted"] == {"driver": 5, "bus": 4}
    posted = session.expect_request("POST", "https://api.busratings.example/v1/ratings", body_containing={"driver": 5, "bus": 4})
    assert posted["route"] == "rate"


def test_matchers_and_a_template_let_any_well_formed_user_sign_in(scenario):
    sign_in = {"name": "sign-in",
               "request": {"method": "POST", "url": "https://api.busratings.example/v1/session",
                           "bodyFields": {"/user": {"regex": "^[a-z]+$"}, "/password": {"present": True}}},
               "response": {"status": 201, "template": True, "body": {"token": "tok-{{request.body.user}}"}}}
    session = scenario("ratings-signed-out", overrides={"network": {"routes": [sign_in]}})
    assert session.perform("signIn", user="bob", password="pw")["user"] == "bob"
    assert session.perform("signIn", user="Bob", password="pw").get("error")  # the regex fails: wrong-password
    assert [entry["route"] for entry in session.requests()] == ["sign-in", "wrong-password"]
    session.expect_requests("sign-in", 1)


def test_an_expired_token_signs_the_user_out(scenario):
    state = scenario("ratings-expired-token").perform("fetchRating")
    assert state.get("user") is None  # absent: Swift leaves out nil fields
    assert state["error"] == "You were signed out: Your token expired at 2026-11-01T08:00:00Z; sign in again."


def test_an_unmatched_request_is_explained(scenario):
    session = scenario("ratings-signed-in")
    session.store["session"] = {"user": "bob", "token": "tok-bob"}
    session.perform("fetchRating")
    with pytest.raises(AssertionError) as failure:
        session.expect_no_unmatched_requests()
    message = str(failure.value)
    assert "GET https://api.busratings.example/v1/rating?user=bob → matched no route" in message
    assert "closest route 'rating' differs in /query/user: expected alice, got bob" in message
