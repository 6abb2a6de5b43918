"""A scenariod of the test run's own: started from its binary on a private socket, stopped at the end."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from typing import IO, Optional, Sequence

from .client import ScenariodClient
from .errors import ScenariodError, ScenariodUnreachable

#: The longest path a Unix socket may have on Linux (sun_path is 108 bytes, with its terminating NUL).
_SOCKET_PATH_LIMIT = 107


class DaemonProcess:
    """One daemon process in a directory of its own: ``control.sock``, ``state/`` and ``scenariod.log``.

    It runs with ``--exit-with-parent``, so it stops with the process that started it even when that process is
    killed, and with ``--model-escapes fail``, so a step in which the Model's work escaped its session fails with
    409 ``modelEscaped``. :meth:`stop` sends SIGTERM (the daemon drains and exits 0); :meth:`remove` removes the
    directory.
    """

    def __init__(self, binary: str, scenarios: Sequence[str] = (), *, arguments: Sequence[str] = ()) -> None:
        self.binary = binary
        self.scenarios = list(scenarios)
        self.arguments = list(arguments)
        self.directory = tempfile.mkdtemp(prefix="scenariod-pytest-")
        self.socket_path = os.path.join(self.directory, "control.sock")
        self.log_path = os.path.join(self.directory, "scenariod.log")
        self.process: Optional[subprocess.Popen[bytes]] = None
        #: Whether :meth:`stop` had to kill the daemon (it did not stop after SIGTERM).
        self.forced = False
        self._log: Optional[IO[bytes]] = None

    def command(self) -> list[str]:
        """The daemon's command line."""
        scenarios = [argument for directory in self.scenarios for argument in ("--scenarios", directory)]
        return [self.binary, *scenarios, "--socket", self.socket_path,
                "--state-directory", os.path.join(self.directory, "state"),
                # At info, so that when the daemon dies its log's last lines say what it was doing.
                "--log-target", "stderr", "--log-level", "info", "--exit-with-parent",
                # A test must not pass on a run its session did not own: an escape fails the step (409 modelEscaped).
                "--model-escapes", "fail", *self.arguments]

    def start(self, timeout: float = 30.0) -> DaemonProcess:
        """Starts the daemon and returns once it answers on its socket.

        Raises ``RuntimeError`` with the daemon's log when it exits or does not answer within `timeout` seconds.
        """
        if len(self.socket_path.encode()) > _SOCKET_PATH_LIMIT:
            self._remove_directory()
            raise RuntimeError(f"the socket path {self.socket_path} is longer than a Unix socket's "
                               f"{_SOCKET_PATH_LIMIT} bytes; set TMPDIR to a shorter directory, such as /tmp")
        self._log = open(self.log_path, "ab")
        try:
            self.process = subprocess.Popen(self.command(), stdin=subprocess.DEVNULL, stdout=self._log,
                                            stderr=self._log)
        except OSError as error:
            self._close_log()
            self._remove_directory()
            raise RuntimeError(f"could not start scenariod from {self.binary}: {error.strerror}; name the daemon "
                               f"with --scenariod PATH or SCENARIOD_DAEMON") from None
        deadline = time.monotonic() + timeout
        while True:
            status = self.process.poll()
            if status is not None:
                message = f"scenariod ({self.binary}) exited with status {status} as it started:\n{self.log_tail()}"
                self.stop()
                self.remove()
                raise RuntimeError(message)
            if os.path.exists(self.socket_path) and self.answers():
                return self
            if time.monotonic() > deadline:
                message = f"scenariod ({self.binary}) did not answer on {self.socket_path} within {timeout:g} s:\n{self.log_tail()}"
                self.stop()
                self.remove()
                raise RuntimeError(message)
            time.sleep(0.005)

    def running_after(self, seconds: float) -> bool:
        """Whether the daemon is still running `seconds` from now (returns as soon as it exits)."""
        if self.process is None:
            return False
        try:
            self.process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            return True
        return False

    def answers(self) -> bool:
        """Whether the daemon answers a health check now."""
        try:
            with ScenariodClient(self.socket_path, timeout=5) as client:
                client.health()
            return True
        except (ScenariodUnreachable, ScenariodError):
            return False

    def running(self) -> bool:
        """Whether the daemon is still running."""
        return self.process is not None and self.process.poll() is None

    def stop(self, timeout: float = 30.0) -> Optional[int]:
        """Stops the daemon: SIGTERM, then SIGKILL after `timeout` seconds. Its directory stays until
        :meth:`remove`, so its log can still be read.

        Returns its exit status (0 for a clean stop), or None when it never started.
        """
        status: Optional[int] = None
        if self.process is not None:
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGTERM)
                try:
                    self.process.wait(timeout=timeout)
                except subprocess.TimeoutExpired:
                    self.forced = True
                    self.process.kill()
                    self.process.wait()
            status = self.process.returncode
        self._close_log()
        return status

    def remove(self) -> None:
        """Removes the daemon's directory (socket, state, log); stop it first."""
        self._close_log()
        self._remove_directory()

    def ending(self) -> Optional[str]:
        """How the daemon ended, when it did not end cleanly (None while it runs or after a clean stop)."""
        if self.process is None or self.process.returncode in (None, 0):
            return None
        status = self.process.returncode
        if self.forced:
            return "scenariod did not stop within its time after SIGTERM and was killed"
        if status < 0:
            return f"scenariod was killed by {signal.Signals(-status).name} during the run"
        return f"scenariod exited with status {status}"

    def log_tail(self, lines: int = 50) -> str:
        """The last lines of the daemon's log (its stderr)."""
        try:
            with open(self.log_path, "rb") as log:
                text = log.read().decode(errors="replace")
        except OSError:
            return "(no log)"
        tail = text.splitlines()[-lines:]
        return "\n".join(tail) if tail else "(the log is empty)"

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    def _remove_directory(self) -> None:
        shutil.rmtree(self.directory, ignore_errors=True)
