"""scripts/check-openapi.py on a document and records written here: an event stream whose schema describes each
event is read event by event, each event's JSON data checked against its contentSchema, so an exploration's events
that break the document fail the agreement test."""
import json
import subprocess
import sys
import pathlib

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "check-openapi.py"
DOCUMENT = """
openapi: 3.1.0
info: { title: t, version: "1" }
paths:
  /things/events:
    get:
      operationId: followThing
      responses:
        "200":
          description: events
          content:
            text/event-stream:
              schema:
                type: object
                required: [event, data]
                properties:
                  event: { const: thing }
                  data: { type: string, contentMediaType: application/json, contentSchema: { $ref: "#/components/schemas/Thing" } }
components:
  schemas:
    Thing: { type: object, required: [count], properties: { count: { type: integer } } }
"""


def check(tmp_path, body):
    (tmp_path / "api.yaml").write_text(DOCUMENT)
    (tmp_path / "records.json").write_text(json.dumps([
        {"operationId": "followThing", "status": 200, "contentType": "text/event-stream", "body": body}]))
    return subprocess.run([sys.executable, str(SCRIPT), str(tmp_path / "api.yaml"), str(tmp_path / "records.json")],
                          capture_output=True, text=True)


def test_events_that_keep_the_schema_pass(tmp_path):
    result = check(tmp_path, 'id: 1\nevent: thing\ndata: {"count": 1}\n\n: heartbeat\n\nid: 2\nevent: thing\ndata: {"count": 2}\n\n')
    assert result.returncode == 0 and "1 passed, 0 failed" in result.stdout, result.stdout + result.stderr


def test_an_event_whose_data_breaks_the_schema_fails_naming_it(tmp_path):
    result = check(tmp_path, 'id: 1\nevent: thing\ndata: {"count": 1}\n\nid: 2\nevent: thing\ndata: {"count": "two"}\n\n')
    assert result.returncode == 1 and "event 2 does not match the schema" in result.stdout, result.stdout


def test_an_event_of_another_name_fails(tmp_path):
    result = check(tmp_path, 'event: other\ndata: {"count": 1}\n\n')
    assert result.returncode == 1 and "event 1 does not match" in result.stdout, result.stdout


def test_a_stream_without_events_fails(tmp_path):
    result = check(tmp_path, ": heartbeat\n\n")
    assert result.returncode == 1 and "sent no event" in result.stdout, result.stdout
