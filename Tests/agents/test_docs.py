"""The worked examples of docs/use-from-an-agent.md and docs/import-what-you-have.md, run as written: each fenced
block there is an excerpt of this directory (DocumentationExamplesTests checks that)."""
import json
import os
import pathlib
import subprocess
import sys

from daemon import REPOSITORY, SCENARIOCTL

EXAMPLE = pathlib.Path(__file__).with_name("agent_example.py")


def test_the_agent_example_prints_what_the_page_says(daemon):
    environment = {**os.environ, "SCENARIOD_SOCKET": daemon.socket,
                   "PATH": f"{pathlib.Path(SCENARIOCTL).parent}:{os.environ['PATH']}"}
    result = subprocess.run([sys.executable, str(EXAMPLE)], capture_output=True, text=True, env=environment, timeout=120)
    assert result.returncode == 0, result.stderr
    page = (REPOSITORY / "docs/use-from-an-agent.md").read_text()
    printed = page.split("It prints:\n\n```\n", 1)[1].split("```", 1)[0]
    assert result.stdout == printed


HAR_EXAMPLE = """scenarioctl import har docs/examples/feed.har --model FeedReader --out imported
scenariod --scenarios imported --scenario feed --socket ./feed.sock &
scenarioctl --socket ./feed.sock wait
scenarioctl --socket ./feed.sock do reload
kill $!
"""

WIREMOCK_EXAMPLE = """scenarioctl import wiremock docs/examples/wiremock --base-url https://www.cocoawithlove.com --model FeedReader --out imported
scenariod --scenarios imported --scenario wiremock --socket ./wiremock.sock &
scenarioctl --socket ./wiremock.sock wait
scenarioctl --socket ./wiremock.sock do reload
scenarioctl --socket ./wiremock.sock clock advance 1s
scenarioctl --socket ./wiremock.sock state
kill $!
"""

SEND_EXAMPLE = """scenarioctl import wiremock docs/examples/wiremock --base-url https://www.cocoawithlove.com --model FeedReader --scenario shop --out imported
scenariod --scenarios imported --scenario shop --socket ./shop.sock &
scenarioctl --socket ./shop.sock wait
scenarioctl --socket ./shop.sock send GET https://www.cocoawithlove.com/feed.json --no-wait
scenarioctl --socket ./shop.sock clock advance 1s
scenarioctl --socket ./shop.sock sent 2
scenarioctl --socket ./shop.sock send GET https://www.cocoawithlove.com/feed.xml || echo "exit status $?"
kill $!
"""

OPENAPI_EXAMPLE = """scenarioctl import openapi docs/examples/feed-openapi.yaml --model FeedReader --out imported
scenariod --scenarios imported --scenario feed-openapi --socket ./openapi.sock &
scenarioctl --socket ./openapi.sock wait
scenarioctl --socket ./openapi.sock do reload
kill $!
"""

GRAPHQL_EXAMPLE = """scenarioctl import graphql scenarios/trips-happy/schema.graphql --model TripPlanner --base-url https://trips.example --scenario trips-generated --out imported
scenariod --scenarios imported --scenario trips-generated --socket ./graphql.sock &
scenarioctl --socket ./graphql.sock wait
scenarioctl --socket ./graphql.sock state
kill $!
"""


def run_example(tmp_path, script, page="docs/import-what-you-have.md", beside="docs"):
    """Runs a page's example as a reader would: from a directory holding the repository's `beside` directory (its docs,
    or its scenarios), the binaries on PATH."""
    assert f"```sh\n{script}```" in (REPOSITORY / page).read_text()
    (tmp_path / beside).symlink_to(REPOSITORY / beside)
    environment = {**os.environ, "PATH": f"{pathlib.Path(SCENARIOCTL).parent}:{os.environ['PATH']}"}
    result = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=tmp_path, capture_output=True, text=True,
                            env=environment, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_the_har_example(tmp_path):
    printed = run_example(tmp_path, HAR_EXAMPLE)
    assert f"Wrote {tmp_path}/imported/feed: 1 route, 1 fixture file." in printed
    assert "Testing actors in Swift" in printed
    assert "tok-do-not-commit" not in (tmp_path / "imported/feed/scenario.yaml").read_text()


def test_the_wiremock_example(tmp_path):
    printed = run_example(tmp_path, WIREMOCK_EXAMPLE)
    reloaded, advanced = printed.split("Testing actors in Swift", 1)[0], printed
    assert "mappings/feed.json /mappings/1" in printed and "doesNotMatch" in printed, printed
    assert '"isLoading" : true' in reloaded or '"isLoading": true' in reloaded, printed
    assert "Testing actors in Swift" in advanced


def test_the_openapi_example(tmp_path):
    printed = run_example(tmp_path, OPENAPI_EXAMPLE)
    assert "Mock views" in printed and "2 routes" in printed


def test_the_graphql_example(tmp_path):
    printed = run_example(tmp_path, GRAPHQL_EXAMPLE, beside="scenarios")
    assert f"Wrote {tmp_path}/imported/trips-generated: 2 routes, 2 fixture files." in printed, printed
    state = json.loads(printed[printed.index("{"):])
    assert [saved["trip"]["id"] for saved in state["saved"]] == ["trip-1", "trip-2"], printed
    assert "error" not in state, printed


def test_the_send_example(tmp_path):
    printed = run_example(tmp_path, SEND_EXAMPLE)
    assert "request 2 is pending: its answer is delivered at" in printed, printed
    # Read as text, the status line's and the fields' CR LF read as LF.
    answer = printed.split("HTTP/1.1 200 OK\n", 1)[1]
    assert "Content-Type: application/feed+json\n" in answer and "Testing actors in Swift" in answer, printed
    assert "exit status 1" in printed, printed
