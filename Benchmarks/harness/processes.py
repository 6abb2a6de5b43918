"""Stopping the processes the harness starts."""
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
