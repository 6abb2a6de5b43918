"""The dashboard's files and its bridge (issue 15, item 3): served by the daemon with their content types and a
strict Content-Security-Policy; `scenarioctl dashboard` answers only with the run's token and for its own Host and
Origin, and what it refuses never reaches the daemon. (The pages themselves are driven in a real browser by
Tests/browser.)"""
import re
import subprocess

import httpx

from daemon import SCENARIOCTL


def bridge(daemon):
    """`scenarioctl dashboard` on a port the system picks: (process, base URL, token)."""
    process = subprocess.Popen([SCENARIOCTL, "--socket", daemon.socket, "dashboard"], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    line = process.stdout.readline()
    match = re.search(r"(http://127\.0\.0\.1:(\d+))/\?token=([0-9a-f]{64})$", line.strip())
    assert match, f"scenarioctl dashboard printed {line!r}"
    return process, match.group(1), match.group(3)


def test_the_daemon_serves_the_dashboard_with_content_types_and_a_strict_policy(daemon_with):
    daemon = daemon_with({})
    for path, content_type in [("/dashboard/", "text/html"), ("/dashboard", "text/html"),
                               ("/dashboard/app.js", "text/javascript"), ("/dashboard/style.css", "text/css"),
                               ("/dashboard/icon.svg", "image/svg+xml")]:
        response = daemon.call("GET", path, expect=200)
        assert response.headers["content-type"].startswith(content_type), (path, response.headers)
        policy = response.headers["content-security-policy"]
        assert "default-src 'none'" in policy and "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert response.headers["x-content-type-options"] == "nosniff"
    assert '<script type="module" src="/dashboard/app.js">' in daemon.call("GET", "/dashboard/").text
    assert "unsafe-inline" not in daemon.call("GET", "/dashboard/").headers["content-security-policy"]
    assert daemon.call("GET", "/dashboard/nope.js", expect=404).json()["code"] == "noSuchEndpoint"


def test_the_bridge_refuses_without_the_token_and_for_a_foreign_host_or_origin(daemon_with):
    daemon = daemon_with({})
    process, base, token = bridge(daemon)
    try:
        with httpx.Client(base_url=base, timeout=10) as browser:
            # Without the token: 403, whatever the path.
            for method, path in [("GET", "/dashboard/"), ("GET", "/v1/health"), ("POST", "/v1/sessions")]:
                refused = browser.request(method, path, json={"scenario": "offline", "id": "no-token"} if method == "POST" else None)
                assert refused.status_code == 403 and "token" in refused.text, (path, refused.text)
            assert browser.get("/?token=" + "0" * 64).status_code == 403
            # The printed URL: the token becomes a cookie and leaves the address.
            opened = browser.get(f"/?token={token}&session=default")
            assert opened.status_code == 303 and opened.headers["location"] == "/dashboard/#/session/default"
            assert "HttpOnly" in opened.headers["set-cookie"] and "SameSite=Strict" in opened.headers["set-cookie"]
            cookie = {"Cookie": f"scenariod_dashboard={token}"}
            assert browser.get("/v1/health", headers=cookie).status_code == 200
            page = browser.get("/dashboard/", headers=cookie)
            assert page.status_code == 200 and "content-security-policy" in page.headers
            # DNS rebinding (another Host) and a page of another site (another Origin): refused, token or not.
            foreign = [{"Host": "evil.example"}, {"Host": f"attacker.example:{base.rsplit(':', 1)[1]}"},
                       {"Origin": "http://evil.example"}, {"Origin": "null"}]
            for headers in foreign:
                refused = browser.post("/v1/sessions", headers={**cookie, **headers}, json={"scenario": "offline", "id": "foreign"})
                assert refused.status_code == 403, (headers, refused.text)
            same_origin = browser.post("/v1/sessions", headers={**cookie, "Origin": base}, json={"scenario": "offline", "id": "mine"})
            assert same_origin.status_code == 201, same_origin.text
        # The daemon saw none of the refused requests: only the bridge's own session exists.
        assert [s["id"] for s in daemon.call("GET", "/v1/sessions", expect=200).json()] == ["mine"]
        assert "no-token" not in daemon.log() and "foreign" not in daemon.log()
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_the_bridge_carries_event_streams(daemon_with):
    daemon = daemon_with({}, ["--scenario", "offline-demo"])
    process, base, token = bridge(daemon)
    try:
        cookie = {"Cookie": f"scenariod_dashboard={token}"}
        with httpx.Client(base_url=base, timeout=10, headers=cookie) as browser:
            with browser.stream("GET", "/v1/sessions/default/events") as stream:
                assert stream.headers["content-type"] == "text/event-stream"
                lines = (line.rstrip("\n") for line in stream.iter_lines())
                seen = [next(lines), next(lines)]  # the current state comes first
                with httpx.Client(base_url=base, timeout=10, headers=cookie) as other_tab:
                    other_tab.post("/v1/sessions/default/clock/advance", json={"by": "1m"})
                for line in lines:
                    seen.append(line)
                    if line == "event: clockMoved":
                        break
                assert "event: stateChanged" in seen and "event: clockMoved" in seen, seen
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_every_request_the_dashboard_makes_is_a_documented_operation():
    """Reads the page's script: each `api(METHOD, path)` and the event stream must be an operation of the document."""
    import pathlib

    import yaml

    repository = pathlib.Path(__file__).resolve().parents[2]
    script = (repository / "Sources/ControlServer/Dashboard/app.js").read_text()
    document = yaml.safe_load((repository / "openapi/scenariod.yaml").read_text())
    documented = {(method.upper(), path) for path, item in document["paths"].items() for method in item if method != "parameters"}

    def template(expression):
        # `${base}` is a session's path; `${encode(x)}` is a path parameter; the rest is literal.
        path = expression.replace("${base}", "/v1/sessions/{session}")
        return re.sub(r"\$\{encode\([^)]*\)\}", "{}", path)

    def known(method, path):
        return any(m == method and re.fullmatch(re.sub(r"\\\{[^}]*\\\}", "[^/]+", re.escape(p)), path.replace("{}", "x"))
                   for m, p in documented)

    calls = re.findall(r'api\("(GET|POST|PUT|DELETE)", [`"]([^`"]+)[`"]', script)
    assert len(calls) >= 15, calls
    for method, expression in calls:
        assert known(method, template(expression)), f"{method} {expression} is not an operation of openapi/scenariod.yaml"
    assert "new EventSource(`${base}/events`)" in script and known("GET", "/v1/sessions/x/events")


def test_refused_reads_never_reach_the_daemon_and_allowed_ones_do(daemon_with):
    """At debug the daemon logs every read it gets ("request GET /path"): a path the bridge refused has no line, the
    same path allowed afterwards has one."""
    daemon = daemon_with({}, ["--log-level", "debug"])
    process, base, token = bridge(daemon)
    port = base.rsplit(":", 1)[1]
    cookie = {"Cookie": f"scenariod_dashboard={token}"}
    # Each refusal on a path of its own, each path one the daemon answers with 200.
    refusals = {"/v1/scenarios/first-launch": {},  # no token
                "/v1/scenarios/feed-updates": {"Cookie": "scenariod_dashboard=" + "0" * 64},  # another token
                "/v1/scenarios/offline-demo": {**cookie, "Host": "evil.example"},
                "/v1/scenarios/slow-network": {**cookie, "Host": f"attacker.example:{port}"},
                "/v1/scenarios/server-error": {**cookie, "Origin": "http://evil.example"},
                "/v1/scenarios/empty-feed": {**cookie, "Origin": "null"}}
    try:
        with httpx.Client(base_url=base, timeout=10) as browser:
            for path, headers in refusals.items():
                refused = browser.get(path, headers=headers)
                assert refused.status_code == 403, (path, headers, refused.text)
            for path in refusals:
                allowed = browser.get(path, headers={**cookie, "Origin": base})
                assert allowed.status_code == 200 and allowed.json()["name"] == path.rsplit("/", 1)[1], allowed.text
    finally:
        process.terminate()
        process.wait(timeout=10)
    # Every allowed read is in the log by now, and it came after the refused one of its path: one line each.
    log = daemon.log().splitlines()
    for path in refusals:
        lines = [line for line in log if re.search(rf"request GET {re.escape(path)}$", line)]
        assert len(lines) == 1, (path, lines)
