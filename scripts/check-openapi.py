#!/usr/bin/env python3
"""Checks recorded control-API exchanges against openapi/scenariod.yaml.

Usage: check-openapi.py OPENAPI.yaml RECORDS.json
RECORDS.json is a list of {"operationId", "status", "contentType", "body"} written by the end-to-end tests.
For each: the status must be documented for the operation, the content type must match, and a JSON body must
validate against the documented schema, as must each event of a stream whose schema is an event's (an object). Every operation in the document must have at least one record.
Prints one line per problem and closes with "N passed, N failed".
"""
import json
import sys

try:
    import jsonschema
    import yaml
except ImportError as missing:
    # A Swift developer's `swift test` runs this too: say in one line what to install rather than a traceback.
    sys.exit(f"check-openapi.py: the tests' tools are missing (Python's {missing.name}); run: bash scripts/setup --test")


def main() -> int:
    document = yaml.safe_load(open(sys.argv[1]))
    records = json.load(open(sys.argv[2]))
    operations = {}
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method in ("get", "post", "put", "delete", "patch"):
                operations[operation["operationId"]] = (method.upper(), path, operation)

    passed = failed = 0
    def fail(message):
        nonlocal failed
        failed += 1
        print("FAIL", message)

    for operation_id in sorted(set(operations) - {r["operationId"] for r in records}):
        fail(f"{operation_id}: no test exercised this operation")

    for record in records:
        operation_id, status = record["operationId"], str(record["status"])
        if operation_id not in operations:
            fail(f"{operation_id}: not in the document")
            continue
        method, path, operation = operations[operation_id]
        response = operation["responses"].get(status)
        if response is None:
            fail(f"{operation_id} ({method} {path}): status {status} is not documented")
            continue
        if "$ref" in response:
            response = document["components"]["responses"][response["$ref"].split("/")[-1]]
        content = response.get("content")
        if not content:
            if record["body"]:
                fail(f"{operation_id} {status}: documented without a body, got {record['body'][:80]!r}")
            else:
                passed += 1
            continue
        media = record["contentType"].split(";")[0].strip()
        if media not in content:
            fail(f"{operation_id} {status}: content type {media!r} is not documented ({', '.join(content)})")
            continue
        if media == "application/json":
            schema = dict(content[media].get("schema", {}))
            schema["components"] = document["components"]
            try:
                jsonschema.validate(json.loads(record["body"]), schema, cls=jsonschema.Draft202012Validator)
            except (jsonschema.ValidationError, json.JSONDecodeError) as error:
                fail(f"{operation_id} {status}: body does not match the schema: {str(error).splitlines()[0]}")
                continue
        if media == "text/event-stream" and content[media].get("schema", {}).get("type") == "object":
            problem = event_stream_problem(record["body"], content[media]["schema"], document["components"])
            if problem:
                fail(f"{operation_id} {status}: {problem}")
                continue
        passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def event_stream_problem(body, schema, components):
    """What is wrong with a stream of server-sent events whose schema describes each event (OpenAPI 3.1's reading):
    each event's fields against the schema, and its JSON data against the data's contentSchema; None when all hold."""
    events = []
    for block in body.replace("\r\n", "\n").split("\n\n"):
        event = {}
        for line in block.split("\n"):
            if not line or line.startswith(":"):
                continue
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            event[field] = event[field] + "\n" + value if field == "data" and field in event else value
        if event:
            events.append(event)
    if not events:
        return "the event stream sent no event"
    data_schema = dict(schema.get("properties", {}).get("data", {}).get("contentSchema", {}))
    data_schema["components"] = components
    for number, event in enumerate(events, 1):
        try:
            jsonschema.validate(event, {**schema, "components": components}, cls=jsonschema.Draft202012Validator)
            if len(data_schema) > 1:
                jsonschema.validate(json.loads(event["data"]), data_schema, cls=jsonschema.Draft202012Validator)
        except (jsonschema.ValidationError, json.JSONDecodeError) as error:
            return f"event {number} does not match the schema: {str(error).splitlines()[0]}"
    return None


if __name__ == "__main__":
    sys.exit(main())
