# Sourced by the integration scripts: `check NAME COMMAND...` runs the command and prints "ok   NAME", or
# "FAIL NAME" with the end of its output; the counts go to $passed and $failed for the closing
# "N passed, N failed" line.
passed=0 failed=0

check() {
    local name=$1; shift
    local output
    if output=$("$@" 2>&1); then
        passed=$((passed + 1)); echo "ok   $name"
    else
        failed=$((failed + 1)); echo "FAIL $name"; printf '%s\n' "$output" | sed 's/^/     /' | tail -20
    fi
}
