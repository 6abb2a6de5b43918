"""The plugin as a suite meets it: installed, in its own pytest process (pytester, in a subprocess), with and
without xdist, with a daemon of its own or the one in SCENARIOD_SOCKET, and when there is no daemon at all."""
import json
import os

import pytest

SUITE = """
import json, os

def record(scenariod_socket, session):
    with open(os.path.join({out!r}, session.id), "w") as file:
        json.dump({{"socket": scenariod_socket, "worker": os.environ.get("PYTEST_XDIST_WORKER")}}, file)

{tests}
"""
TEST = """
def test_{n}(scenario, scenariod_socket):
    session = scenario("offline-demo")
    session.advance("{n}s")
    assert session.now() == "2026-11-01T09:00:0{n}Z"
    record(scenariod_socket, session)
"""


# An inner suite's helper: SIGKILL the daemon listening on `socket`, as a crash would end it.
KILL_DAEMON = """
import os, signal

def kill_daemon(socket):
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as file:
                arguments = file.read().split(b"\\0")
        except OSError:
            continue
        if socket.encode() in arguments:
            os.kill(int(pid), signal.SIGKILL)
            return
    raise AssertionError("no daemon on " + socket)
"""


def write_suite(pytester, out, count):
    pytester.makepyfile(test_inner=SUITE.format(out=str(out), tests="".join(TEST.format(n=n) for n in range(count))))


def records(out):
    return {name: json.loads((out / name).read_text()) for name in os.listdir(out)}


def test_xdist_workers_share_one_daemon_that_is_gone_after_the_run(pytester, inner_environment, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    write_suite(pytester, out, 6)
    result = pytester.runpytest_subprocess("-n", "3", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=6)
    seen = records(out)
    assert len(seen) == 6, "every test had a session of its own"
    assert len({record["socket"] for record in seen.values()}) == 1, "one daemon for every worker"
    assert len({record["worker"] for record in seen.values()}) > 1, "the tests ran on several workers"
    socket = next(iter(seen.values()))["socket"]
    assert not os.path.exists(socket) and not os.path.exists(os.path.dirname(socket)), "stopped and removed"
    result.stdout.fnmatch_lines(["scenariod: */scenariod with *; one daemon for the run"])


def test_a_run_uses_the_daemon_in_scenariod_socket_and_leaves_no_session_in_it(
        pytester, inner_environment, monkeypatch, tmp_path, scenariod_socket, scenariod):
    monkeypatch.setenv("SCENARIOD_SOCKET", scenariod_socket)
    out = tmp_path / "out"
    out.mkdir()
    write_suite(pytester, out, 2)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)
    seen = records(out)
    assert {record["socket"] for record in seen.values()} == {scenariod_socket}
    assert len(seen) == 2 and not set(seen) & set(scenariod.session_ids()), "the run deleted its sessions"
    assert os.path.exists(scenariod_socket), "a daemon the run did not start is left running"
    result.stdout.fnmatch_lines([f"scenariod: the daemon on {scenariod_socket} (SCENARIOD_SOCKET)"])


def test_without_a_daemon_the_tests_that_need_one_fail_saying_how_to_name_it(pytester, inner_environment, monkeypatch):
    monkeypatch.setenv("SCENARIOD_BINARY", "/nonexistent/scenariod")
    pytester.makepyfile(test_inner="""
def test_needs_a_daemon(scenario):
    scenario("offline-demo")

def test_needs_none():
    pass
""")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*scenariod: could not start scenariod from /nonexistent/scenariod: No such file or directory;"
                                 " name the daemon with --scenariod PATH or SCENARIOD_DAEMON*"])
    monkeypatch.setenv("SCENARIOD_DAEMON", "no-such-daemon")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*scenariod: no daemon to test against: set SCENARIOD_SOCKET *; 'no-such-daemon' is not on PATH*"])


def test_a_failing_expectation_points_at_the_tests_line_and_the_log_is_shown(pytester, inner_environment):
    pytester.makepyfile(test_inner="""
def test_unmatched(scenario):
    session = scenario("ratings-signed-in")
    session.store["session"] = {"user": "alice", "token": "tok-stale"}
    session.perform("fetchRating")
    session.expect_no_unmatched_requests()  # the failing line
""")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        ">*session.expect_no_unmatched_requests()  # the failing line",
        "E*AssertionError: session test_unmatched-main-* made 1 request that matched no route:",
        "E*#1 GET https://api.busratings.example/v1/rating* → matched no route (connectionRefused)",
        "E*closest route 'rating' differs in /headers/authorization: expected Bearer tok-alice-1, got Bearer tok-stale",
        "*scenariod's log (the end)*",
    ])
    assert "def _call" not in result.stdout.str(), "the plugin's own frames are hidden"


def test_the_marker_and_indirect_parametrization_open_the_session(pytester, inner_environment):
    pytester.makepyfile(test_inner="""
import pytest

pytestmark = pytest.mark.scenario("offline-demo")

def test_module_marker(scenario_session):
    assert scenario_session.scenario == "offline-demo"

@pytest.mark.scenario("first-launch", overrides={"clock": {"start": "2027-01-01T00:00:00Z"}})
def test_own_marker(scenario_session):
    assert scenario_session.now() == "2027-01-01T00:00:00Z"

@pytest.mark.parametrize("scenario_session", ["server-error", ("slow-network", {"network": {"routes": []}})], indirect=True)
def test_parametrized(scenario_session):
    assert scenario_session.scenario in ("server-error", "slow-network")
""")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--strict-markers")
    result.assert_outcomes(passed=4)


def test_the_options_name_the_binary_and_scenarios(pytester, inner_environment, monkeypatch, pytestconfig):
    from scenariod_pytest.plugin import daemon_binary, scenario_directories
    arguments = ["--scenariod", daemon_binary(pytestconfig)]
    for directory in scenario_directories(pytestconfig):
        arguments += ["--scenarios", directory]
    monkeypatch.delenv("SCENARIOD_BINARY")
    monkeypatch.delenv("SCENARIOD_SCENARIOS")
    pytester.makepyfile(test_inner="""
def test_models(scenariod):
    assert "offline-demo" in {scenario["name"] for scenario in scenariod.scenarios()}
""")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", *arguments)
    result.assert_outcomes(passed=1)


def test_a_daemon_that_crashes_fails_the_run_and_its_log_is_shown(pytester, inner_environment):
    pytester.makepyfile(test_inner=KILL_DAEMON + """
def test_kills_the_daemon(scenariod_socket):
    kill_daemon(scenariod_socket)
""")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*scenariod's log (the end)*", "scenariod was killed by SIGKILL during the run"])


def test_a_daemon_that_dies_mid_run_stops_the_run_once_saying_how_and_what_its_log_says(pytester, inner_environment):
    """Before: every later test errored with a three-level httpx chain and a teardown error, and the log the message
    pointed to was empty (the daemon logged at warning)."""
    pytester.makepyfile(test_inner=KILL_DAEMON + """
def test_first(scenario):
    scenario("offline-demo").perform("reload")

def test_kills_the_daemon(scenario, scenariod_socket):
    scenario("offline-demo")
    kill_daemon(scenariod_socket)

def test_after_1(scenario):
    scenario("offline-demo")

def test_after_2(scenario):
    scenario("offline-demo")

def test_after_3(scenario):
    scenario("offline-demo")
""")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    output = result.stdout.str()
    assert output.count("scenariod was killed by SIGKILL during the run") >= 1, output
    assert "test_after_2" not in output.split("short test summary")[-1] and "test_after_3 " not in output, output
    # Its log, at info, says what it was doing.
    assert "action reload" in output and "session created" in output, output
    assert output.count("Traceback") == 0 and "httpcore" not in output, output


def test_a_daemon_that_stops_answering_before_it_dies_fails_one_test_in_one_line_then_stops_the_run(
        pytester, inner_environment, monkeypatch):
    """A killed daemon resets connections for a moment before it can be reaped: the first CI run that hit that
    window printed httpx's whole traceback and let the next test run. Here the daemon is frozen, then killed a
    second later, so the window is certain."""
    monkeypatch.setenv("SCENARIOD_TIMEOUT", "0.5")
    pytester.makepyfile(test_inner=KILL_DAEMON.replace("signal.SIGKILL)", "signal.SIGSTOP); kill_later(int(pid))") + """
import threading

def kill_later(pid):
    threading.Timer(1.0, os.kill, (pid, signal.SIGKILL)).start()

def test_freezes_the_daemon(scenariod_socket):
    kill_daemon(scenariod_socket)

def test_after_1(scenario):
    scenario("offline-demo")

def test_after_2(scenario):
    scenario("offline-demo")
""")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    output = result.stdout.str()
    assert "scenariod was killed by SIGKILL during the run" in output, output
    result.stdout.fnmatch_lines(["test_inner.py::test_after_1: POST /v1/sessions: scenariod on * did not answer (ReadTimeout*"])
    assert "test_after_2" not in output.split("short test summary")[-1], output
    assert output.count("Traceback") == 0 and "httpcore" not in output and "httpx" not in output, output


def test_long_parametrized_test_names_keep_their_ends_apart(pytester, inner_environment, tmp_path):
    """Ids were cut to their first 32 characters, so parametrized tests differed only in a hash."""
    out = tmp_path / "ids"
    out.mkdir()
    pytester.makepyfile(test_inner=f"""
import pytest

@pytest.mark.parametrize("case", ["the-first-rather-long-case", "the-second-rather-long-case"])
def test_a_rather_long_name_of_a_parametrized_test(scenario, case):
    session = scenario("offline-demo")
    open({str(out)!r} + "/" + session.id, "w").close()
""")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)
    ids = sorted(os.listdir(out))
    assert ids[0].startswith("test_a_r-first-rather-long-case-"), ids
    assert ids[1].startswith("test_a_r-second-rather-long-case-"), ids
