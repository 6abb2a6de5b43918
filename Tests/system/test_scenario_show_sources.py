"""`scenarioctl scenario show` shows a scenario as the daemon resolved it, its `extends` chain merged and each
setting marked with the scenario it came from; `--raw` shows the file as written, read from disk now."""
import json
import subprocess

import pytest

from daemon import FIXTURED, SCENARIOCTL, Daemon

BASE = """description: The base
model: Greeter
clock:
  start: 2026-11-02T09:00:00Z
keyValue:
  seed:
    visits: 1
    recent: [1, 2]
network:
  routes:
    - name: hello
      request: { method: GET, url: https://greeter.example/hello }
      response: { status: 200 }
    - name: bye
      request: { method: GET, url: https://greeter.example/bye }
      response: { status: 200 }
profile:
  name: Grace
  display: { theme: dark }
"""

CHILD = """# The child: one seed key, one route's status and two profile values of its own.
description: The child
extends: base
keyValue:
  seed:
    recent: [3]
network:
  routes:
    - extends: bye
      response: { status: 503 }
profile:
  nickname: Gracie
  tags: [x]
"""

BROKEN = """description: Broken
extends: base
profile:
  nmae: Ada
"""


@pytest.fixture
def team(tmp_path):
    daemon = Daemon(tmp_path, {"base": BASE, "child": CHILD, "broken": BROKEN}, binary=FIXTURED,
                    shipped_scenarios=False).start()
    yield daemon
    daemon.stop()


def show(daemon, *arguments):
    run = subprocess.run([SCENARIOCTL, "--socket", daemon.socket, "scenario", "show", *arguments],
                         capture_output=True, text=True, timeout=30)
    return run.returncode, run.stdout, run.stderr


def marks(text):
    """Each line's text and its mark, the part after two or more spaces at the end."""
    found = {}
    for line in text.splitlines():
        head, _, mark = line.rpartition("  ")
        if mark.startswith("← ") or mark in ("(default)", "(initial state)"):
            found[" ".join(head.split())] = mark
    return found


def test_show_merges_the_chain_and_marks_where_each_setting_came_from(team):
    status, out, err = show(team, "child")
    assert status == 0, err
    lines = marks(out)
    assert lines["model: Greeter"] == "← base", out
    assert lines["clock: 2026-11-02T09:00:00Z, frozen"] == "← base", out
    assert lines["seed: recent, visits"] == "← recent: child; visits: base", out
    assert lines["store: memory"] == "(default)", out
    assert lines["network: fake"] == "(default)", out
    assert lines['name: "Grace"'] == "← base", out
    assert lines['display.theme: "dark"'] == "← base", out
    assert lines['nickname: "Gracie"'] == "← child", out
    assert lines['tags: ["x"]'] == "← child", out
    assert lines["flags: {}"] == "(initial state)", out
    routes = {line.split()[0]: line for line in out.splitlines() if line.startswith(("hello ", "bye "))}
    assert routes["hello"].split()[-1] == "base", out
    assert routes["bye"].split()[3] == "503" and routes["bye"].endswith("base, then child"), out


def test_the_json_carries_the_sources_by_pointer_and_the_resolved_service_state(team):
    detail = team.call("GET", "/v1/scenarios/child", expect=200).json()
    sources = detail["sources"]
    assert sources["/model"] == ["base"] and sources["/description"] == ["child"], sources
    assert sources["/keyValue/seed/recent"] == ["child"] and sources["/keyValue/seed/visits"] == ["base"], sources
    assert sources["/network/routes/bye"] == ["base", "child"] and sources["/network/routes/hello"] == ["base"], sources
    assert sources["/profile/nickname"] == ["child"] and sources["/profile/display/theme"] == ["base"], sources
    assert "/profile/flags" not in sources and "/network/mode" not in sources, "defaults are unmarked"
    assert detail["serviceStates"]["profile"] == {
        "name": "Grace", "nickname": "Gracie", "display": {"theme": "dark"}, "flags": {}, "tags": ["x"]}
    status, out, _ = show(team, "child", "--json")
    assert status == 0 and json.loads(out)["sources"] == sources


def test_raw_prints_the_file_as_written_even_for_a_scenario_with_problems(team):
    status, out, err = show(team, "child", "--raw")
    assert status == 0, err
    assert out == CHILD
    status, out, err = show(team, "broken")
    assert status == 1 and "unknown key 'nmae' in profile. Did you mean 'name'?" in err, err
    status, out, err = show(team, "broken", "--raw")
    assert status == 0 and out == BROKEN, err
    body = json.loads(show(team, "broken", "--raw", "--json")[1])
    assert body["scenario"] == "broken" and body["text"] == BROKEN and body["path"].endswith("/broken/scenario.yaml")


def test_raw_reads_the_disk_now_while_show_keeps_what_was_loaded_until_a_reload(team):
    (team.extra / "child" / "scenario.yaml").write_text(CHILD.replace("nickname: Gracie", "nickname: Amazing Grace"))
    assert "nickname: Amazing Grace" in show(team, "child", "--raw")[1]
    assert marks(show(team, "child")[1])['nickname: "Gracie"'] == "← child"
    subprocess.run([SCENARIOCTL, "--socket", team.socket, "reload"], capture_output=True, timeout=30)
    assert marks(show(team, "child")[1])['nickname: "Amazing Grace"'] == "← child"


def test_an_unknown_scenario_is_refused_with_a_suggestion(team):
    status, _, err = show(team, "chlid", "--raw")
    assert status == 1 and "there is no scenario 'chlid'. Did you mean 'child'?" in err, err
