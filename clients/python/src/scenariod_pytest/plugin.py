"""The pytest plugin (entry point ``pytest11: scenariod``): options, the run's daemon, and the fixtures.

One daemon serves the whole run. Without xdist, the pytest process starts it the first time a test asks for it.
With xdist (``-n N``), the controller starts it as it sets up its workers, before any of them runs a test, and
passes the socket to each in ``workerinput``; so the process that started the daemon is the one that outlives
every worker, and it stops the daemon when the session finishes (``--exit-with-parent`` stops it too if that
process is killed). ``$SCENARIOD_SOCKET`` names a running daemon instead, and then none is started.
"""
from __future__ import annotations

import os
import secrets
import shutil
from typing import Any, Generator, Iterator, Mapping, Optional, Sequence

import pytest

from .client import ScenariodClient
from .daemon import DaemonProcess
from .endpoint import DaemonEndpoint
from .errors import ScenariodUnreachable
from .opener import ScenarioOpener, session_id_prefix
from .session import ScenarioSession

_ENDPOINT = pytest.StashKey[DaemonEndpoint]()
_RUN = pytest.StashKey[str]()
_STOPPED_BADLY = pytest.StashKey[str]()
_UNREACHABLE = pytest.StashKey[bool]()


def pytest_addoption(parser: pytest.Parser) -> None:
    """The options and ini values that name the daemon and its scenarios."""
    group = parser.getgroup("scenariod", "scenariod: a daemon for the run, a scenario session per test")
    group.addoption("--scenariod", dest="scenariod_binary", metavar="PATH",
                    help="the daemon to start for the run, a path or a name on PATH (else $SCENARIOD_DAEMON, "
                         "$SCENARIOD_BINARY, the scenariod_binary ini value, or scenariod on PATH); none is started "
                         "when $SCENARIOD_SOCKET names a running daemon")
    group.addoption("--scenarios", dest="scenariod_scenarios", metavar="DIR", action="append",
                    help="a directory of scenario directories for the daemon; repeat it, later ones override "
                         "(else $SCENARIOD_SCENARIOS, colon-separated, or the scenariod_scenarios ini value, or the "
                         "daemon's installed scenarios)")
    parser.addini("scenariod_binary", "the daemon binary to start for the run", default="")
    parser.addini("scenariod_scenarios", "directories of scenario directories, relative to the ini file",
                  type="paths", default=[])


def daemon_binary(config: pytest.Config) -> Optional[str]:
    """The daemon to start: ``--scenariod``, ``$SCENARIOD_DAEMON``, ``$SCENARIOD_BINARY``, the ``scenariod_binary``
    ini value (relative to the ini file), else ``scenariod``. A name with a slash is a path; one without is looked
    up on PATH (a team's own daemon: ``SCENARIOD_DAEMON=todod``). None when it is found nowhere."""
    given: Optional[str] = config.getoption("scenariod_binary") or os.environ.get("SCENARIOD_DAEMON") \
        or os.environ.get("SCENARIOD_BINARY")
    if not given:
        ini = str(config.getini("scenariod_binary"))
        if ini and os.sep in ini and not os.path.isabs(ini) and config.inipath is not None:
            ini = str(config.inipath.parent / ini)
        given = ini or "scenariod"
    return os.path.abspath(given) if os.sep in given else shutil.which(given)


def _named(config: pytest.Config) -> str:
    return str(config.getoption("scenariod_binary") or os.environ.get("SCENARIOD_DAEMON")
               or os.environ.get("SCENARIOD_BINARY") or config.getini("scenariod_binary") or "scenariod")


def scenario_directories(config: pytest.Config) -> list[str]:
    """The daemon's scenario directories: ``--scenarios`` (repeated), ``$SCENARIOD_SCENARIOS`` (colon-separated),
    or the ``scenariod_scenarios`` ini value; empty for the daemon's own defaults."""
    given: Sequence[str] = config.getoption("scenariod_scenarios") or \
        [part for part in os.environ.get("SCENARIOD_SCENARIOS", "").split(os.pathsep) if part]
    if given:
        return [os.path.abspath(directory) for directory in given]
    return [str(path) for path in config.getini("scenariod_scenarios")]


def _launcher(config: pytest.Config) -> DaemonProcess:
    binary = daemon_binary(config)
    if binary is None:
        raise RuntimeError("no daemon to test against: set SCENARIOD_SOCKET to a running daemon's socket, or name the "
                           "daemon with --scenariod PATH or SCENARIOD_DAEMON (a path, or a name on PATH); "
                           f"'{_named(config)}' is not on PATH")
    return DaemonProcess(binary, scenario_directories(config))


def pytest_configure(config: pytest.Config) -> None:
    """Where this process finds the run's daemon: from its xdist controller, $SCENARIOD_SOCKET, or its own."""
    config.addinivalue_line("markers", "scenario(name, overrides=None): the scenario the scenario_session fixture "
                                       "opens for the test, with overrides for it alone")
    workerinput: Optional[Mapping[str, Any]] = getattr(config, "workerinput", None)
    if workerinput is not None and ("scenariod_socket" in workerinput or "scenariod_error" in workerinput):
        config.stash[_ENDPOINT] = DaemonEndpoint(socket=workerinput.get("scenariod_socket"),
                                                 error=workerinput.get("scenariod_error"))
        config.stash[_RUN] = str(workerinput.get("scenariod_run"))
        return
    socket = os.environ.get("SCENARIOD_SOCKET")
    config.stash[_ENDPOINT] = DaemonEndpoint(socket=socket) if socket else \
        DaemonEndpoint(launcher=lambda: _launcher(config))
    config.stash[_RUN] = secrets.token_hex(4)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """xdist, in the controller, for each worker: the run's daemon (started for the first worker) goes to it."""
    endpoint = node.config.stash[_ENDPOINT]
    try:
        node.workerinput["scenariod_socket"] = endpoint.socket_path()
    except RuntimeError as error:
        node.workerinput["scenariod_error"] = str(error)
    node.workerinput["scenariod_run"] = node.config.stash[_RUN]


def pytest_report_header(config: pytest.Config) -> Optional[str]:
    """Which daemon the run uses, so a run's log says it."""
    if hasattr(config, "workerinput"):
        return None
    if os.environ.get("SCENARIOD_SOCKET"):
        return f"scenariod: the daemon on {os.environ['SCENARIOD_SOCKET']} (SCENARIOD_SOCKET)"
    directories = ", ".join(scenario_directories(config)) or "the daemon's installed scenarios"
    return f"scenariod: {daemon_binary(config) or 'not found'} with {directories}; one daemon for the run"


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Stops the daemon this process started, after every test (and, with xdist, every worker) is done."""
    endpoint = session.config.stash.get(_ENDPOINT, None)
    if endpoint is None or endpoint.daemon is None:
        return
    trouble = endpoint.stop()
    if trouble is not None:
        # A daemon that crashed, or did not stop cleanly, fails the run even when every test passed.
        session.config.stash[_STOPPED_BADLY] = trouble
        if session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """The end of the daemon's log, when the run failed or the daemon did not end cleanly."""
    endpoint = config.stash.get(_ENDPOINT, None)
    if endpoint is None or endpoint.final_log is None:
        return
    trouble = config.stash.get(_STOPPED_BADLY, None)
    if trouble is None and exitstatus == 0:
        return
    terminalreporter.section("scenariod's log (the end)")
    if trouble:
        terminalreporter.line(trouble, red=True)
    terminalreporter.line(endpoint.final_log)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Stops the daemon if the session never finished (an interrupted run)."""
    endpoint = config.stash.get(_ENDPOINT, None)
    if endpoint is not None:
        endpoint.stop()


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Before a test, after one that could not reach the daemon (or whenever this process's own daemon has
    exited): if the daemon is gone, the run stops here, once, saying how it ended and what its log says, rather
    than every later test erroring with a connection error."""
    config = item.config
    endpoint = config.stash.get(_ENDPOINT, None)
    if endpoint is None or not (config.stash.get(_UNREACHABLE, False) or (endpoint.daemon is not None and not endpoint.daemon.running())):
        return
    config.stash[_UNREACHABLE] = False
    reason = endpoint.gone()
    if reason is not None:
        pytest.exit(f"scenariod: {reason}", returncode=pytest.ExitCode.TESTS_FAILED)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    """Notes a test that failed because no daemon answered, so the next test first asks whether it is gone, and
    reports it in one line: the transport library's traceback says nothing the message does not."""
    outcome = yield
    if call.excinfo is not None and call.excinfo.errisinstance(ScenariodUnreachable):
        item.config.stash[_UNREACHABLE] = True
        outcome.get_result().longrepr = f"{item.nodeid}: {call.excinfo.value}"


@pytest.fixture(scope="session")
def scenariod_socket(pytestconfig: pytest.Config) -> str:
    """The socket of the run's daemon (started for the run on first use, or ``$SCENARIOD_SOCKET``)."""
    try:
        return pytestconfig.stash[_ENDPOINT].socket_path()
    except RuntimeError as error:
        reason = str(error)
    pytest.fail(f"scenariod: {reason}", pytrace=False)  # outside the except: no "during handling" chain


@pytest.fixture(scope="session")
def scenariod(scenariod_socket: str) -> Iterator[ScenariodClient]:
    """A client of the run's daemon, for daemon-wide calls (``scenariod.models()``, ``scenariod.scenarios()``) and
    sessions a test manages itself."""
    with ScenariodClient(scenariod_socket) as client:
        yield client


@pytest.fixture
def scenario(scenariod: ScenariodClient, request: pytest.FixtureRequest) -> Iterator[ScenarioOpener]:
    """Opens sessions of named scenarios for this test and deletes them after it:
    ``session = scenario("offline-demo", overrides={...})``, or ``with scenario("offline-demo") as session:``."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    prefix = session_id_prefix(request.node.name, worker, request.config.stash[_RUN], request.node.nodeid)
    opener = ScenarioOpener(scenariod, prefix)
    yield opener
    opener.close()


@pytest.fixture
def scenario_session(scenario: ScenarioOpener, request: pytest.FixtureRequest) -> ScenarioSession:
    """A session of the scenario the test names with ``@pytest.mark.scenario("name", overrides={...})`` (on the
    test, its class or its module), or with indirect parametrization
    (``@pytest.mark.parametrize("scenario_session", ["offline-demo", "first-launch"], indirect=True)``)."""
    __tracebackhide__ = True
    if hasattr(request, "param"):
        name, overrides = (request.param, None) if isinstance(request.param, str) else request.param
        return scenario(name, overrides=overrides)
    marker = request.node.get_closest_marker("scenario")
    if marker is None or not marker.args:
        pytest.fail("scenario_session needs the scenario's name: mark the test with "
                    "@pytest.mark.scenario(\"NAME\"), or parametrize scenario_session indirectly", pytrace=False)
    return scenario(marker.args[0], overrides=marker.kwargs.get("overrides"))
