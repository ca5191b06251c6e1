"""Is there a spare CPU right now? Decides whether the bridge may poll instead of sleeping.

Polling (busy-waiting a few hundred microseconds for an answer or the next request) saves the
expensive sleep/wake-up of a round trip, which on a virtual machine costs more than a calc.
It only pays when a CPU would otherwise idle: on a crowded machine it takes time from other
work, and two pollers sharing one CPU slow each other down. The kernel's CPU pressure (PSI,
/proc/pressure/cpu: the share of time some runnable task waited for a CPU) says which case
this is; without PSI, the load average stands in. The threshold is strict (5%): with one other
busy process on a 2-CPU machine (PSI ~15%) the two bridge processes end up sharing a CPU, and
forcing polling and pipelining there measured 3-7% worse than not.
"""

from __future__ import annotations

import os
import time

PSI_PATH = "/proc/pressure/cpu"


class CpuPressure:
    """`quiet()`: True when tasks hardly wait for a CPU (sampled at most every `interval` s)."""

    def __init__(
        self, threshold: float = 0.05, interval: float = 0.25, path: str = PSI_PATH
    ) -> None:
        self.threshold = threshold
        self.interval = interval
        self._path = path
        self._checked = -1e9
        self._stall_us: int | None = None  # PSI "some total" at the last check
        self._quiet = False

    def quiet(self) -> bool:
        now = time.monotonic()
        if now - self._checked >= self.interval:
            self._quiet = self._measure(now)
            self._checked = now
        return self._quiet

    def _measure(self, now: float) -> bool:
        stall = _psi_some_total(self._path)
        if stall is None:
            cpus = os.cpu_count() or 1
            return cpus > 1 and os.getloadavg()[0] < cpus - 1
        previous, self._stall_us = self._stall_us, stall
        if previous is None:
            return False  # nothing to compare with yet: known at the next check
        waited = (stall - previous) / 1e6
        return waited < self.threshold * (now - self._checked)


def _psi_some_total(path: str) -> int | None:
    try:
        with open(path, "rb") as file:
            text = file.read()
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith(b"some "):
            for field in line.split():
                if field.startswith(b"total="):
                    return int(field[6:])
    return None
