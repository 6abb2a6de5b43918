"""Every call the plugin makes is an operation of the daemon's API document, read from $SCENARIOD_OPENAPI
(Tests/python/run.sh sets it to openapi/scenariod.yaml)."""
import os
import re

import pytest

from scenariod_pytest import ScenariodClient, ScenariodError


def operations(document):
    """(method, path regex, path) for each operation, from the document's `paths` section."""
    found, path = [], None
    for line in open(document, encoding="utf-8"):
        if re.match(r"^\S", line) and not line.startswith("paths:"):
            path = None
        if match := re.match(r"^  (/\S*):\s*$", line):
            path = match.group(1)
        elif path and (match := re.match(r"^    (get|put|post|delete|patch):", line)):
            pattern = "^" + re.sub(r"\\{[^}]+\\}", "[^/]+", re.escape(path)) + "$"
            found.append((match.group(1).upper(), re.compile(pattern), path))
    return found


def test_every_call_the_plugin_makes_is_a_documented_operation(scenariod_socket):
    document = os.environ.get("SCENARIOD_OPENAPI")
    if not document:
        pytest.skip("set SCENARIOD_OPENAPI to the daemon's openapi/scenariod.yaml")
    documented = operations(document)
    assert len(documented) > 30, f"read only {len(documented)} operations from {document}"
    made = []
    with ScenariodClient(scenariod_socket) as client:
        client.http.event_hooks["request"] = [lambda request: made.append((request.method, request.url.raw_path.decode().split("?")[0]))]
        client.health(), client.version(), client.models(), client.scenarios(), client.scenario("offline-demo")
        client.reload_scenarios(), client.sessions()
        with client.create_session("offline-demo") as session:
            client.session(session.id).info()
            session.perform("reload"), session.state(), session.now(), session.advance("1s")
            session.set_clock("2026-11-01T10:00:00Z")
            session.store["k/.."] = 1
            session.store["k/.."], list(session.store)
            del session.store["k/.."]
            for call in (lambda: session.services(), lambda: session.service_state("none"),
                         lambda: session.set_service_state("none", {}), lambda: session.patch_service_state("none", {}),
                         lambda: session.save_recording(f"recording-{session.id}")):
                try:
                    call()
                except ScenariodError as refused:
                    assert refused.code in ("unknownService", "notRecording"), refused
            session.set_route("feed", {"extends": "feed", "response": {"status": 500}}), session.remove_route("feed")
            session.set_network_conditions(offline=True), session.network_conditions(), session.set_network_conditions()
            session.journal(), session.unmatched(), session.request_counts(), session.clear_journal()
            session.history(), session.rewind(0), session.reset()
            with session.events() as events:
                next(events)
            session.save(f"saved-{session.id}")
    undocumented = sorted({(method, path) for method, path in made
                           if not any(method == m and pattern.match(path) for m, pattern, _ in documented)})
    assert not undocumented, f"calls that are not operations of {document}: {undocumented}"
    assert len(made) > 30, f"the hook saw only {made}"
