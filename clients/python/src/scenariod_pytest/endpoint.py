"""Where one pytest process finds the test run's daemon: a socket it was given, or a daemon it starts on first use."""
from __future__ import annotations

from typing import Callable, Optional

from .daemon import DaemonProcess


class DaemonEndpoint:
    """The test run's daemon, as one process sees it.

    Exactly one of three: a socket to connect to (``$SCENARIOD_SOCKET``, or the one an xdist controller passed its
    workers), a reason there is none (so every test that needs it fails with that reason), or a launcher that
    starts a :class:`DaemonProcess` the first time a test asks, which this process then owns and stops.
    """

    def __init__(self, *, socket: Optional[str] = None, error: Optional[str] = None,
                 launcher: Optional[Callable[[], DaemonProcess]] = None) -> None:
        self._socket = socket
        self._error = error
        self._launcher = launcher
        #: The daemon this process started, if it started one.
        self.daemon: Optional[DaemonProcess] = None
        #: The end of the daemon's log, once it has stopped.
        self.final_log: Optional[str] = None

    def socket_path(self) -> str:
        """The socket to connect to; starts the daemon on first use when this process owns it.

        Raises ``RuntimeError`` saying why there is no daemon (the same reason every time it is asked).
        """
        if self._socket is not None:
            return self._socket
        if self._error is None and self._launcher is not None:
            try:
                self.daemon = self._launcher().start()
                self._socket = self.daemon.socket_path
                return self._socket
            except (RuntimeError, OSError) as error:
                self._error = str(error)
        raise RuntimeError(self._error or "no scenariod: set SCENARIOD_SOCKET or name the binary with --scenariod")

    def gone(self) -> Optional[str]:
        """Why the run's daemon can no longer serve tests, or None while it can: the daemon this process started
        has exited (with how and the end of its log), or the socket it was given no longer answers."""
        if self.daemon is not None:
            # A killed daemon stops answering before it can be reaped: give one that does not answer a moment to exit.
            if self.daemon.running() and (self.daemon.answers() or self.daemon.running_after(5.0)):
                return None
            self.daemon.stop()
            return (f"{self.daemon.ending() or 'scenariod exited'} (pid {self.daemon.process.pid if self.daemon.process else '?'}); "
                    f"the rest of the run cannot use it. The end of its log ({self.daemon.log_path}):\n{self.daemon.log_tail(30)}")
        if self._socket is None:
            return None
        from .client import ScenariodClient
        from .errors import ScenariodError, ScenariodUnreachable
        try:
            with ScenariodClient(self._socket, timeout=5) as client:
                client.health()
            return None
        except (ScenariodUnreachable, ScenariodError) as error:
            return f"scenariod on {self._socket} stopped answering during the run ({error}); the rest of the run cannot use it"

    def stop(self) -> Optional[str]:
        """Stops the daemon this process started (if any) and removes its directory, keeping the end of its log
        in :attr:`final_log`. Returns how it ended when that was not cleanly (see :meth:`DaemonProcess.ending`)."""
        if self.daemon is None:
            return None
        daemon, self.daemon = self.daemon, None
        daemon.stop()
        self.final_log = daemon.log_tail()
        daemon.remove()
        return daemon.ending()
