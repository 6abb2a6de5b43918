"""Response templating (issue 16, item 4): bodies and headers filled from the request and the session's virtual
clock with Mustache; template errors found when scenarios load, with their place; answers stay deterministic."""
import subprocess

from daemon import SCENARIOCTL

# A feed that says how and when it was asked for. `{{…}}` starts a YAML flow mapping, so templates are quoted.
TEMPLATED = """description: A feed whose one item says when and how it was asked for.
extends: first-launch
network:
  routes:
    - extends: feed
      response:
        template: true
        headers:
          X-Asked-At: "{{now.httpDate}}"
        body:
          version: https://jsonfeed.org/version/1.1
          title: "Feed of {{request.path.0}}"
          items:
            - id: "{{request.url}}"
              title: "Asked {{request.method}} with Accept {{request.headers.accept}}"
              summary: "at {{now}}, {{now.epochSeconds}} s; say \\"{{request.query.say}}\\""
              date_published: "{{now.date}}"
"""

BROKEN = """description: A template with an unclosed section and a misspelt name.
extends: first-launch
network:
  routes:
    - extends: feed
      response:
        template: true
        body: "{{requst.path}} {{#request.query}}"
"""


def test_a_templated_answer_takes_values_from_the_request_and_the_virtual_clock(daemon_with):
    daemon = daemon_with({"templated": TEMPLATED})
    daemon.session("templated", "t")
    state = daemon.state("t")
    assert state["title"] == "Feed of feed.json", state
    item = state["items"][0]
    assert item["id"] == "https://www.cocoawithlove.com/feed.json"
    assert item["title"] == "Asked GET with Accept application/feed+json, application/json"
    assert item["summary"] == 'at 2026-11-01T09:00:00Z, 1793523600 s; say ""'
    assert item["datePublished"] == "2026-11-01"
    # The clock moves, the next answer says so; sub-second precision is kept as everywhere else.
    daemon.call("POST", "/v1/sessions/t/clock/advance", expect=200, json={"by": "90m250ms"})
    assert daemon.act("t", "reload")["items"][0]["summary"] == 'at 2026-11-01T10:30:00.250Z, 1793529000 s; say ""'


def test_text_from_the_request_is_escaped_for_the_json_it_goes_into(daemon_with):
    daemon = daemon_with({})
    route = {"extends": "feed", "request": {"url": "https://www.cocoawithlove.com/feed.json"},
             "response": {"template": True, "body": {"version": "1", "title": "{{request.headers.x-title}}", "items": []}}}
    daemon.call("POST", "/v1/sessions", expect=201, json={"scenario": "first-launch", "id": "e",
                                                          "overrides": {"network": {"routes": [route]}}})
    # The Model sends no X-Title, so the title renders empty; a missing value is nothing, not an error.
    assert daemon.state("e")["title"] == ""
    entry = daemon.journal("e")[0]
    assert (entry["route"], entry["status"], entry["override"]) == ("feed", 200, True), entry


def test_template_errors_are_found_when_scenarios_load_with_their_place(daemon_with):
    daemon = daemon_with({"broken": BROKEN})
    run = subprocess.run([SCENARIOCTL, "--socket", daemon.socket, "scenario", "show", "broken"],
                         capture_output=True, text=True, timeout=30)
    assert run.returncode != 0
    text = run.stdout + run.stderr
    for expected in ["scenario.yaml:8:15: network.routes[0].response.body reads 'requst.path', which no request has. Did you mean 'request'?",
                     "scenario.yaml:8:15: network.routes[0].response.body is not a valid template: a section is never closed; "
                     "end it with {{/NAME}} (template line 1, column 35)."]:
        assert expected in text, text
    body = daemon.call("POST", "/v1/sessions", expect=422, json={"scenario": "first-launch", "overrides": {
        "network": {"routes": [{"extends": "feed", "response": {"template": True, "body": "{{#a}}x{{/b}}"}}]}}}).json()
    assert ("/network/routes/0/response/body: network.routes[0].response.body is not a valid template: a section is "
            "closed with another name than it was opened with") in body["message"], body


def test_templated_answers_are_deterministic(daemon_with):
    daemon = daemon_with({"templated": TEMPLATED})
    runs = []
    for session in ["a", "b"]:
        daemon.session("templated", session)
        daemon.call("POST", f"/v1/sessions/{session}/clock/advance", expect=200, json={"by": "15m"})
        daemon.act(session, "reload")
        journal = [{k: v for k, v in entry.items()} for entry in daemon.journal(session)]
        runs.append((daemon.state(session), journal))
    assert runs[0] == runs[1]
