"""`scenarioctl validate DIR` on a suite whose scenario extends a shipped one it was not given (issue 33, item 6):
the problem names the missing scenario, the directory read, the daemon's default directory that has it, and the
command line that names that directory too; that command line then checks clean."""
import re
import subprocess

from daemon import REPOSITORY, SCENARIOCTL


def validate(*directories, cwd):
    return subprocess.run([SCENARIOCTL, "validate", *map(str, directories)], capture_output=True, text=True,
                          timeout=60, cwd=cwd)


def test_a_suite_checked_alone_hears_which_directory_to_name(tmp_path):
    suite = tmp_path / "suite"
    (suite / "my-demo").mkdir(parents=True)
    (suite / "my-demo" / "scenario.yaml").write_text("description: Mine.\nextends: offline-demo\n")
    # From the repository, the daemon's default directory is ./scenarios (or the installed ones, where they are).
    alone = validate(suite, cwd=REPOSITORY)
    assert alone.returncode == 1, alone.stdout + alone.stderr
    found = re.search(r"my-demo/scenario\.yaml:2:10: extends 'offline-demo', which is in none of the directories read "
                      rf"\({re.escape(str(suite))}\) but is in (\S+): name that directory too, before this one: "
                      rf"`scenarioctl validate (\S+) {re.escape(str(suite))}`", alone.stdout)
    assert found and found.group(1) == found.group(2), alone.stdout
    both = validate(found.group(1), suite, cwd=REPOSITORY)
    assert both.returncode == 0 and "0 problems" in both.stdout, both.stdout + both.stderr

    # Elsewhere, with no default directory that has it, it still names the scenario and how to name its directory.
    elsewhere = validate(suite, cwd=tmp_path)
    if "but is in" not in elsewhere.stdout:  # an installed scenariod would have it in /usr/share/scenariod/scenarios
        assert elsewhere.returncode == 1
        assert (f"extends 'offline-demo', which is in none of the directories read ({suite}). If it is in another "
                f"directory, name that directory too, before this one: `scenarioctl validate DIRECTORY {suite}`") in elsewhere.stdout, elsewhere.stdout
