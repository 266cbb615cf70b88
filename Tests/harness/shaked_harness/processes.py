"""Ending the helper processes a test or harness started (a bus, a mock, iio-sensor-proxy, a feeder)."""

import subprocess


def stop_all(processes, grace=5):
    """Terminates each process still running, newest first, and kills any that has not ended
    within `grace` seconds, so that nothing a test started outlives it."""
    for process in reversed(processes):
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
