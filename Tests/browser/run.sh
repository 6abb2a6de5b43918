#!/usr/bin/env bash
# Drives the dashboard in a real headless Chromium (Debian's chromium and chromium-driver, which
# scripts/setup --test installs) with Selenium, through `scenarioctl dashboard`. Screenshots of each step go to
# $SCENARIOD_SCREENSHOTS (default: a new directory under /tmp, printed).
# Selenium and pytest are installed once into $SCENARIOD_TEST_CACHE (default /var/cache/scenariod-test) and checked
# by running them before every use; a copy that does not run is rebuilt.
# Usage: Tests/browser/run.sh [SCENARIOD_BINARY]   (default: the debug build)
set -euo pipefail
repository=$(cd "$(dirname "$0")/../.." && pwd)
export SCENARIOD_BINARY=${1:-$repository/.build/debug/scenariod}
selenium=4.51.0
venv=${SCENARIOD_TEST_CACHE:-/var/cache/scenariod-test}/selenium-$selenium
# Created where it stays (a venv's scripts name the path they were made at); installed only once it has run.
if ! { [ -f "$venv/.installed" ] && "$venv/bin/python" -c "import selenium, pytest" 2>/dev/null; }; then
    echo "browser: installing selenium $selenium and pytest into $venv (once per cache)"
    rm -rf "$venv" && mkdir -p "$(dirname "$venv")"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check "selenium==$selenium" "pytest==9.2.0" httpx
    "$venv/bin/python" -c "import selenium, pytest"
    touch "$venv/.installed"
fi
for tool in /usr/bin/chromium /usr/bin/chromedriver; do
    [ -x "$tool" ] || { echo "browser: $tool is missing; run scripts/setup --test (Debian's chromium and chromium-driver)"; exit 1; }
done
export SCENARIOD_SCREENSHOTS=${SCENARIOD_SCREENSHOTS:-$(mktemp -d /tmp/scenariod-screenshots-XXXX)}
echo "browser: screenshots in $SCENARIOD_SCREENSHOTS"
"$venv/bin/python" -m pytest -p no:cacheprovider -q "$repository/Tests/browser"
