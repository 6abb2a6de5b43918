"""What a failed expectation says: the closest requests, the daemon's near misses, the state it had."""
import pytest

RATINGS = "https://api.busratings.example/v1/ratings"


def test_a_missing_request_shows_the_closest_and_where_it_differs(scenario):
    session = scenario("ratings-signed-in")
    session.perform("rate", driver=5, bus=4)
    with pytest.raises(AssertionError) as failure:
        session.expect_request("POST", RATINGS, body_containing={"driver": 5, "bus": 3})
    message = str(failure.value)
    assert f"made no request POST {RATINGS} with a body containing " + '{"driver":5,"bus":3}' in message
    assert "differs in /body/bus: expected 3, got 4" in message
    assert "It made:" in message and f"POST {RATINGS} → 204" in message
    assert session.expect_request("POST", RATINGS, body_containing={"bus": 4})["route"] == "rate"


def test_a_missing_request_shows_the_daemons_near_misses(scenario):
    session = scenario("ratings-signed-in")
    session.store["session"] = {"user": "alice", "token": "tok-stale"}
    session.perform("fetchRating")
    url = session.requests()[-1]["url"]  # the Model's own URL (it may carry a query)
    with pytest.raises(AssertionError) as failure:
        session.expect_request("GET", url, headers={"Authorization": "Bearer tok-alice-1"})
    message = str(failure.value)
    assert "differs in /headers/authorization: expected Bearer tok-alice-1, got Bearer tok-stale" in message
    assert "Of those, these matched no route:" in message
    assert "closest route 'rating' differs in /headers/authorization: expected Bearer tok-alice-1, got Bearer tok-stale" in message


def test_a_wrong_count_lists_what_the_route_answered_and_an_unknown_route_the_routes(scenario):
    session = scenario("feed-updates")
    with pytest.raises(AssertionError) as failure:
        session.expect_requests("feed", 2)
    assert "route 'feed' of session" in str(failure.value) and "answered 1 request, not 2:" in str(failure.value)
    with pytest.raises(AssertionError) as failure:
        session.expect_requests("fed", 1)
    assert "has no route 'fed'; its routes are feed" in str(failure.value)


def test_a_state_never_reached_names_the_last_and_how_it_differs(scenario):
    session = scenario("slow-network")
    with pytest.raises(AssertionError) as failure:
        session.wait_for_state({"isLoading": False, "items": []}, advancing_by="1s", up_to="3s")
    message = str(failure.value)
    assert "no state matched within 3s of clock time (moving 1s at a time)" in message
    assert "the last differs at /items: expected 0 elements, got 4" in message
    assert session.now() == "2026-11-01T09:00:03Z"  # bounded by clock time: three moves, no more
