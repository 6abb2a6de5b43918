"""Stopping the processes the harness starts, and reading what they cost."""
import os
import pathlib
import subprocess


def stop(process, signal_number, timeout=30):
    """Sends `signal_number` and waits; kills the process if it is still running after `timeout` seconds.
    Returns whether it stopped on the signal alone."""
    if process.poll() is not None:
        return True
    process.send_signal(signal_number)
    try:
        process.wait(timeout)
        return True
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return False


def cpu_seconds(pid):
    """User + system CPU seconds `pid` has used so far (/proc/PID/stat)."""
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
