"""A team's service state has one shape (issue 28, item 5): GET answers the bare state, which PUT takes back
unchanged; PATCH takes a JSON merge patch (RFC 7396) and then goes the way of a PUT of the state it makes: the same
checks and errors (with JSON pointers), one step of the history, replayed exactly by a rewind.

Driven against fixtured (Tests/Fixtures/fixtured): a daemon built on scenariod's library whose Greeter reads a
`profile` service; scenariod's own Models use no service of a team's."""
import json
import subprocess

import pytest

from daemon import FIXTURED, SCENARIOCTL, Daemon

SCENARIO = """\
description: A profile with a nickname, a dark theme and two flags.
model: Greeter
profile:
  name: Ada
  nickname: Countess
  display:
    theme: dark
  flags:
    beta: true
    newsletter: false
  tags: [math]
"""

START = {"name": "Ada", "nickname": "Countess", "display": {"theme": "dark"},
         "flags": {"beta": True, "newsletter": False}, "tags": ["math"]}
PROFILE = "/v1/sessions/default/services/profile"
MERGE_PATCH = {"Content-Type": "application/merge-patch+json"}


def merge_patch(target, patch):
    """RFC 7396 section 2, as the RFC writes it: the test's own account of what the daemon should do."""
    if not isinstance(patch, dict):
        return patch
    result = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge_patch(result.get(key), value)
    return result


@pytest.fixture
def team(tmp_path):
    daemon = Daemon(tmp_path, {"profile": SCENARIO}, ["--scenario", "profile"], binary=FIXTURED,
                    shipped_scenarios=False).start()
    yield daemon
    daemon.stop()


def patch(daemon, body, expect=200, headers=MERGE_PATCH):
    return daemon.call("PATCH", PROFILE, expect=expect, content=json.dumps(body), headers=headers)


def history(daemon):
    return daemon.call("GET", "/v1/sessions/default/history", expect=200).json()["steps"]


def test_get_answers_the_bare_state_and_putting_it_back_changes_nothing(team):
    got = team.call("GET", PROFILE, expect=200)
    assert got.json() == START, "the bare state: no {service, state} wrapper"
    put = team.call("PUT", PROFILE, expect=200, content=got.content, headers={"Content-Type": "application/json"})
    assert put.content == got.content
    assert team.call("GET", PROFILE, expect=200).content == got.content
    assert history(team)[-1]["kind"] == "replaceServiceState"
    # What the bare state no longer says, the list does (fixtured's other service is the test Models' bell).
    assert team.call("GET", "/v1/sessions/default/services", expect=200).json() == {
        "services": [{"name": "bell", "description": "The bell an alarm rings", "mode": "fake"},
                     {"name": "profile", "description": "The user's profile", "mode": "fake"}]}


def test_patch_merges_objects_removes_null_members_and_keeps_the_rest(team):
    first = {"nickname": None, "display": {"fontSize": 14}, "flags": {"beta": None, "dark": True}}
    expected = {"name": "Ada", "display": {"theme": "dark", "fontSize": 14},
                "flags": {"newsletter": False, "dark": True}, "tags": ["math"]}
    assert patch(team, first).json() == expected == merge_patch(START, first)
    # application/json is taken too; a list is replaced whole, as RFC 7396 says.
    second = {"tags": ["a", "b"]}
    assert patch(team, second, headers={"Content-Type": "application/json"}).json() == merge_patch(expected, second)
    assert team.call("GET", PROFILE, expect=200).json() == merge_patch(expected, second)
    greeted = team.call("POST", "/v1/sessions/default/actions/greet", expect=200).json()
    assert greeted == {"greeting": "Hello, Ada!", "theme": "dark"}, "the Model sees the patched state: no nickname"


@pytest.mark.parametrize("body", [
    {"display": {"theme": 5}, "colour": "red"},  # a wrong type and an unknown key, at their pointers
    {"name": None},                               # a required member removed
    {"flags": {"beta": "yes"}},                   # a wrong type in a map
    ["not", "an", "object"],                      # a patch that is no object replaces the whole state
])
def test_a_patch_making_an_invalid_state_gets_the_error_a_put_of_that_state_gets(team, body):
    steps = len(history(team))
    patched = patch(team, body, expect=400)
    put = team.call("PUT", PROFILE, expect=400, json=merge_patch(START, body))
    assert patched.json() == put.json()
    assert patched.json()["code"] == "invalidServiceState"
    assert team.call("GET", PROFILE, expect=200).json() == START, "a refused patch changes nothing"
    assert len(history(team)) == steps, "and is no step of the history"


def test_the_error_places_each_problem_at_its_json_pointer(team):
    message = patch(team, {"display": {"theme": 5}, "colour": "red"}, expect=400).json()["message"]
    assert "/display/theme: profile.display.theme must be a string, got the number 5." in message, message
    assert "/colour: unknown key 'colour' in profile." in message, message
    message = patch(team, {"name": None}, expect=400).json()["message"]
    assert message.startswith("/: profile is missing the required key 'name'"), message


def test_a_json_patch_or_a_form_is_refused_with_415_and_accept_patch(team):
    for content_type in ["application/json-patch+json", "application/x-www-form-urlencoded"]:
        refused = patch(team, [{"op": "remove", "path": "/nickname"}], expect=415, headers={"Content-Type": content_type})
        assert refused.json()["code"] == "unsupportedMediaType"
        assert refused.headers["accept-patch"] == "application/merge-patch+json, application/json"
    assert team.call("GET", PROFILE, expect=200).json() == START
    assert team.call("PATCH", PROFILE, expect=400).json()["code"] == "invalidRequest", "a PATCH needs a body"
    assert team.call("PATCH", "/v1/sessions/default/services/profil", expect=404, content="{}",
                     headers=MERGE_PATCH).json()["code"] == "unknownService"


def test_a_patch_is_a_step_of_the_history_that_a_rewind_replays_exactly(team):
    def snapshot():
        return (team.call("GET", PROFILE, expect=200).content,
                team.call("GET", "/v1/sessions/default/state", expect=200).content)

    after = [snapshot()]
    changes = [
        lambda: patch(team, {"nickname": None, "flags": {"beta": None}}),
        lambda: team.call("POST", "/v1/sessions/default/actions/rename", expect=200, json={"name": "Grace"}),
        # Patched over a state the Model changed: the replay must land on the same state again.
        lambda: patch(team, {"nickname": "G", "display": {"fontSize": 12}}),
        lambda: team.call("POST", "/v1/sessions/default/actions/greet", expect=200),
    ]
    for change in changes:
        change()
        after.append(snapshot())
    steps = history(team)
    assert [s["kind"] for s in steps] == ["start", "patchServiceState", "action", "patchServiceState", "action"]
    assert steps[3]["parameters"] == {"service": "profile", "patch": {"nickname": "G", "display": {"fontSize": 12}}}
    assert json.loads(after[3][0]) == {"name": "Grace", "nickname": "G", "display": {"theme": "dark", "fontSize": 12},
                                       "flags": {"newsletter": False}, "tags": ["math"]}
    for target in [4, 3, 2, 1, 0]:
        team.call("POST", "/v1/sessions/default/rewind", expect=200, json={"step": target})
        assert snapshot() == after[target], f"rewound to step {target}"


def test_scenarioctl_shows_sets_and_patches_the_bare_state(team):
    def ctl(*arguments, stdin=None):
        run = subprocess.run([SCENARIOCTL, "--socket", team.socket, "service", *arguments], capture_output=True,
                             text=True, timeout=30, input=stdin)
        return run.returncode, run.stdout, run.stderr

    status, shown, _ = ctl("show", "profile", "--json")
    assert status == 0 and json.loads(shown) == START
    status, set_back, _ = ctl("set", "profile", "-", stdin=shown)
    assert status == 0 and json.loads(set_back) == START, "what show prints, set takes"
    status, patched, _ = ctl("patch", "profile", '{"nickname": null, "display": {"theme": "light"}}')
    assert status == 0 and json.loads(patched) == merge_patch(START, {"nickname": None, "display": {"theme": "light"}})
    status, _, error = ctl("patch", "profile", '{"display": {"theme": 5}}')
    assert status != 0 and "/display/theme: profile.display.theme must be a string" in error, error
