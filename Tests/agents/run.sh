#!/usr/bin/env bash
# Runs what agents and imports must show against the real binaries: the official MCP Python SDK (PyPI `mcp`) as a
# client of `scenarioctl mcp`, and the HAR round trip recorded by Playwright driving Debian's Chromium.
# mcp, Playwright and pytest are installed once into $SCENARIOD_TEST_CACHE (default /var/cache/scenariod-test) and
# checked by importing them before every use; a copy that does not import is rebuilt.
# Usage: Tests/agents/run.sh [SCENARIOD_BINARY]   (default: the debug build; scenarioctl and fixtured beside it)
set -euo pipefail
repository=$(cd "$(dirname "$0")/../.." && pwd)
export SCENARIOD_BINARY=${1:-$repository/.build/debug/scenariod}
mcp=1.29.1
playwright=1.65.2
venv=${SCENARIOD_TEST_CACHE:-/var/cache/scenariod-test}/agents-mcp-$mcp-playwright-$playwright
# Created where it stays (a venv's scripts name the path they were made at); marked installed only once it imports.
if ! { [ -f "$venv/.installed" ] && "$venv/bin/python" -c "import mcp, playwright, pytest, httpx" 2>/dev/null; }; then
    echo "agents: installing mcp $mcp, playwright $playwright and pytest into $venv (once per cache)"
    rm -rf "$venv" && mkdir -p "$(dirname "$venv")"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check "mcp==$mcp" "playwright==$playwright" "pytest==9.2.0" httpx
    "$venv/bin/python" -c "import mcp, playwright, pytest, httpx"
    touch "$venv/.installed"
fi
# Playwright drives Debian's Chromium: its own browser download is not reachable here (FIELD-NOTES).
[ -x /usr/bin/chromium ] || { echo "agents: /usr/bin/chromium is missing; run scripts/setup --test"; exit 1; }
"$venv/bin/python" -m pytest -p no:cacheprovider -q "$repository/Tests/agents"

# The worked example of docs/use-from-an-agent.md again with the newest SDK PyPI serves, as a reader's
# `pip install mcp` gets it (a fresh venv each run: the newest changes under a cache).
newest=$(mktemp -d /tmp/scenariod-mcp-newest-XXXX)
trap 'rm -rf "$newest"' EXIT
python3 -m venv "$newest"
"$newest/bin/pip" install -q --disable-pip-version-check mcp pytest httpx
echo "agents: the worked example with the newest mcp on PyPI, $("$newest/bin/python" -c 'import importlib.metadata as m; print(m.version("mcp"))') (pinned: $mcp)"
"$newest/bin/python" -m pytest -p no:cacheprovider -q "$repository/Tests/agents/test_docs.py::test_the_agent_example_prints_what_the_page_says"
