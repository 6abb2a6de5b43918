"""Imported WireMock mappings and OpenAPI documents served to a Model: fixtured's Fetcher sends the requests the
source describes, and each answer is the one WireMock or the document gives; bad input through the CLI is refused
with its place and nothing is written."""
import base64
import json
import pathlib
import subprocess

import pytest
from daemon import FIXTURED

IMPORT_TESTS = pathlib.Path(__file__).resolve().parents[1] / "ScenarioImportTests"


def imported(scenarioctl, tmp_path, *arguments):
    out = tmp_path / "scenarios"
    result = subprocess.run([scenarioctl, "import", *arguments, "--model", "Fetcher", "--daemon", str(FIXTURED), "--out", str(out), "--json"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return out, json.loads(result.stdout)


class Fetch:
    def __init__(self, daemon, scenario):
        self.http = daemon.http
        assert self.http.post("/v1/sessions", json={"scenario": scenario, "id": "served"}).status_code == 201

    def __call__(self, method, url, body=None, headers=None):
        arguments = {"method": method, "url": url, "headers": headers,
                     "body": base64.b64encode(json.dumps(body).encode()).decode() if body is not None else None}
        answer = self.http.post("/v1/sessions/served/actions/fetch", json=arguments).json()["answers"][-1]
        text = base64.b64decode(answer["body"]).decode()
        return answer.get("status"), (json.loads(text) if text.startswith(("[", "{")) else text)


def test_wiremock_stubs_answer_as_wiremock_would(tmp_path, scenarioctl, fixtured_with):
    out, summary = imported(scenarioctl, tmp_path, "wiremock", str(IMPORT_TESTS / "WireMock/stubs"))
    assert summary["routes"] == 13 and len(summary["untranslated"]) == 17
    fetch = Fetch(fixtured_with([out]), "stubs")
    base = "http://localhost:8080"
    # WireMock's to-do example: the read answers by the state the write set.
    assert fetch("GET", f"{base}/todo/items") == (200, {"items": ["Buy milk"]})
    assert fetch("GET", f"{base}/todo/items") == (200, {"items": ["Buy milk"]})
    assert fetch("POST", f"{base}/todo/items", {"item": "Buy bread"})[0] is None  # the body must contain the item
    assert fetch("GET", f"{base}/todo/items") == (200, {"items": ["Buy milk"]})
    assert fetch("POST", f"{base}/todo/items", {"item": "Cancel newspaper subscription"})[0] == 201
    assert fetch("GET", f"{base}/todo/items") == (200, {"items": ["Buy milk", "Cancel newspaper subscription"]})
    # A chain of states on one request: 503, 503, then 200 from then on; one that returns to Started cycles.
    assert [fetch("GET", f"{base}/status")[0] for _ in range(4)] == [503, 503, 200, 200]
    assert [fetch("GET", f"{base}/toggle")[1] for _ in range(3)] == ["off", "on", "off"]
    # Body, JSONPath and credential matchers hold: without the credentials nothing answers.
    rating = {"driver": 4, "bus": 5, "items": [{"id": 7}]}
    auth = {"Authorization": "Basic " + base64.b64encode(b"alice:s3cret").decode()}
    assert fetch("POST", f"{base}/ratings", rating, auth) == (201, {"average": 4.5})
    assert fetch("POST", f"{base}/ratings", rating)[0] is None
    assert fetch("POST", f"{base}/ratings", {"driver": 3, "bus": 5, "items": [{"id": 7}]}, auth)[0] is None
    # The left-out mapping is not answered by anything looser.
    assert fetch("GET", f"{base}/users?lang=de")[0] is None


def test_an_openapi_document_answers_its_examples_and_prefer_picks_another_response(tmp_path, scenarioctl, fixtured_with):
    out, summary = imported(scenarioctl, tmp_path, "openapi", str(IMPORT_TESTS / "OpenAPI/petstore-3.1.yaml"))
    fetch = Fetch(fixtured_with([out]), "petstore-3.1")
    pets = "https://eu.petstore.example/v1/pets"
    assert fetch("GET", pets) == (200, [{"id": 1, "name": "Fido", "tag": "dog"}, {"id": 2, "name": "Tom", "tag": "cat"}])
    assert fetch("GET", pets, headers={"Prefer": "code=500"}) == (500, {"code": 500, "message": "Something broke."})
    assert fetch("POST", pets, {"name": "Rex"}) == (201, {"id": 3, "name": "Rex", "tag": "dog"})
    assert fetch("GET", f"{pets}/42") == (200, {"id": 7, "name": "Kitty", "tag": None})
    assert fetch("GET", f"{pets}/42", headers={"Prefer": "code=404"}) == (404, {"code": 404, "message": "No pet has that id."})


def test_an_openapi_document_without_examples_answers_bodies_generated_from_its_schemas(tmp_path, scenarioctl, fixtured_with):
    document = json.loads((IMPORT_TESTS / "OpenAPI/inventory-3.0.json").read_text())
    out, _ = imported(scenarioctl, tmp_path, "openapi", str(IMPORT_TESTS / "OpenAPI/inventory-3.0.json"), "--seed", "7",
                      "--base-url", "https://shop.example")
    again, _ = imported(scenarioctl, tmp_path / "again", "openapi", str(IMPORT_TESTS / "OpenAPI/inventory-3.0.json"), "--seed", "7",
                        "--base-url", "https://shop.example")
    files = lambda root: {p.relative_to(root): p.read_bytes() for p in root.rglob("*") if p.is_file()}
    assert files(out) == files(again), "the same document and seed must give the same bytes"
    fetch = Fetch(fixtured_with([out]), "inventory-3.0")
    status, items = fetch("GET", "https://shop.example/api/v2/items")
    item_schema = document["components"]["schemas"]["Item"] if "Item" in document["components"]["schemas"] else None
    assert status == 200 and isinstance(items, (list, dict)), items
    if item_schema and isinstance(items, list):
        for item in items:
            assert set(item_schema.get("required", [])) <= set(item), (item, item_schema)
    status, _ = fetch("GET", "https://shop.example/api/v2/items/12/stock")
    assert status == 200


@pytest.mark.parametrize("verb, source, place", [
    ("wiremock", "WireMock/bad-matcher", "/request/headers/X-Thing"),
    ("openapi", "OpenAPI/broken-ref.yaml", "broken-ref.yaml:16:25: /paths/~1things/get/responses/200/content/application~1json/schema/items/$ref"),
])
def test_bad_sources_are_refused_with_their_place_and_nothing_is_written(tmp_path, scenarioctl, verb, source, place):
    out = tmp_path / "scenarios"
    result = subprocess.run([scenarioctl, "import", verb, str(IMPORT_TESTS / source), "--model", "Fetcher", "--daemon", str(FIXTURED), "--out", str(out)],
                            capture_output=True, text=True)
    assert result.returncode == 1
    assert place in result.stderr and "Nothing was written" in result.stderr, result.stderr
    assert not out.exists()
