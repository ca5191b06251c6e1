"""One damage-calc bridge per generation and process, shared by every RandBot in it (a Node process
is not free)."""

from __future__ import annotations

import atexit
import logging
import threading
from typing import Any

log = logging.getLogger("randbot.bot.calc")

_lock = threading.Lock()
_calcs: dict[int, Any] = {}  # generation -> its started DamageCalc
_failed: set[int] = set()  # generations whose bridge could not start
_registered = False


def shared_calc(gen: int = 9) -> Any | None:
    """The process's DamageCalc for `gen`, started on first use; None when the bridge cannot start."""
    global _registered
    with _lock:
        if gen in _calcs or gen in _failed:
            return _calcs.get(gen)
        try:
            from damagecalc_bridge import DamageCalc

            calc = DamageCalc(gen=gen)
            enter = getattr(calc, "__enter__", None)
            _calcs[gen] = enter() if enter else calc
            if not _registered:
                atexit.register(_close)
                _registered = True
        except Exception as exc:  # noqa: BLE001 - no bridge means the Python estimate
            _failed.add(gen)
            log.warning("damage-calc bridge unavailable (%s); using the Python estimate", exc)
        return _calcs.get(gen)


def _close() -> None:
    while _calcs:
        _gen, calc = _calcs.popitem()
        try:
            calc.__exit__(None, None, None)
        except Exception:  # noqa: BLE001
            pass
