"""The dashboard's files and its bridge (issue 15, item 3; issue 28, items 1–2): served by the daemon with their
content types and a strict Content-Security-Policy; `scenarioctl dashboard` prints its URL with the run's token in
the fragment only, serves the page's public files to anyone, answers /v1/ only with that token in an Authorization
header (never a cookie, never a query string) and only for its own Host and Origin, sets no cookie, and what it
refuses never reaches the daemon; while the daemon is stopped it answers 503 daemonUnavailable at once and sends no
change on. (The pages themselves are driven in a real browser by Tests/browser.)

On the old cookie-based bridge these fail at `bridge()`'s URL form (it printed `http://127.0.0.1:PORT/?token=…`);
beyond it: a request without the token got 403, not 401 tokenRefused, /dashboard/ needed the token, the token in
an Authorization header was refused and in a cookie accepted, and a stopped daemon gave no 503 daemonUnavailable."""
import re
import socket
import subprocess
import threading
import time

import httpx

from daemon import SCENARIOCTL, unix_connections


def printed_bridge(daemon, session=None):
    """`scenarioctl dashboard [--session ID]` on a port the system picks: (process, base URL, the link's token). Its
    first line is `Dashboard of SOCKET: http://127.0.0.1:PORT/dashboard/#token=HEX64[&session=ID]`."""
    process = subprocess.Popen([SCENARIOCTL, "--socket", daemon.socket, "dashboard", *(["--session", session] if session else [])],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True)
    line = read_line(process)
    suffix = re.escape(f"&session={session}") if session else ""
    match = re.fullmatch(rf"Dashboard of {re.escape(daemon.socket)}: (http://127\.0\.0\.1:(\d+))/dashboard/#token=([0-9a-f]{{64}}){suffix}",
                         line.strip())
    if not match:
        process.terminate()
        process.wait(timeout=10)
    assert match, f"scenarioctl dashboard printed {line!r}"
    return process, match.group(1), match.group(3)


def open_tab(base, link):
    """POST /bridge/tab with a link's token, as the page does when it loads from a printed URL."""
    return httpx.post(f"{base}/bridge/tab", headers=bearer(link), timeout=10)


def bridge(daemon, session=None):
    """A bridge and a tab's token, traded for its printed link's as the page does: (process, base URL, tab token)."""
    process, base, link = printed_bridge(daemon, session)
    answer = open_tab(base, link)
    assert answer.status_code == 200 and answer.headers["cache-control"] == "no-store", answer.text
    return process, base, answer.json()["token"]


def read_line(process, seconds=30):
    """The bridge's next line of output, waiting at most `seconds` ('' if none came)."""
    lines = []
    reader = threading.Thread(target=lambda: lines.append(process.stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout=seconds)
    return lines[0] if lines else ""


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


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


def test_every_file_of_the_dashboard_directory_is_served_as_it_is_and_nothing_else(daemon_with):
    """The binary embeds the whole Dashboard directory and serves the files DashboardAsset.named lists: the two must
    be the same files, byte for byte, each with its extension's content type, and every module the page imports."""
    import pathlib

    daemon = daemon_with({})
    directory = pathlib.Path(__file__).resolve().parents[2] / "Sources/ControlServer/Dashboard"
    files = sorted(path.name for path in directory.iterdir())
    assert "app.js" in files and "session-page.js" in files, files
    types = {"html": "text/html", "js": "text/javascript", "css": "text/css", "svg": "image/svg+xml"}
    for name in files:
        response = daemon.call("GET", f"/dashboard/{name}", expect=200)
        assert response.content == (directory / name).read_bytes(), f"/dashboard/{name} is not the file"
        assert response.headers["content-type"].startswith(types[name.rsplit(".", 1)[1]]), (name, response.headers)
    # An unknown file is refused with the list of those served: the directory's files, no more.
    message = daemon.call("GET", "/dashboard/nope.js", expect=404).json()["message"]
    assert message.endswith(f"its files are {', '.join(files)}."), message
    # Every module a script imports is one of them.
    for path in directory.glob("*.js"):
        for imported in re.findall(r'from "\./([^"]+)"', path.read_text()):
            assert imported in files, f"{path.name} imports {imported}, which is not served"


def test_the_bridge_refuses_without_the_token_and_for_a_foreign_host_or_origin(daemon_with):
    daemon = daemon_with({})
    process, base, token = bridge(daemon)
    answers = []
    try:
        with httpx.Client(base_url=base, timeout=10, event_hooks={"response": [answers.append]}) as browser:
            # The page's own files hold no secret: anyone on this machine may read them, without the token.
            for path in ["/dashboard/", "/dashboard", "/dashboard/app.js", "/dashboard/style.css", "/dashboard/icon.svg"]:
                page = browser.get(path)
                assert page.status_code == 200 and "content-security-policy" in page.headers, (path, page.status_code, page.text)
            # HEAD needs no token either: the bridge carries it to the daemon and passes on what the daemon answers.
            head = browser.head("/dashboard/")
            assert head.status_code not in (401, 403) and head.status_code == daemon.http.head("/dashboard/").status_code, head
            root = browser.get("/")
            assert root.status_code == 303 and root.headers["location"] == "/dashboard/", (root.status_code, root.headers)
            assert browser.get("/elsewhere").status_code == 404
            # The API without the token: 401, whatever the path, and the browser is told to send a bearer token.
            for method, path in [("GET", "/v1/health"), ("POST", "/v1/sessions"), ("GET", "/v1/sessions/default/events")]:
                refused = browser.request(method, path, json={"scenario": "offline", "id": "no-token"} if method == "POST" else None)
                assert refused.status_code == 401, (path, refused.status_code, refused.text)
                assert refused.json()["code"] == "tokenRefused" and refused.headers["www-authenticate"].lower().startswith("bearer"), (path, refused.headers, refused.text)
            # The token anywhere but an Authorization header is no token: not in a cookie, not in the query string,
            # not after another scheme; nor another token.
            for headers, query in [({"Cookie": f"scenariod_dashboard={token}"}, ""), ({}, f"?token={token}"),
                                   ({"Authorization": f"Basic {token}"}, ""), ({"Authorization": token}, ""),
                                   (bearer("0" * 64), ""), (bearer(token[:-1]), ""), (bearer(token + "0"), "")]:
                refused = browser.post("/v1/sessions" + query, headers=headers, json={"scenario": "offline", "id": "no-token"})
                assert refused.status_code == 401 and refused.json()["code"] == "tokenRefused", (headers, query, refused.text)
            assert browser.get(f"/?token={token}&session=default").status_code == 303  # the old form grants nothing
            assert browser.get("/v1/health", headers=bearer(token)).status_code == 200
            # DNS rebinding (another Host) and a page of another site (another Origin): refused, token or not, and
            # for the public files too.
            port = base.rsplit(":", 1)[1]
            foreign = [{"Host": "evil.example"}, {"Host": f"attacker.example:{port}"}, {"Host": "127.0.0.1:1"},
                       {"Origin": "http://evil.example"}, {"Origin": "null"}, {"Origin": "http://127.0.0.1:1"}]
            for headers in foreign:
                refused = browser.post("/v1/sessions", headers={**bearer(token), **headers}, json={"scenario": "offline", "id": "foreign"})
                assert refused.status_code == 403 and refused.json()["code"] == "foreignOrigin", (headers, refused.text)
                assert browser.get("/dashboard/", headers=headers).status_code == 403, headers
            same_origin = browser.post("/v1/sessions", headers={**bearer(token), "Origin": base}, json={"scenario": "offline", "id": "mine"})
            assert same_origin.status_code == 201, same_origin.text
            by_name = browser.get("/v1/sessions/mine", headers={**bearer(token), "Host": f"localhost:{port}", "Origin": f"http://localhost:{port}"})
            assert by_name.status_code == 200, by_name.text
        # No answer set a cookie.
        assert answers and not [a.request.url for a in answers if "set-cookie" in a.headers]
        # The daemon saw none of the refused requests: only the bridge's own session exists.
        assert [s["id"] for s in daemon.call("GET", "/v1/sessions", expect=200).json()] == ["mine"]
        assert "no-token" not in daemon.log() and "foreign" not in daemon.log()
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_the_printed_url_names_the_session_and_the_bridge_keeps_running(daemon_with):
    daemon = daemon_with({}, ["--scenario", "offline-demo"])
    process, base, token = bridge(daemon, session="default")
    try:
        assert read_line(process, 10).strip(), "no second line"
        time.sleep(0.5)
        assert process.poll() is None, "scenarioctl dashboard stopped by itself"
        with httpx.Client(base_url=base, timeout=10, headers=bearer(token)) as browser:
            assert browser.get("/v1/sessions/default").status_code == 200
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_the_bridge_carries_event_streams(daemon_with):
    daemon = daemon_with({}, ["--scenario", "offline-demo"])
    process, base, token = bridge(daemon)
    try:
        with httpx.Client(base_url=base, timeout=10, headers=bearer(token)) as browser:
            with browser.stream("GET", "/v1/sessions/default/events") as stream:
                assert stream.headers["content-type"] == "text/event-stream"
                lines = (line.rstrip("\n") for line in stream.iter_lines())
                seen = [next(lines), next(lines)]  # the current state comes first
                with httpx.Client(base_url=base, timeout=10, headers=bearer(token)) as other_tab:
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
    # The page's script modules, all of them: each is a file of the directory the binary embeds.
    script = "\n".join(path.read_text() for path in sorted((repository / "Sources/ControlServer/Dashboard").glob("*.js")))
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
    # The bridge's own operations (a tab opening another) never reach the daemon: scenarioctl(1) documents them.
    manual = (repository / "man/scenarioctl.1").read_text().replace("\\", "")
    for method, expression in calls:
        if expression.startswith("/bridge/"):
            assert f"{method} {expression}" in manual, f"{method} {expression} is not in scenarioctl(1)"
            continue
        assert known(method, template(expression)), f"{method} {expression} is not an operation of openapi/scenariod.yaml"
    # The event stream is read with fetch, which carries the Authorization header (EventSource cannot send one).
    assert "`${base}/events`" in script and not re.search(r"new\s+EventSource\s*\(", script) and known("GET", "/v1/sessions/x/events")


def test_refused_reads_never_reach_the_daemon_and_allowed_ones_do(daemon_with):
    """At debug the daemon logs every read it gets ("request GET /path"): a path the bridge refused has no line, the
    same path allowed afterwards has one."""
    daemon = daemon_with({}, ["--log-level", "debug"])
    process, base, token = bridge(daemon)
    port = base.rsplit(":", 1)[1]
    allowed_headers = bearer(token)
    # Each refusal on a path of its own, each path one the daemon answers with 200.
    refusals = {"/v1/scenarios/first-launch": ({}, 401),  # no token
                "/v1/scenarios/feed-updates": (bearer("0" * 64), 401),  # another token
                "/v1/scenarios/ratings-signed-in": ({"Cookie": f"scenariod_dashboard={token}"}, 401),  # a cookie is no token
                "/v1/scenarios/offline-demo": ({**allowed_headers, "Host": "evil.example"}, 403),
                "/v1/scenarios/slow-network": ({**allowed_headers, "Host": f"attacker.example:{port}"}, 403),
                "/v1/scenarios/server-error": ({**allowed_headers, "Origin": "http://evil.example"}, 403),
                "/v1/scenarios/empty-feed": ({**allowed_headers, "Origin": "null"}, 403)}
    try:
        with httpx.Client(base_url=base, timeout=10) as browser:
            for path, (headers, status) in refusals.items():
                refused = browser.get(path, headers=headers)
                assert refused.status_code == status, (path, headers, refused.status_code, refused.text)
            refused = browser.get("/v1/scenarios/malformed-feed", params={"token": token})  # a query string is no token
            assert refused.status_code == 401, refused.text
            for path in [*refusals, "/v1/scenarios/malformed-feed"]:
                allowed = browser.get(path, headers={**allowed_headers, "Origin": base})
                assert allowed.status_code == 200 and allowed.json()["name"] == path.rsplit("/", 1)[1], allowed.text
    finally:
        process.terminate()
        process.wait(timeout=10)
    # Every allowed read is in the log by now, and it came after the refused one of its path: one line each.
    log = daemon.log().splitlines()
    for path in [*refusals, "/v1/scenarios/malformed-feed"]:
        lines = [line for line in log if re.search(rf"request GET {re.escape(path)}$", line)]
        assert len(lines) == 1, (path, lines)


def test_a_stopped_daemon_gets_503_at_once_and_no_change_is_kept_for_later(daemon_with):
    """Stopped (its socket gone) and killed (its socket left behind, refusing): every /v1 request through the bridge
    is answered within 1 s (the documented bound) with 503 daemonUnavailable, and a change asked meanwhile is not
    applied once the daemon is back."""
    daemon = daemon_with({}, ["--scenario", "offline-demo"])
    process, base, token = bridge(daemon)
    try:
        with httpx.Client(base_url=base, timeout=10, headers=bearer(token)) as browser:
            assert browser.get("/v1/health").status_code == 200
            for outage in ("stop", "kill"):
                getattr(daemon, outage)()
                for method, path, body in [("GET", "/v1/health", None), ("GET", "/v1/sessions/default/state", None),
                                           ("POST", "/v1/sessions/default/clock/advance", {"by": "1m"}),
                                           ("PUT", "/v1/sessions/default/kv/during-outage", True),
                                           ("GET", "/v1/sessions/default/events", None)]:
                    started = time.monotonic()
                    answer = browser.request(method, path, json=body)
                    elapsed = time.monotonic() - started
                    assert answer.status_code == 503 and answer.json()["code"] == "daemonUnavailable", (outage, method, path, answer.status_code, answer.text)
                    assert elapsed < 1, f"{method} {path} took {elapsed:.2f} s after {outage}"
                    assert "set-cookie" not in answer.headers
                daemon.start()
                deadline = time.monotonic() + 10
                while browser.get("/v1/health").status_code != 200:
                    assert time.monotonic() < deadline, f"the bridge did not reach the restarted daemon within 10 s ({outage})"
                    time.sleep(0.1)
                time.sleep(1.5)  # time for anything kept back to arrive late
                steps = daemon.call("GET", "/v1/sessions/default/history", expect=200).json()["steps"]
                assert [step["kind"] for step in steps] == ["start"], (outage, steps)
                assert daemon.call("GET", "/v1/sessions/default/kv/during-outage").status_code == 404
                assert browser.post("/v1/sessions/default/clock/advance", json={"by": "15m"}).json()["now"] == "2026-11-01T09:15:00Z"
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_abandoned_event_streams_give_back_theirunix_connections(daemon_with):
    """10,000 event streams opened through the bridge and abandoned by a raw client (the browser's navigation, reload
    or closed tab): the bridge holds no daemon connection and no descriptor for any of them, and every request is
    answered. Before, the bridge kept each until the session's next event and answered 503 from the 9th on."""
    daemon = daemon_with({}, ["--scenario", "offline-demo"])
    process, base, token = bridge(daemon)
    port = int(base.rsplit(":", 1)[1])
    head = f"Host: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\n\r\n"

    def get(path):
        with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
            connection.sendall(f"GET {path} HTTP/1.1\r\n{head}".encode())
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = connection.recv(4096)
                assert chunk, f"the bridge closed GET {path} unanswered"
                data += chunk
            return data.split(b"\r\n", 1)[0]

    try:
        get("/v1/health")
        baseline = unix_connections(process.pid)
        samples = []
        for index in range(10_000):
            assert get("/v1/sessions/default/events") == b"HTTP/1.1 200 OK", index
            if index % 1_000 == 999:
                deadline = time.monotonic() + 5
                while unix_connections(process.pid)[0] > baseline[0] + 1 and time.monotonic() < deadline:
                    time.sleep(0.05)
                assert get("/v1/health") == b"HTTP/1.1 200 OK", index
                samples.append(unix_connections(process.pid))
        assert all(unix <= baseline[0] + 1 for unix, _ in samples), (baseline, samples)
        assert max(descriptors for _, descriptors in samples) <= baseline[1] + 4, (baseline, samples)
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_a_printed_url_opens_one_tab_and_a_tab_opens_more(daemon_with):
    """The printed link's token is traded once for a tab's (the page does it as it loads), so the copy of the URL in
    the browser's history opens nothing; each use prints the next URL; a tab mints one-use links for more tabs; a
    link's token is never an API token."""
    daemon = daemon_with({}, ["--scenario", "offline-demo"])
    process, base, link = printed_bridge(daemon, session="default")
    try:
        assert "opens one tab" in read_line(process, 10)
        opened = open_tab(base, link)
        assert opened.status_code == 200, opened.text
        tab = opened.json()["token"]
        assert re.fullmatch(r"[0-9a-f]{64}", tab) and tab != link
        # The next URL, printed at once, keeps --session.
        line = read_line(process, 10).strip()
        match = re.fullmatch(rf"A tab opened that URL, which opens one tab only; for another tab: {re.escape(base)}"
                             r"/dashboard/#token=([0-9a-f]{64})&session=default", line)
        assert match and match.group(1) not in (link, tab), line
        # The used link opens nothing more, and neither link is an API token; the tab's is.
        again = open_tab(base, link)
        assert again.status_code == 401 and again.json()["code"] == "tokenRefused", again.text
        assert "opened a tab already" in again.json()["message"] and "printed last" in again.json()["message"]
        with httpx.Client(base_url=base, timeout=10) as browser:
            for token in (link, match.group(1)):
                assert browser.get("/v1/health", headers=bearer(token)).status_code == 401
            assert browser.get("/v1/sessions/default", headers=bearer(tab)).status_code == 200
            # A tab mints a link for another: it opens one tab, once; a link cannot mint, nor can nobody.
            minted = browser.post("/bridge/link", headers=bearer(tab))
            assert minted.status_code == 200 and minted.headers["cache-control"] == "no-store", minted.text
            second = minted.json()["token"]
            for token in (second, link, None):
                refused = browser.post("/bridge/link", headers=bearer(token) if token else {})
                assert refused.status_code == 401 and refused.json()["code"] == "tokenRefused", refused.text
            other = open_tab(base, second)
            assert other.status_code == 200 and other.json()["token"] not in (tab, second), other.text
            assert open_tab(base, second).status_code == 401
            assert browser.get("/v1/health", headers=bearer(other.json()["token"])).status_code == 200
            # A minted link's use prints nothing: only the printed URL is replaced.
            assert read_line(process, 1) == ""
            # Only POST, and only from this port's own pages.
            assert browser.get("/bridge/tab", headers=bearer(match.group(1))).status_code == 405
            foreign = browser.post("/bridge/tab", headers={**bearer(match.group(1)), "Origin": "http://127.0.0.1:1"})
            assert foreign.status_code == 403 and foreign.json()["code"] == "foreignOrigin", foreign.text
        # Still unused after all that: the refused requests used up nothing.
        assert open_tab(base, match.group(1)).status_code == 200
    finally:
        process.terminate()
        process.wait(timeout=10)
