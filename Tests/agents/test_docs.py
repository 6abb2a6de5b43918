"""The worked examples of docs/use-from-an-agent.md and docs/import-what-you-have.md, run as written: each fenced
block there is an excerpt of this directory (DocumentationExamplesTests checks that)."""
import os
import pathlib
import subprocess
import sys

from daemon import REPOSITORY, SCENARIOCTL

EXAMPLE = pathlib.Path(__file__).with_name("agent_example.py")


def test_the_agent_example_prints_what_the_page_says(daemon):
    environment = {**os.environ, "SCENARIOD_SOCKET": daemon.socket,
                   "PATH": f"{pathlib.Path(SCENARIOCTL).parent}:{os.environ['PATH']}"}
    result = subprocess.run([sys.executable, str(EXAMPLE)], capture_output=True, text=True, env=environment, timeout=120)
    assert result.returncode == 0, result.stderr
    page = (REPOSITORY / "docs/use-from-an-agent.md").read_text()
    printed = page.split("It prints:\n\n```\n", 1)[1].split("```", 1)[0]
    assert result.stdout == printed
