#!/usr/bin/env python3
"""Validates every scenarios/*/scenario.yaml against the JSON Schema that editors use.

Usage: check-schema.py SCHEMA SCENARIOS_DIR [--expect-invalid]
YAML timestamps are kept as text, as scenariod reads them, so `start: 2026-11-01T09:00:00Z` is a string here too.
Prints one line per scenario and closes with "N passed, N failed"; exits non-zero when any failed.
"""
import json
import pathlib
import sys

try:
    import jsonschema
    import yaml
except ImportError as missing:
    # A Swift developer's `swift test` runs this too: say in one line what to install rather than a traceback.
    sys.exit(f"check-schema.py: the tests' tools are missing (Python's {missing.name}); run: bash scripts/setup --test")


class TextTimestampLoader(yaml.SafeLoader):
    pass


# Drop the implicit timestamp resolver: scenariod parses instants itself.
TextTimestampLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def main() -> int:
    schema_path, scenarios_dir = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    expect_invalid = "--expect-invalid" in sys.argv[3:]
    schema = json.loads(schema_path.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    files = sorted(scenarios_dir.glob("*/scenario.yaml"))
    if not files:
        print(f"no scenario.yaml under {scenarios_dir}")
        return 1
    passed = failed = 0
    for path in files:
        document = yaml.load(path.read_text(), Loader=TextTimestampLoader)
        errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
        ok = bool(errors) if expect_invalid else not errors
        if ok:
            passed += 1
            print(f"ok   {path}")
        else:
            failed += 1
            print(f"FAIL {path}")
            for error in errors:
                where = "/".join(str(p) for p in error.absolute_path) or "(top)"
                print(f"     {where}: {error.message}")
            if expect_invalid and not errors:
                print("     expected the schema to reject this file")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
