"""Hits taken, counted from protocol lines recorded from the real server, and Rage Fist priced by them."""

from __future__ import annotations

from randbot.bot.damage import CALC_MISSES
from randbot.bot.field import FieldState
from randbot.bot.hitcount import HitCount
from randbot.bot.mon import species_mon
from randbot.bot.pydamage import estimate

TAG = "battle-gen9randombattle-412"
# A recorded battle (turns 4-6 and 12-13): our Annihilape takes Moonblast on turn 6, then its
# Rage Fist (one hit taken: 100 power) takes Whimsicott from 238 to 135 HP; after switching out
# and back it takes two Giga Drains. Drain, Leftovers and the KO of Azumarill are not its hits.
LINES = """|turn|4
|move|p1a: Dachsbun|Play Rough|p2a: Azumarill
|-crit|p2a: Azumarill
|-damage|p2a: Azumarill|31/298
|move|p2a: Azumarill|Play Rough|p1a: Dachsbun
|-damage|p1a: Dachsbun|0 fnt
|faint|p1a: Dachsbun
|upkeep
|switch|p1a: Annihilape|Annihilape, L76, M|292/292
|turn|5
|move|p1a: Annihilape|Drain Punch|p2a: Azumarill
|-resisted|p2a: Azumarill
|-damage|p2a: Azumarill|0 fnt
|faint|p2a: Azumarill
|upkeep
|switch|p2a: Whimsicott|Whimsicott, L84, M|238/238
|turn|6
|move|p2a: Whimsicott|Moonblast|p1a: Annihilape
|-supereffective|p1a: Annihilape
|-damage|p1a: Annihilape|110/292
|move|p1a: Annihilape|Rage Fist|p2a: Whimsicott
|-damage|p2a: Whimsicott|135/238
|-heal|p2a: Whimsicott|149/238|[from] item: Leftovers
|-heal|p1a: Annihilape|128/292|[from] item: Leftovers
|upkeep
|switch|p1a: Glastrier|Glastrier, L86|200/300
|turn|12
|switch|p1a: Annihilape|Annihilape, L76, M|128/292
|move|p2a: Bellossom|Giga Drain|p1a: Annihilape
|-damage|p1a: Annihilape|43/292
|-heal|p2a: Bellossom|75/263|[from] drain|[of] p1a: Annihilape
|-heal|p1a: Annihilape|61/292|[from] item: Leftovers
|upkeep
|turn|13
|move|p1a: Annihilape|Drain Punch|p2a: Bellossom
|-damage|p2a: Bellossom|13/263
|-heal|p1a: Annihilape|100/292|[from] drain|[of] p2a: Bellossom
|move|p2a: Bellossom|Giga Drain|p1a: Annihilape
|-damage|p1a: Annihilape|15/292
|-damage|p1a: Annihilape|5/292|[from] Stealth Rock
|upkeep
|turn|14"""


def _counted(until: str) -> dict[str, int]:
    count = HitCount()
    for line in LINES.splitlines():
        count.note(TAG, line.split("|"))
        if line == until:
            break
    return count.of(TAG)


def test_each_hit_from_a_foes_move_counts_through_switches_and_nothing_else_does() -> None:
    assert _counted("|turn|6") == {"p2: Azumarill": 2, "p1: Dachsbun": 1}
    assert _counted("|turn|12")["p1: Annihilape"] == 1
    assert _counted("|turn|14")["p1: Annihilape"] == 3  # not the Stealth Rock damage
    assert _counted("|turn|14")["p2: Bellossom"] == 1
    count = HitCount()
    count.note(TAG, "|move|p2a: Bellossom|Giga Drain|p1a: Annihilape".split("|"))
    count.forget(TAG)
    assert count.of(TAG) == {}


def test_rage_fist_gains_fifty_power_a_hit_taken_as_the_recorded_hit_shows() -> None:
    annihilape = species_mon(
        "annihilape", 76, ("drainpunch", "ragefist", "bulkup", "taunt"), "leftovers", "defiant"
    )
    whimsicott = species_mon(
        "whimsicott",
        84,
        ("leechseed", "moonblast", "substitute", "encore"),
        "leftovers",
        "prankster",
    )
    assert "ragefist" in CALC_MISSES  # the pinned calc prices it at 50 power whatever was taken
    assert annihilape.with_times_hit(0) == annihilape
    low, high, _ = estimate(
        annihilape.with_times_hit(1), whimsicott, "ragefist", FieldState(), True
    )
    assert low <= 238 - 135 <= high  # the recorded turn-6 hit, after one hit taken
    assert estimate(annihilape, whimsicott, "ragefist", FieldState(), True)[1] < 238 - 135
    most = estimate(annihilape.with_times_hit(12), whimsicott, "ragefist", FieldState(), True)
    assert most == estimate(
        annihilape.with_times_hit(6), whimsicott, "ragefist", FieldState(), True
    )
    assert species_mon("garchomp", 77, ("earthquake",), "", "").with_times_hit(3).times_hit == 0
