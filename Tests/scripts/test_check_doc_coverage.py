"""scripts/check-doc-coverage on symbol graphs written here: it must name every undocumented public declaration
with its file:line:column, and only those, so the documentation stage of scripts/test can fail."""
import json
import pathlib
import subprocess
import sys

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "check-doc-coverage"
SOURCE = "file:///src/Sources/Kit/Thing.swift"


def symbol(name, line, comment=None, comment_uri=SOURCE, comment_line=None, kind="swift.struct", access="public",
           precise=None, location=True):
    entry = {
        "kind": {"identifier": kind, "displayName": "Structure" if kind == "swift.struct" else "Instance Method"},
        "identifier": {"precise": precise or f"s:4Kit{name}", "interfaceLanguage": "swift"},
        "pathComponents": name.split("."),
        "accessLevel": access,
    }
    if location:
        entry["location"] = {"uri": SOURCE, "position": {"line": line, "character": 14}}
    if comment is not None:
        at = line - 1 if comment_line is None else comment_line
        entry["docComment"] = {"uri": comment_uri, "lines": [
            {"text": text, "range": {"start": {"line": at, "character": 4}, "end": {"line": at, "character": 40}}}
            for text in comment]}
    return entry


def write_graph(directory, module, symbols):
    graph = {"metadata": {}, "module": {"name": module}, "symbols": symbols, "relationships": []}
    (directory / f"{module}.symbols.json").write_text(json.dumps(graph))


def run(directory, *modules):
    return subprocess.run([sys.executable, str(SCRIPT), *modules, "--symbol-graphs", str(directory)],
                          capture_output=True, text=True)


def test_names_each_undocumented_public_declaration_with_its_place(tmp_path):
    write_graph(tmp_path, "Kit", [
        symbol("Documented", 10, comment=["What it is for."]),
        symbol("Bare", 20),
        symbol("OnlyParameters", 30, comment=["- Parameters:", "  - x: The x."]),
        symbol("Inherited.encode(to:)", 40, comment=["Encodes this value."], comment_uri="file:///swift/Codable.swift",
               kind="swift.method"),
        symbol("Synthesized.!=(_:_:)", 50, precise="s:SQsE2neoiySbx_xtFZ::SYNTHESIZED::s:4KitX", kind="swift.method"),
        symbol("Implicit.init(from:)", 0, location=False, kind="swift.method"),
        symbol("Internal", 60, access="internal"),
        symbol("Extension", 70, kind="swift.extension"),
    ])
    (tmp_path / "Kit@Swift.symbols.json").write_text(json.dumps({
        "metadata": {}, "module": {"name": "Kit"}, "relationships": [],
        "symbols": [symbol("Array.undocumentedHelper", 80, kind="swift.method")]}))
    result = run(tmp_path, "Kit")
    assert result.returncode == 1, result.stdout + result.stderr
    errors = [line for line in result.stdout.splitlines() if ": error: " in line]
    assert [line.split(": error: ")[0] for line in errors] == [
        "/src/Sources/Kit/Thing.swift:21:15",
        "/src/Sources/Kit/Thing.swift:31:15",
        "/src/Sources/Kit/Thing.swift:81:15",
    ], result.stdout
    assert "public structure Bare has no documentation comment" in errors[0]
    assert "Array.undocumentedHelper" in errors[2]
    assert "3 of 5 public declarations of Kit are undocumented" in result.stdout


def test_passes_when_every_declaration_says_what_it_is_for(tmp_path):
    write_graph(tmp_path, "Kit", [symbol("Documented", 10, comment=["What it is for."])])
    result = run(tmp_path, "Kit")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "all 1 public declarations of Kit are documented" in result.stdout


def test_a_module_without_a_graph_is_an_error_not_a_pass(tmp_path):
    result = run(tmp_path, "Nowhere")
    assert result.returncode != 0
    assert "no symbol graph for Nowhere" in result.stdout + result.stderr
