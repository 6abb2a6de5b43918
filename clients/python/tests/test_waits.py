"""Waiting on the event stream for changes someone else makes: a step of the history, a state."""
import threading

import pytest


def later(action):
    """Runs `action` on another thread, as a second client would (a person at the dashboard, scenarioctl)."""
    thread = threading.Thread(target=action)
    thread.start()
    return thread


def test_waiting_until_a_step_returns_once_another_client_made_it(scenario, scenariod):
    session = scenario("offline-demo")
    other = scenariod.session(session.id)
    thread = later(lambda: [other.advance("1s") for _ in range(3)])
    assert session.wait_for_step(3) >= 3
    thread.join()
    assert session.now() == "2026-11-01T09:00:03Z"
    assert session.wait_for_step(2) == 3  # reached already: answers at once


def test_waiting_until_a_state_matches_what_another_client_did(scenario, scenariod):
    session = scenario("slow-network")
    other = scenariod.session(session.id)
    thread = later(lambda: other.advance("2s"))
    state = session.wait_for_state(lambda state: not state["isLoading"])
    thread.join()
    assert len(state["items"]) == 4


def test_a_wait_nobody_answers_gives_up_after_its_timeout(scenario):
    session = scenario("offline-demo")
    with pytest.raises(AssertionError, match=r"waited 0.3 s of wall time for the history to reach step 1 \(it is at 0\)"):
        session.wait_for_step(1, timeout=0.3)
    with pytest.raises(AssertionError, match="a state that matches; the last differs at /isLoading: expected true, got false"):
        session.wait_for_state({"isLoading": True}, timeout=0.3)
