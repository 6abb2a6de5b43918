"""`scenarioctl validate --daemon NAME` finds the daemon as a shell finds a command (a name without a slash in each
directory of PATH in turn, a name with one as a path) and checks the scenarios against that daemon's own Models and
services, every problem of a section at its line and column."""
import os
import subprocess

from daemon import BINARY, FIXTURED, SCENARIOCTL

BAD_PROFILE = """description: A profile section with three problems
model: Greeter
profile:
  nmae: Ada
  display: { theme: [dark] }
  tags: tag
"""


def scenarios(tmp_path):
    directory = tmp_path / "scenarios" / "bad-profile"
    directory.mkdir(parents=True)
    (directory / "scenario.yaml").write_text(BAD_PROFILE)
    return tmp_path / "scenarios"


def bin_directory(tmp_path, name, target):
    directory = tmp_path / name
    directory.mkdir()
    (directory / "teamd").symlink_to(target)
    return directory


def validate(*arguments, path, cwd=None):
    return subprocess.run([SCENARIOCTL, "validate", *arguments], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, PATH=path), cwd=cwd)


def test_a_name_is_looked_up_on_path_and_that_daemons_services_are_checked(tmp_path):
    team = bin_directory(tmp_path, "team-bin", FIXTURED)
    root = scenarios(tmp_path)
    run = validate("--daemon", "teamd", str(root), path=f"{tmp_path / 'nothing-here'}:{team}:/usr/bin:/bin")
    assert run.returncode == 1, run.stderr
    file = root / "bad-profile" / "scenario.yaml"
    assert run.stdout.splitlines() == [
        f"{file}:4:3: unknown key 'nmae' in profile. Did you mean 'name'? Allowed keys: display, flags, name, nickname, tags.",
        f"{file}:5:14: profile.display.theme must be a string, got a list.",
        f"{file}:6:3: profile.tags must be a list, got 'tag'.",
        "1 scenario checked, 3 problems",
    ], run.stdout


def test_the_first_directory_of_path_that_has_the_name_wins(tmp_path):
    # scenariod first: it hosts no `profile` service, so the section is an unknown key there.
    first = bin_directory(tmp_path, "first", BINARY)
    second = bin_directory(tmp_path, "second", FIXTURED)
    run = validate("--daemon", "teamd", str(scenarios(tmp_path)), path=f"{first}:{second}:/usr/bin:/bin")
    assert run.returncode == 1
    assert "unknown model 'Greeter'" in run.stdout and "profile" in run.stdout, run.stdout


def test_a_name_is_not_looked_up_in_the_current_directory_but_a_path_is_used_as_given(tmp_path):
    team = bin_directory(tmp_path, "team-bin", FIXTURED)
    root = scenarios(tmp_path)
    missing = validate("--daemon", "teamd", str(root), path="/usr/bin:/bin", cwd=team)
    assert missing.returncode == 2, missing.stdout
    assert "no executable 'teamd' in any directory of PATH (/usr/bin:/bin)" in missing.stderr, missing.stderr
    assert "--daemon ./.build/debug/teamd" in missing.stderr, missing.stderr
    relative = validate("--daemon", "./teamd", str(root), path="/usr/bin:/bin", cwd=team)
    assert relative.returncode == 1 and "3 problems" in relative.stdout, relative.stdout + relative.stderr
    absent = validate("--daemon", str(tmp_path / "no-such" / "teamd"), str(root), path=f"{team}:/usr/bin:/bin")
    assert absent.returncode == 2 and "no executable daemon at" in absent.stderr, absent.stderr
