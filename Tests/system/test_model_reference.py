"""scripts/model-reference (issue 33, item 2): each Model's page is made from runs, so an example that is missing,
fails, or refuses nothing stops the page instead of documenting the wrong thing; and the pages list what each
action sent, the query included, and what the Model refused, read from the daemon, not written by hand."""
import json
import pathlib
import subprocess
import sys

from daemon import BINARY, REPOSITORY

SCRIPT = REPOSITORY / "scripts" / "model-reference"
EXAMPLES = json.loads((REPOSITORY / "docs/models/examples.json").read_text())


def generate(tmp_path, examples, check=False):
    (tmp_path / "examples.json").write_text(json.dumps(examples))
    out = tmp_path / "pages"
    command = [sys.executable, str(SCRIPT), "--daemon", BINARY, "--scenarios", str(REPOSITORY / "scenarios"),
               "--out", str(out), "--examples", str(tmp_path / "examples.json")] + (["--check"] if check else [])
    return subprocess.run(command, capture_output=True, text=True, timeout=120), out


def test_the_pages_show_each_request_with_its_query_and_the_models_refusals(tmp_path):
    run, out = generate(tmp_path, EXAMPLES)
    assert run.returncode == 0, run.stdout + run.stderr
    ratings = (out / "Ratings.md").read_text()
    assert "1. `GET https://api.busratings.example/v1/rating?user=alice` (answered by route `rating`, 200)" in ratings, ratings
    assert "   - body: `{\"bus\": number, \"driver\": number}`" in ratings, ratings
    assert "| `rate` | `ratings-signed-in` | `driver`: `6`, `bus`: `0` | Ratings are 1 to 5 stars; got driver 6, bus 0. | 0 |" in ratings
    assert "- `lastSubmitted`: object (sometimes absent)" in ratings, "the state after an action with arguments counts too"
    feed = (out / "FeedReader.md").read_text()
    assert "### When the clock moves 15m" in feed and feed.count("GET https://www.cocoawithlove.com/feed.json") == 3, feed
    # The shipped pages are these pages.
    for name in ("Ratings.md", "FeedReader.md"):
        assert (REPOSITORY / "docs/models" / name).read_text() == (out / name).read_text(), f"docs/models/{name} is stale"


def test_an_action_without_an_example_is_named(tmp_path):
    examples = json.loads(json.dumps(EXAMPLES))
    del examples["Ratings"]["actions"]["rate"]
    run, _ = generate(tmp_path, examples)
    assert run.returncode == 1
    assert "Ratings has no example for 'rate'; add a scenario (and arguments) under \"actions\"" in run.stderr, run.stderr


def test_an_example_that_fails_is_refused_rather_than_documented(tmp_path):
    examples = json.loads(json.dumps(EXAMPLES))
    examples["Ratings"]["actions"]["fetchRating"]["scenario"] = "ratings-expired-token"
    run, _ = generate(tmp_path, examples)
    assert run.returncode == 1
    assert ("the example of Ratings.fetchRating in 'ratings-expired-token' with {} ended with the error "
            "'You were signed out: Your token expired") in run.stderr, run.stderr


def test_a_refusal_the_model_accepts_is_named(tmp_path):
    examples = json.loads(json.dumps(EXAMPLES))
    examples["Ratings"]["refused"].append({"action": "rate", "scenario": "ratings-signed-in",
                                           "arguments": {"driver": 5, "bus": 5}})
    run, _ = generate(tmp_path, examples)
    assert run.returncode == 1
    assert "the refusal Ratings.rate in 'ratings-signed-in' with {\"driver\": 5, \"bus\": 5} did not set the state's error" in run.stderr, run.stderr


def test_check_fails_on_a_page_edited_by_hand(tmp_path):
    run, out = generate(tmp_path, EXAMPLES)
    assert run.returncode == 0, run.stderr
    page = out / "Ratings.md"
    page.write_text(page.read_text().replace("?user=alice", ""))
    check, _ = generate(tmp_path, EXAMPLES, check=True)
    assert check.returncode == 1 and f"stale: {page}" in check.stderr, check.stderr
