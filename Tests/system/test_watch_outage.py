"""`scenarioctl watch` through a daemon's stop and start (issue 28, item 2): it says on stderr that the daemon went
away, reconnects by itself, resumes after the last event it printed, and ends when the session is gone; with
--no-reconnect it exits instead of waiting. It never hangs. (On the code before, the stream's end ended watch with
status 0 and no word, so the first assertion on stderr fails there.)"""
import subprocess
import threading
import time

from daemon import SCENARIOCTL


class Watch:
    """`scenarioctl watch` with its output read line by line as it comes."""

    def __init__(self, daemon, *arguments):
        self.process = subprocess.Popen([SCENARIOCTL, "--socket", daemon.socket, "watch", *arguments],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.out, self.err = [], []
        for stream, lines in [(self.process.stdout, self.out), (self.process.stderr, self.err)]:
            threading.Thread(target=lambda s=stream, l=lines: [l.append(line.rstrip("\n")) for line in s], daemon=True).start()

    def wait_for(self, what, lines, seconds=20):
        deadline = time.monotonic() + seconds
        while not any(what in line for line in lines):
            assert time.monotonic() < deadline, f"waited {seconds} s for {what!r}; stdout {self.out}, stderr {self.err}"
            assert self.process.poll() is None or any(what in line for line in lines), \
                f"watch exited {self.process.returncode} before {what!r}; stdout {self.out}, stderr {self.err}"
            time.sleep(0.05)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
        self.process.wait(timeout=10)


def test_watch_reports_the_outage_reconnects_and_resumes(daemon_with):
    daemon = daemon_with({}, ["--scenario", "offline-demo"])
    watch = Watch(daemon)
    try:
        watch.wait_for("stateChanged", watch.out)
        daemon.call("POST", "/v1/sessions/default/clock/advance", expect=200, json={"by": "1m"})
        watch.wait_for("09:01:00Z", watch.out)
        daemon.stop()
        watch.wait_for("reconnecting every second", watch.err)
        assert watch.process.poll() is None, "watch gave up instead of reconnecting"
        daemon.start()
        watch.wait_for("reconnected to", watch.err)
        # The restarted daemon's session is new: the resume finds a gap and the current state, then new events.
        daemon.call("POST", "/v1/sessions/default/clock/advance", expect=200, json={"by": "15m"})
        watch.wait_for("09:15:00Z", watch.out)
        assert any("resuming after event #" in line for line in watch.err), watch.err
        assert any(" gap: " in line for line in watch.out), watch.out
        assert len([line for line in watch.err if "reconnecting every second" in line]) == 1, "one outage, said once"
    finally:
        watch.stop()


def test_watch_ends_when_its_session_is_deleted(daemon_with):
    daemon = daemon_with({})
    daemon.session("offline", "short-lived")
    watch = Watch(daemon, "--session", "short-lived")
    try:
        watch.wait_for("stateChanged", watch.out)
        daemon.call("DELETE", "/v1/sessions/short-lived", expect=204)
        assert watch.process.wait(timeout=20) == 1, (watch.out, watch.err)
        time.sleep(0.2)  # the reader threads finish the last lines
        assert any("short-lived" in line for line in watch.err), watch.err
    finally:
        watch.stop()


def test_watch_without_reconnecting_exits_when_the_daemon_stops(daemon_with):
    daemon = daemon_with({}, ["--scenario", "offline-demo"])
    watch = Watch(daemon, "--no-reconnect")
    try:
        watch.wait_for("stateChanged", watch.out)
        daemon.stop()
        assert watch.process.wait(timeout=20) == 0, (watch.out, watch.err)
        # And started against no daemon at all, it says so and exits 3 at once.
        late = subprocess.run([SCENARIOCTL, "--socket", daemon.socket, "watch", "--no-reconnect"],
                              capture_output=True, text=True, timeout=20)
        assert late.returncode == 3 and "no daemon answers" in late.stderr, (late.returncode, late.stderr)
    finally:
        watch.stop()
