"""Bridge to the Smogon damage calculator (@smogon/calc) in one long-lived Node process.

A leaf package: it imports nothing from randbot, setdb or collectors.

    from damagecalc_bridge import DamageCalc
    with DamageCalc(gen=9) as calc:
        r = calc.damage(attacker, defender, "Close Combat", field=None)
        rs = calc.damage_many([(attacker, defender, move, field), ...])
"""

from damagecalc_bridge.client import DamageCalc, Mon
from damagecalc_bridge.errors import BridgeError, CalcError
from damagecalc_bridge.result import DamageResult
from damagecalc_bridge.translate import to_id

__all__ = ["BridgeError", "CalcError", "DamageCalc", "DamageResult", "Mon", "to_id"]
