"""The rough edges a new user hit with the docs in hand (issue 16, item 8), each from the user's side: scenarioctl
and the control API of a daemon of the test's own."""
import json
import os
import pathlib
import re
import subprocess
import uuid

from daemon import BINARY, REPOSITORY, SCENARIOCTL

ROUTES = """description: {description}
model: FeedReader
network:
  routes:
    - name: feed
      request: {{ method: GET, url: "https://www.cocoawithlove.com/feed.json" }}
      responses:
        - {{ status: 200, bodyFile: feed.json }}
        - {{ status: 503, delay: 2s }}
        - {{ fault: timeout }}
      afterLast: cycle
"""


def ctl(daemon, *arguments):
    """scenarioctl with the daemon's socket given first, as a global option: (exit status, stdout, stderr)."""
    run = subprocess.run([SCENARIOCTL, "--socket", daemon.socket, *arguments], capture_output=True, text=True, timeout=60)
    return run.returncode, run.stdout, run.stderr


def with_feed_fixture(daemon, name):
    fixture = REPOSITORY / "scenarios/first-launch/fixtures/feed.json"
    (daemon.extra / name / "feed.json").write_bytes(fixture.read_bytes())


def test_bad_usage_exits_2_as_documented_with_the_reason(daemon_with):
    daemon = daemon_with({}, ["--scenario", "offline-demo"])
    for arguments, reason in [(["frobnicate"], "Unexpected argument 'frobnicate'"),
                              (["state", "--bogus"], "Unknown option '--bogus'"),
                              (["clock", "advance"], "Missing expected argument")]:
        status, _, err = ctl(daemon, *arguments)
        assert status == 2, (arguments, status, err)
        assert reason in err, err
    assert "2 for bad usage" in subprocess.run([SCENARIOCTL, "--help"], capture_output=True, text=True).stdout
    assert "Bad usage" in (REPOSITORY / "man/scenarioctl.1").read_text()


def test_instants_keep_their_fraction_of_a_second_everywhere(daemon_with):
    daemon = daemon_with({}, ["--scenario", "offline-demo"])
    assert ctl(daemon, "clock", "advance", "750ms")[1].strip() == "2026-11-01T09:00:00.750Z"
    status, out, _ = ctl(daemon, "clock", "advance", "750ms", "--json")
    # With the next wake, as the API names it: the feed's refresh, every 15 minutes from the last.
    assert status == 0 and json.loads(out) == {"now": "2026-11-01T09:00:01.500Z", "nextWake": "2026-11-01T09:15:00Z"}
    assert json.loads(ctl(daemon, "clock", "--json")[1]) == {"now": "2026-11-01T09:00:01.500Z", "nextWake": "2026-11-01T09:15:00Z"}
    assert daemon.call("GET", "/v1/sessions/default/clock", expect=200).json() == {
        "now": "2026-11-01T09:00:01.500Z", "nextWake": "2026-11-01T09:15:00Z"}

    assert daemon.call("PUT", "/v1/sessions/default/clock", expect=200,
                       json={"now": "2026-11-01T10:00:00.250Z"}).json() == {
        "now": "2026-11-01T10:00:00.250Z", "nextWake": "2026-11-01T10:15:00Z"}
    assert ctl(daemon, "clock")[1].strip() == "2026-11-01T10:00:00.250Z"
    # A request made now: its journal entry, its event and the state's lastRefresh keep the fraction too.
    daemon.act("default", "reload")
    assert daemon.journal("default")[-1]["time"] == "2026-11-01T10:00:00.250Z"
    assert daemon.state("default")["lastRefresh"] == "2026-11-01T10:00:00.250Z"
    assert "2026-11-01T10:00:00.250Z" in ctl(daemon, "requests")[1]
    # Whole seconds print as before: no fraction where the input had none.
    assert daemon.call("PUT", "/v1/sessions/default/clock", expect=200,
                       json={"now": "2026-11-01T11:00:00Z"}).json()["now"] == "2026-11-01T11:00:00Z"


def test_a_scenario_serving_its_last_good_version_is_shown_and_counted_apart(daemon_with):
    daemon = daemon_with({"breaks-later": ROUTES.format(description="fine at first")}, ["--scenario", "offline-demo"])
    with_feed_fixture(daemon, "breaks-later")
    assert ctl(daemon, "reload")[0] == 0
    (daemon.extra / "breaks-later/scenario.yaml").write_text(ROUTES.format(description="broken").replace("status: 503", "status: 5003"))

    status, out, _ = ctl(daemon, "reload")
    assert status == 1, out
    assert "1 serving its last good version" in out and "breaks-later" in out, out
    summary = next(s for s in daemon.call("GET", "/v1/scenarios", expect=200).json() if s["name"] == "breaks-later")
    assert summary["valid"] and summary["servingLastGood"] and summary["problems"], summary
    health = daemon.call("GET", "/v1/health", expect=200).json()
    assert health["scenariosServingLastGood"] == 1 and health["invalidScenarios"] == 0, health

    status, out, _ = ctl(daemon, "scenarios")
    assert status == 1
    row = next(line for line in out.splitlines() if line.startswith("breaks-later "))
    assert "last good" in row and " yes " not in row, row
    assert "breaks-later: serving its last good version; problems:" in out and "5003" in out, out
    status, out, _ = ctl(daemon, "status")
    assert "1 serving its last good version" in out, out
    # Sessions still start from the last good version.
    daemon.session("breaks-later", "s")


def test_a_scenario_serving_its_last_good_version_is_not_counted_as_valid(daemon_with):
    daemon = daemon_with({"breaks-later": ROUTES.format(description="fine at first")}, ["--scenario", "offline-demo"])
    with_feed_fixture(daemon, "breaks-later")
    fine = daemon.call("POST", "/v1/scenarios/reload", expect=200).json()
    shipped = len([d for d in (REPOSITORY / "scenarios").iterdir() if (d / "scenario.yaml").exists()])
    assert fine == {"scenarios": shipped + 1, "invalid": [], "servingLastGood": []}, fine
    assert daemon.call("GET", "/v1/health", expect=200).json()["scenarios"] == shipped + 1
    (daemon.extra / "breaks-later/scenario.yaml").write_text(ROUTES.format(description="broken").replace("status: 503", "status: 5003"))

    reloaded = daemon.call("POST", "/v1/scenarios/reload", expect=200).json()
    assert reloaded == {"scenarios": shipped, "invalid": [], "servingLastGood": ["breaks-later"]}, reloaded
    health = daemon.call("GET", "/v1/health", expect=200).json()
    assert (health["scenarios"], health["scenariosServingLastGood"], health["invalidScenarios"]) == (shipped, 1, 0), health
    # The count is that of the scenarios as their files are now, without problems: the list agrees.
    summaries = daemon.call("GET", "/v1/scenarios", expect=200).json()
    assert health["scenarios"] == len([s for s in summaries if s["valid"] and not s["servingLastGood"]])
    status, out, _ = ctl(daemon, "reload")
    assert status == 1 and f"{shipped} valid, 1 serving its last good version" in out, out
    status, out, _ = ctl(daemon, "status")
    assert f"{shipped} valid, 1 serving its last good version" in out, out


def test_without_a_default_session_the_hints_lead_somewhere(daemon_with):
    daemon = daemon_with({})
    hint = next(line for line in daemon.log().splitlines() if "try: scenarioctl" in line)
    assert "session new" in hint and "scenarioctl state" not in hint, hint
    status, _, err = ctl(daemon, "state")
    assert status == 1
    assert "--scenario NAME" in err and "scenarioctl session ls" in err and "scenarioctl session new" in err, err


def test_a_reset_empties_the_journal_and_the_model_starts_again_as_the_docs_say(daemon_with):
    daemon = daemon_with({}, ["--scenario", "offline-demo"])
    ctl(daemon, "clock", "advance", "15m")
    assert len(daemon.journal("default")) == 2  # the start-up fetch and one refresh
    ctl(daemon, "session", "reset", "default")
    entries = daemon.journal("default")
    assert [(e["sequence"], e["method"], e["time"]) for e in entries] == [(1, "GET", "2026-11-01T09:00:00Z")], entries
    assert "the Model starts again" in (REPOSITORY / "man/scenarioctl.1").read_text()


def test_every_json_output_is_the_apis_body(daemon_with):
    daemon = daemon_with({}, ["--scenario", "offline-demo"])
    status, out, _ = ctl(daemon, "kv", "set", "greeting", '"hello"', "--json")
    assert status == 0 and json.loads(out) == "hello"
    status, out, _ = ctl(daemon, "--json", "kv")
    assert json.loads(out) == daemon.call("GET", "/v1/sessions/default/kv", expect=200).json()
    assert set(json.loads(out)) == {"keys"}
    status, out, _ = ctl(daemon, "kv", "set", "greeting", "hi")
    assert (status, out) == (0, "")  # for people, a write that succeeds prints nothing


def test_instants_that_are_not_instants_say_why(daemon_with):
    daemon = daemon_with({}, ["--scenario", "offline-demo"])
    status, out, err = ctl(daemon, "clock", "set", "2026-12-24T19:00:00")
    assert status == 2 and out == ""
    assert "needs a time zone offset or Z" in err and "Usage: scenarioctl <subcommand>" not in err, err
    status, _, err = ctl(daemon, "clock", "set", "2026-02-31T09:00:00Z")
    assert status == 2 and "February 2026 has 28 days" in err, err
    body = daemon.call("PUT", "/v1/sessions/default/clock", expect=400, json={"now": "2026-02-31T09:00:00Z"}).json()
    assert "February 2026 has 28 days" in body["message"], body


def test_a_key_with_a_slash_gets_a_hint_to_write_it_as_2F(daemon_with):
    daemon = daemon_with({}, ["--scenario", "offline-demo"])
    body = daemon.call("PUT", "/v1/sessions/default/kv/a/b", expect=404, json=1).json()
    assert body["code"] == "noSuchEndpoint" and "/v1/sessions/default/kv/a%2Fb" in body["message"], body
    daemon.call("PUT", "/v1/sessions/default/kv/a%2Fb", expect=200, json=1)
    assert ctl(daemon, "kv", "get", "a/b")[1].strip() == "1"


def test_messages_name_the_command_and_balance_their_parentheses(daemon_with, tmp_path):
    daemon = daemon_with({}, ["--scenario", "offline-demo"])
    status, _, err = ctl(daemon, "state", "--session", "nope")
    assert status == 1 and "`scenarioctl session ls`" in err, err
    run = subprocess.run([SCENARIOCTL, "status", "--socket", str(tmp_path / "none.sock")], capture_output=True, text=True)
    assert run.returncode == 3
    assert run.stderr.count("(") == run.stderr.count(")"), run.stderr


def test_all_problems_of_a_file_in_one_pass_in_file_order(tmp_path):
    directory = tmp_path / "scenarios/several"
    directory.mkdir(parents=True)
    (directory / "scenario.yaml").write_text("""description: several problems
model: FeedReadr
network:
  routes:
    - name: a
      request: { method: GET, url: "https://x.example/a" }
      response: { status: 200 }
    - name: a
      request: { method: GET, url: "https://x.example/b" }
      response: { status: 2000 }
    - name: c
      request: { method: GET, url: "https://x.example/c" }
      response: { status: 200, delay: soon }
""")
    run = subprocess.run([SCENARIOCTL, "validate", "--daemon", BINARY, str(tmp_path / "scenarios")],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    places = [(int(m.group(1)), int(m.group(2))) for m in re.finditer(r"scenario\.yaml:(\d+):(\d+):", run.stdout)]
    assert places == sorted(places) and len(places) == 4, run.stdout
    assert "unknown model 'FeedReadr'" in run.stdout and "reuses the route name 'a'" in run.stdout, run.stdout


def test_what_needs_the_parent_is_reported_with_the_files_own_problems(tmp_path):
    """A child with a shape error hears in the same pass that it names another Model than its parent and changes
    a route its parent does not have; nothing is reported for the part that could not be read."""
    directory = tmp_path / "scenarios/child"
    directory.mkdir(parents=True)
    (directory / "scenario.yaml").write_text("""description: a child with problems of three kinds
extends: first-launch
model: Ratings
clock:
  start: yesterday
network:
  routes:
    - extends: fed
      response: { status: 500 }
""")
    shipped = pathlib.Path(__file__).resolve().parents[2] / "scenarios"
    run = subprocess.run([SCENARIOCTL, "validate", "--daemon", BINARY, "--json", str(shipped), str(tmp_path / "scenarios")],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1, run.stdout + run.stderr
    problems = [p for p in json.loads(run.stdout)["problems"] if "child" in p.get("file", "")]
    messages = [p["message"] for p in problems]
    assert [p["line"] for p in problems] == [3, 5, 8], problems
    assert "differs from 'FeedReader' of the extended scenario 'first-launch'" in messages[0], messages
    assert "yesterday" in messages[1], messages
    assert "extends route 'fed', but 'first-launch' has no route of that name" in messages[2] and "feed" in messages[2], messages


def test_global_options_go_before_or_after_the_verb(daemon_with):
    daemon = daemon_with({}, ["--scenario", "offline-demo"])
    daemon.session("offline", "s1")
    before = subprocess.run([SCENARIOCTL, "--socket", daemon.socket, "--session", "s1", "--json", "clock"],
                            capture_output=True, text=True)
    after = subprocess.run([SCENARIOCTL, "clock", "--json", "--session", "s1", "--socket", daemon.socket],
                           capture_output=True, text=True)
    assert before.returncode == after.returncode == 0, (before.stderr, after.stderr)
    assert json.loads(before.stdout) == json.loads(after.stdout)


def test_instance_goes_before_or_after_the_verb(daemon_with):
    """--instance NAME is the socket /run/scenariod/NAME/control.sock, as systemd's RuntimeDirectory makes it. The
    test's daemon is put there by a link to its directory (the tests run as root, as unshare needs)."""
    instance = f"pytest-{uuid.uuid4().hex[:12]}"
    expected = f"/run/scenariod/{instance}/control.sock"
    # Nothing there yet: both placements name the instance's socket.
    for arguments in (["--instance", instance, "clock"], ["clock", "--instance", instance]):
        run = subprocess.run([SCENARIOCTL, *arguments], capture_output=True, text=True, timeout=30)
        assert run.returncode == 3 and f"no daemon answers at {expected}" in run.stderr, (arguments, run.stderr)

    daemon = daemon_with({}, ["--scenario", "offline-demo"])
    daemon.session("offline", "s1")
    runtime = pathlib.Path("/run/scenariod")
    created = not runtime.exists()
    runtime.mkdir(exist_ok=True)
    link = runtime / instance
    link.symlink_to(daemon.directory, target_is_directory=True)
    try:
        daemon.call("POST", "/v1/sessions/s1/clock/advance", expect=200, json={"by": "90s"})
        before = subprocess.run([SCENARIOCTL, "--instance", instance, "--session", "s1", "--json", "clock"],
                                capture_output=True, text=True, timeout=30)
        after = subprocess.run([SCENARIOCTL, "clock", "--json", "--session", "s1", "--instance", instance],
                               capture_output=True, text=True, timeout=30)
        assert before.returncode == after.returncode == 0, (before.stderr, after.stderr)
        assert json.loads(before.stdout) == json.loads(after.stdout)
        assert json.loads(before.stdout)["now"] == "2026-11-01T09:01:30Z"
        # A verb that changes the session, with the instance after it, reaches the same daemon.
        moved = subprocess.run([SCENARIOCTL, "clock", "advance", "30s", "--session", "s1", "--instance", instance],
                               capture_output=True, text=True, timeout=30)
        assert moved.returncode == 0, moved.stderr
        assert daemon.call("GET", "/v1/sessions/s1/clock", expect=200).json()["now"] == "2026-11-01T09:02:00Z"
    finally:
        link.unlink()
        if created:
            os.rmdir(runtime)


def test_session_verbs_take_the_session_the_same_way(daemon_with):
    daemon = daemon_with({}, ["--scenario", "offline-demo"])
    daemon.session("offline", "s1")
    ctl(daemon, "clock", "advance", "1m", "--session", "s1")
    status, out, err = ctl(daemon, "session", "reset", "s1")
    assert status == 0 and "s1" in out, err
    assert daemon.call("GET", "/v1/sessions/s1/clock", expect=200).json()["now"] == "2026-11-01T09:00:00Z"
    status, out, _ = ctl(daemon, "state", "s1")
    assert status == 0 and json.loads(out) == daemon.state("s1")
    status, _, err = ctl(daemon, "state", "s1", "--session", "default")
    assert status == 2 and "two sessions given" in err, err
    # --session is offered by the verbs that act on a session, not by the others.
    for verb in (["scenarios"], ["models"], ["status"], ["reload"]):
        assert "--session" not in subprocess.run([SCENARIOCTL, *verb, "--help"], capture_output=True, text=True).stdout, verb
    assert "--session" in subprocess.run([SCENARIOCTL, "kv", "ls", "--help"], capture_output=True, text=True).stdout


def test_scenario_show_lists_each_answer(daemon_with):
    daemon = daemon_with({"three-answers": ROUTES.format(description="three answers")})
    with_feed_fixture(daemon, "three-answers")
    daemon.stop()
    daemon.start()
    status, out, err = ctl(daemon, "scenario", "show", "three-answers")
    assert status == 0, err
    assert "200; 503 after 2s; fault timeout (then from the first)" in out, out
    route = daemon.call("GET", "/v1/scenarios/three-answers", expect=200).json()["routes"][0]
    assert route["answers"] == [{"status": 200}, {"status": 503, "delay": "2s"}, {"fault": "timeout"}], route
    assert route["afterLast"] == "cycle" and route["outcomes"] == 3


def test_an_answer_waiting_on_the_clock_is_pending_until_delivered(daemon_with):
    daemon = daemon_with({}, ["--scenario", "slow-network"])
    entry = daemon.journal("default")[0]
    assert entry["pending"] is True and entry["deliversAt"] == "2026-11-01T09:00:02Z", entry
    status, out, _ = ctl(daemon, "requests")
    assert "pending (200 at 2026-11-01T09:00:02Z)" in out, out
    ctl(daemon, "clock", "advance", "1s")
    assert daemon.journal("default")[0]["pending"] is True
    ctl(daemon, "clock", "advance", "1s")
    entry = daemon.journal("default")[0]
    assert entry["pending"] is False and entry["status"] == 200, entry
    assert "pending" not in ctl(daemon, "requests")[1]


def test_every_daemon_option_is_in_the_readme_synopsis_and_the_man_page():
    help_text = subprocess.run([BINARY, "--help"], capture_output=True, text=True).stdout
    options = sorted(set(re.findall(r"^\s+(--[a-z][a-z-]+)", help_text, re.MULTILINE)) - {"--help", "--version"})
    assert "--journal-capacity" in options and "--exit-with-parent" in options, options
    manual = (REPOSITORY / "man/scenariod.8").read_text().replace("\\-", "-")
    readme = (REPOSITORY / "README.md").read_text()
    synopsis = readme[readme.index("scenariod [--scenario"):]
    synopsis = synopsis[:synopsis.index("```")]
    offline_modes = {"--check", "--json", "--print-schema"}  # not a running daemon's options: described on their own
    for option in options:
        assert option in manual, f"{option} is missing from man/scenariod.8"
        assert option in (readme if option in offline_modes else synopsis), f"{option} is missing from the README"
