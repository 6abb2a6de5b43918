#!/usr/bin/env bash
# The pytest plugin (clients/python, scenariod-pytest) as a team meets it: `pip install` into a fresh venv, then the
# plugin's own tests (clients/python/tests) and the example suite (Tests/python: no conftest.py, only the installed
# plugin's fixtures), both copied outside the repository so nothing but the installed package can be imported, run
# serially and with `pytest -n 8`. Both runs must pass with the same outcome for every test, and the example suite
# must have at least 10 tests. mypy --strict checks the installed package (so py.typed was shipped).
# The plugin starts one daemon for each run from SCENARIOD_BINARY on the repository's scenarios.
# The dependencies (pinned below) are downloaded once, as wheels, into $SCENARIOD_TEST_CACHE (default
# /var/cache/scenariod-test) and installed from there with --no-index; a wheelhouse counts as complete only once a
# venv was installed from it.
# Usage: Tests/python/run.sh [SCENARIOD_BINARY]
set -euo pipefail
repository=$(cd "$(dirname "$0")/../.." && pwd)
export SCENARIOD_BINARY=${1:-$repository/.build/debug/scenariod}
export SCENARIOD_SCENARIOS=$repository/scenarios
# The plugin's tests check every call it makes against the API document.
export SCENARIOD_OPENAPI=$repository/openapi/scenariod.yaml
unset SCENARIOD_SOCKET SCENARIOD_DAEMON
requirements=(pytest==9.2.0 pytest-xdist==3.8.0 httpx==0.28.1 mypy==2.4.1 websockets==15.0.1 gql==4.0.0)
build_requirements=(setuptools==80.9.0)
# The wheelhouse is per Python version too (mypy's wheels are built for one).
wheels=${SCENARIOD_TEST_CACHE:-/var/cache/scenariod-test}/python-plugin-wheels-$(echo "$(python3 --version) ${requirements[*]} ${build_requirements[*]}" | sha256sum | cut -c1-12)
work=$(mktemp -d /tmp/scenariod-plugin-XXXX)
trap 'rm -rf "$work"' EXIT

# A clean copy of the package's source: an in-tree build's leftovers (build/, *.egg-info) never reach the wheel.
mkdir "$work/source"
tar -C "$repository/clients/python" --exclude=build --exclude='*.egg-info' --exclude=__pycache__ -cf - . | tar -C "$work/source" -xf -
venv=$work/venv
install() {
    rm -rf "$venv"
    python3 -m venv "$venv"
    # The package is built in an isolated environment as pip does for anyone, with setuptools from the wheelhouse.
    "$venv/bin/pip" install -q --disable-pip-version-check --no-index --find-links "$wheels" "${requirements[@]}" "$work/source"
}
if ! { [ -f "$wheels/.complete" ] && install; }; then
    echo "python plugin: downloading ${requirements[*]} ${build_requirements[*]} into $wheels (once per cache)"
    rm -rf "$wheels" "$venv" && mkdir -p "$wheels"
    python3 -m venv "$venv"  # its pip downloads: a system Python may have no pip of its own
    "$venv/bin/pip" download -q --disable-pip-version-check -d "$wheels" "${requirements[@]}" "${build_requirements[@]}"
    install
    touch "$wheels/.complete"
fi
python=$venv/bin/python
"$python" - <<'EOF'
import importlib.metadata, pathlib, sys
import scenariod_pytest
where = pathlib.Path(scenariod_pytest.__file__).parent
assert where.is_relative_to(sys.prefix), f"scenariod_pytest was imported from {where}, not the venv"
assert (where / "py.typed").exists(), "the package has no py.typed"
entry = [e for e in importlib.metadata.entry_points(group="pytest11") if e.name == "scenariod"]
assert entry and entry[0].value == "scenariod_pytest.plugin", f"no pytest11 entry point 'scenariod': {entry}"
print(f"python plugin: scenariod-pytest {importlib.metadata.version('scenariod-pytest')} installed in {where}")
EOF
(cd "$work" && "$venv/bin/mypy" --strict --no-error-summary --cache-dir "$work/mypy-cache" -p scenariod_pytest) \
    || { echo "python plugin: mypy --strict found problems in the installed package"; exit 1; }

suite=$work/suite
mkdir -p "$suite/example"
cp -r "$repository/clients/python/tests" "$suite/plugin"
cp "$repository"/Tests/python/test_*.py "$suite/example/"
# An ini file of the suite's own, so no configuration above the copy (in /tmp or /) is picked up.
printf '[pytest]\n' >"$suite/pytest.ini"
status=0
for run in serial parallel; do
    workers=(); [ "$run" = parallel ] && workers=(-n 8)
    echo "python plugin: the plugin's tests and the example suite, $run${workers[*]:+ (${workers[*]})}"
    (cd "$suite" && "$python" -m pytest -c pytest.ini --rootdir . -p no:cacheprovider -q "${workers[@]}" \
        --junitxml "$work/$run.xml" plugin example) || status=1
done
"$python" - "$work/serial.xml" "$work/parallel.xml" <<'EOF' || status=1
import sys
import xml.etree.ElementTree as ElementTree

def outcomes(path):
    found = {}
    for case in ElementTree.parse(path).iter("testcase"):
        kinds = sorted(child.tag for child in case if child.tag in ("failure", "error", "skipped")) or ["passed"]
        found.setdefault(f"{case.get('classname')}::{case.get('name')}", []).extend(kinds)
    return found

serial, parallel = outcomes(sys.argv[1]), outcomes(sys.argv[2])
differ = sorted(name for name in serial.keys() | parallel.keys() if serial.get(name) != parallel.get(name))
for name in differ:
    print(f"python plugin: {name}: {serial.get(name, ['not run'])} serially, {parallel.get(name, ['not run'])} with -n 8")
examples = sum(1 for name in serial if name.startswith("example."))
print(f"python plugin: {len(serial)} tests ({examples} in the example suite), "
      f"{'the same outcomes' if not differ else f'{len(differ)} with different outcomes'} serially and with -n 8")
sys.exit(1 if differ or examples < 10 else 0)
EOF
exit $status
