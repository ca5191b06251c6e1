"""How exactly the search's state rebuilds the real battle.

For a recorded battle (a server log: true teams and input log), at each of our move decisions
the battle is rebuilt twice: by Showdown's own simulator playing the input log to that point
(`replay_states.js`), and by the search's way (`state.py` reads poke-env's battle as our side saw
it, with the enemy's true sets as its builds; the worker builds a Battle from that). The two are
compared field by field. Fields no player can know from the protocol (the remaining sleep turns,
the enemy's PP before a move is seen) are counted apart as hidden, not as mismatches.
"""

from __future__ import annotations

import json
import subprocess
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from poke_env.data import GenData

from randbot.bot.mon import to_id
from randbot.errors import RandbotError
from randbot.lookahead.state import EnemyBuild, build_worlds
from randbot.lookahead.worker import SimWorker
from randbot.nodejs import node_executable
from randbot.replay import replay_log

REPLAY_STATES = Path(__file__).with_name("replay_states.js")
STATS = ("hp", "atk", "def", "spa", "spd", "spe")
# (confusion lasts 2-5 turns drawn when it starts, shown to no one, like sleep's)
HIDDEN = {
    "sleep turns",
    "enemy pp",
    "volatile confusion time",
    # (a binding move's trap lasts 5 or 6 turns drawn when it starts: the rebuild draws it too)
    "volatile partiallytrapped duration",
}
# While an enemy's Illusion holds, the protocol shows the disguise: what differs in the enemy's
# active (the one shown and the one in disguise) is counted apart, as "illusion ...".
ILLUSION = "illusion "
# A volatile the simulator keeps for its own bookkeeping, invisible in the protocol and without
# effect on the next turn's outcome.
BOOKKEEPING = {"lockedmove"}


@dataclass
class Fidelity:
    fields: int = 0
    matched: int = 0
    hidden: int = 0
    hidden_matched: int = 0
    decisions: int = 0
    compared: Counter = field(default_factory=Counter)  # fields compared, by kind
    mismatches: Counter = field(default_factory=Counter)
    hidden_mismatches: Counter = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)

    def add(self, kind: str, built: Any, real: Any, where: str, ok: bool | None = None) -> None:
        ok = built == real if ok is None else ok
        self.compared[kind] += 1
        if not ok:
            self.examples.setdefault(kind, f"{where}: built {built!r}, real {real!r}")
        if kind in HIDDEN or kind.startswith(ILLUSION):
            self.hidden += 1
            self.hidden_matched += ok
            if not ok:
                self.hidden_mismatches[kind] += 1
            return
        self.fields += 1
        self.matched += ok
        if not ok:
            self.mismatches[kind] += 1

    def merge(self, other: Fidelity) -> None:
        self.fields += other.fields
        self.matched += other.matched
        self.hidden += other.hidden
        self.hidden_matched += other.hidden_matched
        self.decisions += other.decisions
        self.compared.update(other.compared)
        self.mismatches.update(other.mismatches)
        self.hidden_mismatches.update(other.hidden_mismatches)
        for k, v in other.examples.items():
            self.examples.setdefault(k, v)

    @property
    def share(self) -> float:
        return self.matched / self.fields if self.fields else 1.0


def real_states(log: dict, side: str) -> list[dict]:
    """The real simulator's state before each choice `side` made."""
    done = subprocess.run(
        [node_executable(), str(REPLAY_STATES), side],
        input=json.dumps(log["inputLog"]),
        capture_output=True,
        text=True,
        timeout=120,
    )
    if done.returncode != 0:
        raise RandbotError(f"replaying the input log failed: {done.stderr.strip()[-300:]}")
    return [json.loads(line) for line in done.stdout.splitlines() if line]


def true_builds(log: dict, side: str, battle: Any) -> dict[str, list[EnemyBuild]]:
    """The enemy's true sets as one build each, keyed as poke-env keys the enemy's team."""
    by_species = {to_id(s["species"]): s for s in log[f"{side}team"]}
    builds: dict[str, list[EnemyBuild]] = {}
    for key, mon in battle.opponent_team.items():
        s = by_species.get(to_id(mon.species)) or next(
            (v for k, v in by_species.items() if k.startswith(to_id(mon.species).split("-")[0])),
            None,
        )
        if s is None:
            continue
        evs = tuple(s.get("evs", {}).get(k, 85) for k in STATS) if s.get("evs") else None
        ivs = tuple(s.get("ivs", {}).get(k, 31) for k in STATS) if s.get("ivs") else None
        moves = tuple(to_id(m) for m in s["moves"])
        builds[key] = [
            EnemyBuild(moves, s.get("item"), s.get("ability"), s.get("teraType"), s.get("level"),
                       1.0, evs, ivs)
        ]  # fmt: skip
    return builds


def compare(built: dict, real: dict, ours: str, out: Fidelity, where: str) -> None:
    theirs = "p2" if ours == "p1" else "p1"
    out.add("turn", built["turn"], real["turn"], where)
    for built_id, real_id, enemy in (("p1", ours, False), ("p2", theirs, True)):
        b_side, r_side = built["sides"][built_id], real["sides"][real_id]
        _compare_conditions(b_side["conditions"], r_side["conditions"], out, f"{where} {real_id}")
        # (by the species each was built as: a transformed Ditto shows its foe's)
        real_mons = {to_id(_set_species(m)): m for m in r_side["pokemon"]}
        for b in b_side["pokemon"]:
            r = real_mons.get(to_id(_set_species(b))) or _by_base(real_mons, _set_species(b))
            disguised = (
                enemy and r_side.get("illusion") and (b["active"] or (r or {}).get("active"))
            )
            if r is None:
                out.add(f"{ILLUSION if disguised else ''}species", b["species"], None, where)
                continue
            out.add(
                f"{ILLUSION if disguised else ''}species",
                _forme(b["species"]),
                _forme(r["species"]),
                where,
            )
            where_mon = f"{where} {real_id} {r['species']}"
            _compare_pokemon(b, r, "illusion" if disguised else enemy, out, where_mon)
    bf, rf = built["field"], real["field"]
    for key in ("weather", "terrain"):
        out.add(key, bf.get(key) or "", rf.get(key) or "", where)
        if rf.get(key) and bf.get(key) == rf.get(key):
            out.add(f"{key} turns", bf.get(f"{key}_turns"), rf.get(f"{key}_turns"), where)
    b_pseudo, r_pseudo = bf.get("pseudo", {}), rf.get("pseudo", {})
    for pid in set(b_pseudo) | set(r_pseudo):
        out.add(f"pseudo {pid}", pid in b_pseudo, pid in r_pseudo, where)
        if pid in b_pseudo and (r_pseudo.get(pid) or {}).get("duration") is not None:
            out.add(
                f"pseudo {pid} turns",
                b_pseudo[pid].get("duration"),
                r_pseudo[pid]["duration"],
                where,
            )


def _forme(species: str) -> str:
    """A species' forme, cosmetic ones (Minior's colours) and those only an ability makes
    (Greninja-Bond: the protocol shows a Greninja) as their species."""
    dex = GenData.from_gen(9).pokedex
    entry = dex.get(to_id(species)) or {}
    base = dex.get(to_id(entry.get("baseSpecies") or "")) or {}
    if not entry.get("battleOnly") and all(
        base.get(k) is not None and base.get(k) == entry.get(k) for k in ("baseStats", "types")
    ):
        return to_id(base["name"])
    return to_id(entry.get("name", species))


def _set_species(mon: dict) -> str:
    return mon.get("base_species") or mon["species"]


def _by_base(mons: dict[str, dict], species: str) -> dict | None:
    base = to_id(species.split("-")[0])
    return next((m for k, m in mons.items() if k.startswith(base)), None)


def _compare_conditions(built: dict, real: dict, out: Fidelity, where: str) -> None:
    for cid in set(built) | set(real):
        b, r = built.get(cid), real.get(cid)
        out.add(f"side {cid}", b is not None, r is not None, where)
        if b is not None and r is not None:
            if r.get("layers") is not None:
                out.add(f"side {cid} layers", b.get("layers"), r.get("layers"), where)
            if r.get("duration") is not None:
                out.add(f"side {cid} turns", b.get("duration"), r.get("duration"), where)


def _compare_pokemon(b: dict, r: dict, enemy: bool | str, out: Fidelity, where: str) -> None:
    who = ILLUSION if enemy == "illusion" else "enemy " if enemy else ""
    out.add(f"{who}active", b["active"], r["active"], where)
    out.add(f"{who}maxhp", b["maxhp"], r["maxhp"], where)
    # The enemy's HP is shown in percent: a built HP within one percent point is exact knowledge.
    slack = (r["maxhp"] / 100 + 1) if enemy else 0
    out.add(f"{who}hp", b["hp"], r["hp"], where, ok=abs(b["hp"] - r["hp"]) <= slack)
    if r["hp"] == 0 or b["hp"] == 0:
        return  # (a fainted Pokémon's status is "fnt" or "" by when it fainted: no matter)
    out.add(f"{who}status", b["status"], r["status"], where)
    if r["status"] == "slp" and b["status"] == "slp":
        out.add("sleep turns", b.get("sleep_turns"), r.get("sleep_turns"), where)
    if r["status"] == "tox" and b["status"] == "tox":
        out.add(f"{who}toxic stage", b.get("toxic_stage"), r.get("toxic_stage"), where)
    out.add(f"{who}item", b["item"], r["item"], where)
    out.add(f"{who}ability", b["ability"], r["ability"], where)
    out.add(f"{who}tera", b["terastallized"], r["terastallized"], where)
    if b.get("ability_counter") is not None or r.get("ability_counter") is not None:
        # (Slow Start's turns left)
        out.add(f"{who}ability counter", b.get("ability_counter"), r.get("ability_counter"), where)
    for move, pp in r["pp"].items():
        kind = "enemy pp" if enemy else "pp"
        out.add(kind, b["pp"].get(move), pp, f"{where} {move}")
    if r["active"] and b["active"]:
        for stat, stage in r["boosts"].items():
            out.add(f"{who}boosts", b["boosts"].get(stat, 0), stage, f"{where} {stat}")
        volatiles = (set(b["volatiles"]) | set(r["volatiles"])) - BOOKKEEPING
        for vid in sorted(volatiles):
            bv, rv = b["volatiles"].get(vid), r["volatiles"].get(vid)
            hid = ILLUSION if enemy == "illusion" else ""
            out.add(f"{hid}volatile {vid}", bv is not None, rv is not None, where)
            if bv is not None and rv is not None:
                for key in ("duration", "hp", "move", "time", "counter", "layers"):
                    if key in rv:
                        out.add(f"{hid}volatile {vid} {key}", bv.get(key), rv[key], where)


def battle_fidelity(log: dict, side: str, worker: SimWorker) -> Fidelity:
    """Every move decision of `side` in one recorded battle, compared."""
    from randbot.bot.config import BotConfig
    from randbot.bot.player import RandBot

    states = real_states(log, side)
    theirs = "p2" if side == "p1" else "p1"
    bot = RandBot(
        battle_format=log["format"],
        start_listening=False,
        bot_config=BotConfig(use_bridge=False, inference=False, search=False),
    )
    out = Fidelity()
    for index, (battle, request) in enumerate(replay_log(log, side, bot._note_actions)):
        if index >= len(states):
            break
        real = states[index]
        if real["force_switch"] or request.get("forceSwitch"):
            continue
        bot._weather_clock.correct(battle)  # as the bot does before each decision
        bot._toxic_clock.correct(battle)
        bot._trap_clock.correct(battle)
        bot._charge_clock.correct(battle)
        bot._forme_clock.correct(battle)
        builds = true_builds(log, theirs, battle)
        last_moves = bot._last_moves.get(battle.battle_tag)
        loafing = bot._truant.loafing(battle.battle_tag)
        (world,) = build_worlds(
            battle, builds, 1, seed=index, last_moves=last_moves, loafing=loafing
        )
        built = worker.request("build", spec=world.spec)["state"]
        out.decisions += 1
        compare(built, real["state"], side, out, f"turn {battle.turn}")
    return out
