"""One damage-calc bridge per process, shared by every RandBot in it (a Node process is not free)."""

from __future__ import annotations

import atexit
import logging
import threading
from typing import Any

log = logging.getLogger("randbot.bot.calc")

_lock = threading.Lock()
_calc: Any | None = None
_failed = False


def shared_calc() -> Any | None:
    """The process's DamageCalc, started on first use; None when the bridge cannot start."""
    global _calc, _failed
    with _lock:
        if _calc is not None or _failed:
            return _calc
        try:
            from damagecalc_bridge import DamageCalc

            calc = DamageCalc(gen=9)
            enter = getattr(calc, "__enter__", None)
            _calc = enter() if enter else calc
            atexit.register(_close)
        except Exception as exc:  # noqa: BLE001 - no bridge means the Python estimate
            _failed = True
            log.warning("damage-calc bridge unavailable (%s); using the Python estimate", exc)
        return _calc


def _close() -> None:
    global _calc
    if _calc is not None:
        try:
            _calc.__exit__(None, None, None)
        except Exception:  # noqa: BLE001
            pass
        _calc = None
