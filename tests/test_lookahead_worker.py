"""The simulator worker (randbot/lookahead/sim_worker.js) as a real Node process: building a battle
from a spec, searching one turn, deadlines, bad input, and restarts."""

from __future__ import annotations

import json
import math
import os
import signal
from pathlib import Path

import pytest

from randbot.bot.mon import to_id
from randbot.inference.dexdata import species_types
from randbot.inference.scripted_players import base_power, heuristic_picks
from randbot.inference.situation import Situation
from randbot.lookahead.worker import SimWorker, SimWorkerError

pytestmark = pytest.mark.integration

LOG = Path(__file__).parent / "fixtures" / "bot" / "explain-vs-heuristic.log.json"


def _team(side: str) -> list[dict]:
    """A recorded battle's true team as spec entries (sets from the server's own log)."""
    log = json.loads(LOG.read_text())
    return [
        {
            "species": s["species"],
            "level": s["level"],
            "moves": [to_id(m) for m in s["moves"]],
            "item": s.get("item", ""),
            "ability": s.get("ability", ""),
            "tera_type": s.get("teraType"),
            "evs": s.get("evs"),
            "ivs": s.get("ivs"),
        }
        for s in log[f"{side}team"]
    ]


def _spec(**changes) -> dict:
    spec = {
        "format": "gen9randombattle",
        "turn": 5,
        "sides": {"p1": {"pokemon": _team("p1")}, "p2": {"pokemon": _team("p2")}},
        "field": {},
    }
    for path, value in changes.items():
        side, index, key = path.split("__")
        spec["sides"][side]["pokemon"][int(index)][key] = value
    return spec


@pytest.fixture(scope="module")
def worker():
    with SimWorker() as w:
        yield w


def test_build_places_the_state_given(worker: SimWorker) -> None:
    spec = _spec(p1__0__hp=50, p1__0__boosts={"atk": 2}, p2__0__status="par", p2__1__fainted=True)
    spec["sides"]["p2"]["conditions"] = {"spikes": {"layers": 2}}
    spec["field"] = {"weather": "raindance", "weather_turns": 3}
    state = worker.request("build", spec=spec)["state"]
    ours, theirs = state["sides"]["p1"]["pokemon"], state["sides"]["p2"]["pokemon"]
    assert ours[0]["active"] and ours[0]["hp"] == 50 and ours[0]["boosts"]["atk"] == 2
    assert theirs[0]["status"] == "par"
    assert theirs[1]["hp"] == 0 and theirs[1]["status"] == "fnt"
    assert state["sides"]["p2"]["conditions"]["spikes"]["layers"] == 2
    assert state["field"]["weather"] == "raindance" and state["field"]["weather_turns"] == 3
    assert state["turn"] == 5


def test_search_scores_every_pair_of_choices(worker: SimWorker) -> None:
    answer = worker.request(
        "search", worlds=[{"spec": _spec(), "weight": 1.0}], samples=1, deadline_ms=5000, seed=3
    )
    (world,) = answer["worlds"]
    assert world["complete"] and not answer["timed_out"]
    assert len(world["ours"]) >= 4 and any(c.startswith("switch") for c in world["theirs"])
    cells = [v for row in world["matrix"] for v in row if v is not None]
    assert answer["turns"] == len(world["ours"]) * len(world["theirs"]) == len(cells)
    assert all(-1.0 <= v <= 1.0 for v in cells)
    # the equilibrium mix is a distribution; each row's Nash value lies between its min and max
    assert abs(sum(world["mix"]) - 1.0) < 1e-6
    for row, lo, value in zip(world["matrix"], world["maximin"], world["nash"], strict=True):
        assert lo - 1e-9 <= value <= max(v for v in row if v is not None) + 1e-9


@pytest.mark.parametrize("share", [0.0, 0.15, 0.5])
def test_the_model_gives_the_enemys_switches_the_share_asked(
    worker: SimWorker, share: float
) -> None:
    world = worker.request(
        "search",
        worlds=[{"spec": _spec()}],
        samples=1,
        deadline_ms=5000,
        max_turns=1,
        switch_share=share,
    )["worlds"][0]
    switches = [b for b, c in enumerate(world["theirs"]) if c.startswith("switch")]
    assert switches and len(switches) < len(world["theirs"])
    assert sum(world["model_mix"][b] for b in switches) == pytest.approx(share)
    assert sum(world["model_mix"]) == pytest.approx(1.0)


def test_an_illegal_choice_is_dropped_not_fatal(worker: SimWorker) -> None:
    ours = ["move notamove", "switch 2"]
    answer = worker.request(
        "search", worlds=[{"spec": _spec()}], ours=ours, samples=1, deadline_ms=5000
    )
    world = answer["worlds"][0]
    assert all(v is None for v in world["matrix"][0])
    assert any(v is not None for v in world["matrix"][1])


def test_the_deadline_cuts_the_search_short(worker: SimWorker) -> None:
    worlds = [{"spec": _spec(), "weight": 0.25}] * 4
    answer = worker.request("search", worlds=worlds, samples=3, deadline_ms=30)
    assert answer["timed_out"]
    assert answer["ms"] < 1000


def test_by_reply_a_cut_world_keeps_only_replies_played_against_every_choice(
    worker: SimWorker,
) -> None:
    full = worker.request(
        "search", worlds=[{"spec": _spec()}], samples=1, deadline_ms=5000, by_reply=True
    )["worlds"][0]
    assert full["complete"] and full["covered"] == 1
    # a deadline after about half the cells: the likeliest replies first, each against every row
    half = len(full["ours"]) * len(full["theirs"]) // 2
    cut = worker.request(
        "search",
        worlds=[{"spec": _spec()}],
        samples=1,
        deadline_ms=5000,
        by_reply=True,
        max_turns=half,
    )["worlds"][0]
    assert not cut["complete"] and 0 < cut["covered"] < 1
    kept = [b for b in range(len(cut["theirs"])) if cut["matrix"][0][b] is not None]
    assert kept and all(all(row[b] is not None for row in cut["matrix"]) for b in kept)
    assert all(
        all(row[b] is None for row in cut["matrix"])
        for b in set(range(len(cut["theirs"]))) - set(kept)
    )
    mix = cut["model_mix"]
    assert min(mix[b] for b in kept) >= max(mix[b] for b in range(len(mix)) if b not in kept)
    assert cut["covered"] == pytest.approx(sum(mix[b] for b in kept))


def test_bad_spec_gets_an_error_naming_it(worker: SimWorker) -> None:
    with pytest.raises(SimWorkerError, match="simulator worker failed"):
        worker.request("build", spec={"sides": {}})
    assert worker.request("ping")["ok"]  # still in step afterwards


def _trapped_registeel_spec(trap: dict) -> dict:
    """Registeel (p1) in a binding trap facing Calyrex-Shadow (p2), whose Trick deals no damage."""
    spec = _spec()
    ours, theirs = spec["sides"]["p1"]["pokemon"], spec["sides"]["p2"]["pokemon"]
    ours[0], ours[1] = ours[1], ours[0]
    theirs[0], theirs[1] = theirs[1], theirs[0]
    ours[0]["volatiles"] = {"partiallytrapped": trap}
    return spec


@pytest.mark.parametrize(
    "trap",
    [{"duration": 3, "source_move": "magmastorm"}, {"duration": 3}],
    ids=["named", "unnamed"],
)
def test_a_pokemon_in_a_binding_trap_plays_its_turn_and_loses_an_eighth(
    worker: SimWorker, trap: dict
) -> None:
    # Showdown's trap handlers read state its addVolatile and onStart leave (the binding move, the
    # residual's divisor); built without it, every turn failed ("reading 'id'"). The state.py spec
    # names the move; a trap without one (the unnamed case) plays as well.
    spec = _trapped_registeel_spec(trap)
    maxhp = worker.request("build", spec=spec)["state"]["sides"]["p1"]["pokemon"][0]["maxhp"]
    answer = worker.request(
        "search",
        worlds=[{"spec": spec, "weight": 1.0, "theirs": ["move trick"]}],
        ours=["move irondefense"],
        samples=1,
        deadline_ms=5000,
        leaves=True,
        luck="likely",
    )
    (world,) = answer["worlds"]
    assert world["complete"] and world["matrix"][0][0] is not None
    registeel = world["leaves"][0][0]["o"]["hp"][0]  # (its spec slot after the swap: 0)
    assert registeel == round(1 - (maxhp // 8) / maxhp, 3)


@pytest.mark.parametrize("volatile", ["imprison", "snatch"])
def test_a_volatile_whose_handlers_read_its_source_plays(worker: SimWorker, volatile: str) -> None:
    # Showdown's addVolatile gives every volatile a source (the Pokémon itself by default); these
    # handlers read it, and without one failed the turn ("reading 'hasMove'", "'isSkyDropped'")
    spec = _spec()
    spec["sides"]["p2"]["pokemon"][0]["volatiles"] = {volatile: {}}
    answer = worker.request("search", worlds=[{"spec": spec}], samples=1, deadline_ms=5000)
    assert answer["worlds"][0]["complete"]


def test_a_volatile_the_simulator_cannot_run_is_named_in_the_error(worker: SimWorker) -> None:
    # a slot condition placed as a volatile: its handler throws in Showdown's own code, and the
    # answer says whose handler, in which event, playing what (not only "reading 'futuremove'")
    spec = _spec()
    spec["sides"]["p1"]["pokemon"][0]["volatiles"] = {"futuremove": {}}
    with pytest.raises(SimWorkerError) as failure:
        worker.request("search", worlds=[{"spec": spec}], samples=1, deadline_ms=5000)
    message = str(failure.value)
    assert "futuremove's Residual handler on p1 Gardevoir" in message
    assert "playing move " in message and "removeSlotCondition" in message
    assert worker.request("ping")["ok"]


def test_a_killed_worker_is_restarted_once(worker: SimWorker) -> None:
    old = worker.pid
    assert old is not None
    os.kill(old, signal.SIGKILL)
    assert worker.request("ping")["pid"] != old
    assert worker.restarts >= 1


def test_closing_leaves_no_process() -> None:
    w = SimWorker()
    w.start()
    proc = w._proc
    w.close()
    assert proc is not None and proc.poll() is not None


def test_likely_luck_values_a_cell_by_its_likely_outcome_whatever_the_seed(
    worker: SimWorker,
) -> None:
    def matrix(luck: str, seed: int) -> list:
        answer = worker.request(
            "search",
            worlds=[{"spec": _spec(), "weight": 1.0}],
            samples=1,
            deadline_ms=10000,
            seed=seed,
            luck=luck,
        )
        return answer["worlds"][0]["matrix"], answer["turns"]

    (likely_a, turns_a), (likely_b, _) = matrix("likely", 1), matrix("likely", 2)
    assert likely_a == likely_b  # no dice: the seed changes nothing
    sampled = [matrix("sampled", seed)[0] for seed in (1, 2, 3)]
    assert any(m != sampled[0] for m in sampled[1:])  # real dice: it does
    cells = sum(1 for row in likely_a for v in row if v is not None)
    assert turns_a > cells  # cells whose first coin could go either way are played twice


def _gen2_mon(species: str, moves: list[str], **state) -> dict:
    return {"species": species, "level": 80, "moves": moves, "item": "leftovers", **state}


def test_a_badly_poisoned_pokemon_plays_its_turn_in_gen_2(worker: SimWorker) -> None:
    """Gens 1 and 2 keep toxic's stage in a volatile their toxic reads after every move: a state
    built without it failed every turn of a badly poisoned active (a recorded gen 2 battle)."""
    spec = {
        "format": "gen2randombattle",
        "turn": 4,
        "sides": {
            "p1": {"pokemon": [_gen2_mon("Snorlax", ["bodyslam", "rest"]), _gen2_mon("Tauros", ["earthquake"])]},
            "p2": {"pokemon": [_gen2_mon("Sneasel", ["sleeptalk", "hiddenpower"], status="tox", toxic_stage=2), _gen2_mon("Wobbuffet", ["counter"])]},
        },
        "field": {},
    }  # fmt: skip
    answer = worker.request("search", worlds=[{"spec": spec}], samples=1, deadline_ms=5000)
    (world,) = answer["worlds"]
    assert world["complete"]
    assert any(v is not None for row in world["matrix"] for v in row)


def test_our_transformed_ditto_keeps_the_moves_its_request_shows(worker: SimWorker) -> None:
    """Our Ditto copied an enemy whose spec knows one move (it fainted after showing only that):
    the copy has the request's four moves, and the state restores for every pair (a recorded
    gen 7 battle failed to restore: Showdown pairs the copier's own move slots with copied ones)."""
    spec = _spec()
    theirs = spec["sides"]["p2"]["pokemon"]
    target = next(p for p in theirs if to_id(p["ability"]) != "illusion")  # Illusion blocks it
    theirs.remove(target)
    theirs.insert(0, {**target, "moves": target["moves"][:1]})
    ditto = {"species": "Ditto", "level": 90, "moves": target["moves"], "ability": "imposter",
             "item": "choicescarf", "volatiles": {"transform": {"into": 0}}}  # fmt: skip
    spec["sides"]["p1"]["pokemon"][0] = ditto
    answer = worker.request("search", worlds=[{"spec": spec}], samples=1, deadline_ms=5000)
    (world,) = answer["worlds"]
    assert world["complete"]
    assert {f"move {m}" for m in target["moves"]} <= set(world["ours"])


def test_a_spent_intrepid_sword_raises_nothing_on_the_next_entry(worker: SimWorker) -> None:
    # Gen 9 raises Zacian's Attack once a battle: a Zacian that had been out came back at +1
    # in the search while the real battle gave it nothing.
    def leaf(spent: bool) -> float:
        spec = _spec()
        spec["sides"]["p1"]["pokemon"][1] = {
            "species": "Zacian-Crowned",
            "level": 70,
            "moves": ["behemothblade", "closecombat", "playrough", "swordsdance"],
            "item": "Rusted Sword",
            "ability": "Intrepid Sword",
            "entry_boost_spent": spent,
        }
        answer = worker.request(
            "search",
            worlds=[{"spec": spec, "weight": 1.0, "theirs": ["switch 2"]}],
            ours=["switch 2"],
            samples=1,
            deadline_ms=5000,
            leaves=True,
            luck="likely",
        )
        (world,) = answer["worlds"]
        assert world["complete"]
        return world["leaves"][0][0]["x"]

    assert leaf(spent=False) > leaf(spent=True)


def _doomed_spec(ours: dict) -> dict:
    def mon(species: str, moves: list[str], **state) -> dict:
        return {"species": species, "level": 80, "moves": moves, "item": "leftovers", **state}

    return {
        "format": "gen9randombattle",
        "turn": 3,
        "sides": {
            "p1": {"pokemon": [mon(**ours), mon("Chansey", ["seismictoss"])]},
            "p2": {"pokemon": [mon("Dragapult", ["dragondarts"]), mon("Blissey", ["seismictoss"])]},
        },
        "field": {},
    }


@pytest.mark.parametrize(
    ("ours", "doomed"),
    [
        ({"species": "Snorlax", "moves": ["bodyslam"], "hp": 20}, True),  # slower, in range
        ({"species": "Regieleki", "moves": ["thunderbolt"], "hp": 20}, False),  # faster
        ({"species": "Snorlax", "moves": ["bodyslam"]}, False),  # survives the hit
        # a sash protects only at full HP
        ({"species": "Snorlax", "moves": ["bodyslam"], "hp": 20, "item": "focussash"}, True),
    ],
)
def test_doom_values_an_active_the_faster_foe_knocks_out_as_a_sack(
    worker: SimWorker, ours: dict, doomed: bool
) -> None:
    def root(doom: bool) -> float:
        answer = worker.request(
            "search",
            worlds=[{"spec": _doomed_spec(ours), "weight": 1.0}],
            samples=1,
            deadline_ms=5000,
            seed=1,
            doom=doom,
        )
        return answer["worlds"][0]["root_value"]

    assert (root(True) < root(False) - 0.01) is doomed


def _one_world(
    worker: SimWorker, spec: dict, theirs: list[str], ours: list[str], **request
) -> dict:
    """One world searched under likely luck, our `ours` against the enemy's `theirs`."""
    answer = worker.request(
        "search",
        worlds=[{"spec": spec, "weight": 1.0, "theirs": theirs}],
        ours=ours,
        samples=1,
        deadline_ms=5000,
        seed=1,
        luck="likely",
        **request,
    )
    (world,) = answer["worlds"]
    return world


def test_switch_doom_values_a_doomed_switch_in_as_a_sack_and_leaves_a_stay_alone(
    worker: SimWorker,
) -> None:
    # Both ours are slower than Dragapult and in range of its Dragon Darts; the enemy sets up a
    # Substitute this turn, so the switch-in lands unhurt and falls next turn before it acts.
    spec = _doomed_spec({"species": "Slowbro", "moves": ["scald"], "hp": 20})
    spec["sides"]["p1"]["pokemon"][1] = {
        "species": "Snorlax",
        "level": 80,
        "moves": ["bodyslam"],
        "item": "leftovers",
        "hp": 20,
    }
    spec["sides"]["p2"]["pokemon"][0]["moves"] = ["dragondarts", "substitute"]

    def row_values(switch_doom: bool) -> dict[str, float]:
        world = _one_world(
            worker, spec, ["move substitute"], ["move scald", "switch 2"], switch_doom=switch_doom
        )
        assert world["complete"]
        return {ours: row[0] for ours, row in zip(world["ours"], world["matrix"], strict=True)}

    plain, doomed = row_values(False), row_values(True)
    assert doomed["switch 2"] < plain["switch 2"] - 0.01
    assert doomed["move scald"] == plain["move scald"]


def _snorlax_hp_after_gunk_shot(worker: SimWorker, greninja_volatiles: dict) -> float:
    """Our Protean Greninja's Gunk Shot into a slower Snorlax (Curse): the Snorlax's HP after."""
    greninja = {"species": "Greninja", "moves": ["gunkshot", "icebeam"], "ability": "protean"}
    spec = _doomed_spec({**greninja, "volatiles": greninja_volatiles})
    spec["sides"]["p2"]["pokemon"][0] = {"species": "Snorlax", "level": 80, "moves": ["curse"]}
    world = _one_world(worker, spec, ["move curse"], ["move gunkshot"], leaves=True)
    assert world["complete"]
    return world["leaves"][0][0]["t"]["hp"][0]


def test_a_protean_holder_whose_type_changed_has_spent_it(worker: SimWorker) -> None:
    # Gen 9's Protean changes its holder's type once an entry: a Greninja turned Ice by its Ice
    # Beam gets no STAB on Gunk Shot. The search built it at its species' types with Protean
    # unspent, so its Gunk Shot turned it Poison and hit half as hard again as it could.
    fresh = 1 - _snorlax_hp_after_gunk_shot(worker, {})
    spent = 1 - _snorlax_hp_after_gunk_shot(worker, {"typechange": {"types": ["Ice"]}})
    assert 0 < spent < fresh
    assert abs(fresh / spent - 1.5) < 0.1


def _snorlax_against_garchomp(garchomp_hp: int | None = None) -> dict:
    """Our Snorlax (Body Slam) against a Garchomp that sets up, at `garchomp_hp` or full."""
    spec = _doomed_spec({"species": "Snorlax", "moves": ["bodyslam"]})
    garchomp = {"species": "Garchomp", "level": 80, "moves": ["swordsdance"]}
    if garchomp_hp is not None:
        garchomp["hp"] = garchomp_hp
    spec["sides"]["p2"]["pokemon"][0] = garchomp
    return spec


def _body_slam_on_garchomp(
    worker: SimWorker, garchomp_hp: int | None, **request
) -> tuple[float, dict]:
    """The Body Slam's one cell against the Garchomp: its value and leaf, under likely luck."""
    spec = _snorlax_against_garchomp(garchomp_hp)
    searched = _one_world(
        worker, spec, ["move swordsdance"], ["move bodyslam"], leaves=True, **request
    )
    return searched["matrix"][0][0], searched["leaves"][0][0]


def _middle_roll_damage(worker: SimWorker) -> int:
    """The Body Slam's damage at the middle roll: a Garchomp at this HP falls on about half."""
    _, leaf = _body_slam_on_garchomp(worker, None)
    built = worker.request("build", spec=_snorlax_against_garchomp())["state"]
    maxhp = built["sides"]["p2"]["pokemon"][0]["maxhp"]
    return round(maxhp * (1 - leaf["t"]["hp"][0]))


def test_roll_coin_plays_a_knock_out_on_some_rolls_both_ways(worker: SimWorker) -> None:
    # Without the coin the middle roll takes the KO on about half the rolls as sure.
    middle = _middle_roll_damage(worker)
    _, plain = _body_slam_on_garchomp(worker, middle, roll_coin=False)
    _, coin = _body_slam_on_garchomp(worker, middle, roll_coin=True)
    assert plain["t"]["hp"][0] == 0 and "mix" not in plain
    assert coin["t"]["hp"][0] == 0 and 0.3 < coin["mix"]["p"] < 0.7
    assert coin["mix"]["other"]["t"]["hp"][0] > 0  # the rolls that leave it standing
    _, sure = _body_slam_on_garchomp(worker, middle // 2, roll_coin=True)
    assert "mix" not in sure  # every roll knocks it out: no coin


def test_win_curve_values_a_sure_outcome_on_the_curve_and_a_coin_below_it(
    worker: SimWorker,
) -> None:
    # With the roll coin, the half-the-rolls KO mixes two outcomes, both ahead: on the concave
    # curve the mix is worth less than the curve at its mean score; a sure KO is worth exactly
    # the curve at its score.
    k = 6.0

    def curve(score: float) -> float:
        return (2 / k) * math.tanh(k * score / 2)

    middle = _middle_roll_damage(worker)
    sure, sure_leaf = _body_slam_on_garchomp(worker, middle // 2, roll_coin=True)
    assert "mix" not in sure_leaf and sure > 0
    curved, _ = _body_slam_on_garchomp(worker, middle // 2, roll_coin=True, win_curve=k)
    assert curved == pytest.approx(curve(sure))
    mean, coin_leaf = _body_slam_on_garchomp(worker, middle, roll_coin=True)
    assert 0.3 < coin_leaf["mix"]["p"] < 0.7 and mean > 0
    curved, _ = _body_slam_on_garchomp(worker, middle, roll_coin=True, win_curve=k)
    assert curved < curve(mean) - 1e-4


def _model_mix(worker: SimWorker, **request) -> dict[str, float]:
    """The search's model of the enemy's choice in the recorded battle: choice -> share."""
    return _model_mix_of(worker, _spec(), **request)


def _model_mix_of(worker: SimWorker, spec: dict, **request) -> dict[str, float]:
    answer = worker.request(
        "search",
        worlds=[{"spec": spec, "weight": 1.0}],
        samples=1,
        deadline_ms=5000,
        seed=1,
        **request,
    )
    (world,) = answer["worlds"]
    return dict(zip(world["theirs"], world["model_mix"], strict=True))


def test_the_max_power_model_plays_the_enemys_highest_base_power_move(worker: SimWorker) -> None:
    def mix(model: str | None) -> dict[str, float]:
        return _model_mix(worker, enemy_model=model)

    moves = [to_id(m) for m in json.loads(LOG.read_text())["p2team"][0]["moves"]]
    top = max(moves, key=base_power)
    power = mix("power")
    assert power[f"move {top}"] == pytest.approx(1.0)
    assert not any(p for c, p in power.items() if c.startswith("switch"))  # it never switches
    damage_minded = mix(None)
    assert sum(p for c, p in damage_minded.items() if c.startswith("switch")) > 0


def test_the_move_the_enemy_repeats_takes_its_share_of_the_mix(worker: SimWorker) -> None:
    def mix(repeat: dict | None) -> dict[str, float]:
        return _model_mix(worker, enemy_repeat=repeat)

    plain = mix(None)
    weakest = min((c for c in plain if c.startswith("move ")), key=plain.__getitem__)
    repeated = mix({"move": weakest.split()[1], "share": 0.7})
    assert repeated[weakest] == pytest.approx(0.7 + 0.3 * plain[weakest])
    assert sum(repeated.values()) == pytest.approx(1.0)
    assert mix({"move": "notamove", "share": 0.7}) == plain  # a move it cannot click: no change


def _heuristic_situation(spec: dict) -> Situation:
    """The board of the spec's actives as the inference's replay of SimpleHeuristicsPlayer reads it
    (the enemy, p2, choosing against our p1)."""
    own, foe = spec["sides"]["p2"]["pokemon"], spec["sides"]["p1"]["pokemon"]
    return Situation(
        own_species=own[0]["species"],
        own_types=species_types(own[0]["species"]),
        own_boosts=tuple(own[0].get("boosts", {}).items()),
        foe_species=foe[0]["species"],
        foe_types=species_types(foe[0]["species"]),
        foe_boosts=tuple(foe[0].get("boosts", {}).items()),
        foe_hazards=frozenset(spec["sides"]["p1"].get("conditions", {})),
        own_side_any=bool(spec["sides"]["p2"].get("conditions")),
        own_alive=6,
        foe_alive=6,
    )


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"p1__0__species": "Registeel"},
        {"p1__0__species": "Blissey", "p1__0__boosts": {"spd": -2}},
        {"p2__0__boosts": {"atk": 2}, "p1__0__species": "Snorlax"},
        {"p2__0__species": "Garchomp", "p2__0__moves": ["earthquake", "dragonclaw", "stoneedge"]},
        {"p2__0__moves": ["hypervoice", "stealthrock", "poltergeist"]},  # a hazard first
    ],
)
def test_the_heuristic_model_clicks_the_move_the_inference_replays(
    worker: SimWorker, changes: dict
) -> None:
    spec = _spec(**changes)
    mix = _model_mix_of(worker, spec, enemy_model="heuristic")
    clicked = {c.split()[1] for c, p in mix.items() if p > 0}
    moves = tuple(spec["sides"]["p2"]["pokemon"][0]["moves"])
    assert clicked == heuristic_picks(moves, _heuristic_situation(spec))
    assert sum(mix.values()) == pytest.approx(1.0)


def test_the_heuristic_model_switches_a_badly_unboosted_active_to_its_best_matchup(
    worker: SimWorker,
) -> None:
    # Zoroark-Hisui at -3 Defence: its bench holds a better-than-even matchup into Gardevoir
    # (Calyrex-Shadow's Ghost type hits Psychic), so it switches out; unboosted, it stays in.
    spec = _spec(p2__0__boosts={"def": -3})
    mix = _model_mix_of(worker, spec, enemy_model="heuristic")
    (choice,) = [c for c, p in mix.items() if p > 0]
    assert choice == "switch 2"  # Calyrex-Shadow, second in the team: the best matchup
    calm = _model_mix_of(worker, _spec(), enemy_model="heuristic")
    assert not any(p for c, p in calm.items() if c.startswith("switch"))


def test_script_only_plays_the_scripts_replies_alone(worker: SimWorker) -> None:
    def world(script_only: bool) -> dict:
        answer = worker.request(
            "search",
            worlds=[{"spec": _spec(), "weight": 1.0}],
            samples=1,
            deadline_ms=5000,
            seed=1,
            enemy_model="heuristic",
            script_only=script_only,
        )
        return answer["worlds"][0]

    full, only = world(False), world(True)
    played = {b for row in only["matrix"] for b, v in enumerate(row) if v is not None}
    assert played == {b for b, p in enumerate(only["model_mix"]) if p > 0}
    assert len(played) < len(only["theirs"])
    assert only["model"] == pytest.approx(full["model"])  # the same values, fewer turns


def _moonblast_leaf(worker: SimWorker, spec: dict, model: str | None, **request) -> dict:
    """Where our Moonblast against the enemy's Hyper Voice led, with the enemy played as `model`."""
    answer = worker.request(
        "search",
        worlds=[{"spec": spec, "weight": 1.0}],
        ours=["move moonblast"],
        samples=1,
        deadline_ms=5000,
        seed=1,
        leaves=True,
        enemy_model=model,
        **request,
    )
    (world,) = answer["worlds"]
    return world["leaves"][0][world["theirs"].index("move hypervoice")]


def test_a_scripted_enemy_plays_its_script_in_the_turns_after(worker: SimWorker) -> None:
    # After the searched turn's Hyper Voice into Blissey, the heuristic lays Stealth Rock (our
    # side has 3 or more standing and no rocks) where a greedy rollout would attack again.
    spec = _spec(
        p1__0__species="Blissey", p2__0__moves=["hypervoice", "stealthrock", "poltergeist"]
    )

    def leaf(model: str | None) -> dict:
        return _moonblast_leaf(worker, spec, model, rollout_turns=1)

    scripted, greedy = leaf("heuristic"), leaf(None)
    assert scripted["x"] < greedy["x"]  # rocks on our side cost our bench
    assert scripted["o"]["hp"][0] > greedy["o"]["hp"][0]  # and one Hyper Voice, not two


def test_the_heuristics_forced_switch_is_its_best_matchup(worker: SimWorker) -> None:
    # Our Registeel knocks out a 1-HP Zoroark-Hisui: the heuristic sends Kommo-o (Fighting hits
    # Steel, faster), where the search's own switcher takes the first healthy Steel resist.
    spec = _spec(p1__0__species="Registeel", p2__0__hp=1)
    kommo_o = next(
        i for i, p in enumerate(spec["sides"]["p2"]["pokemon"]) if p["species"] == "Kommo-o"
    )

    def enemy_after(model: str | None) -> int:
        return _moonblast_leaf(worker, spec, model)["t"]["active"]

    assert enemy_after("heuristic") == kommo_o
    assert enemy_after(None) != kommo_o


def test_a_turn_deeper_a_set_up_move_is_worth_the_hit_it_makes(worker: SimWorker) -> None:
    # Our Snorlax can Swords Dance or Body Slam a Blissey whose script clicks Seismic Toss: one
    # turn sees the dance's boosts, two see the boosted Body Slam after it.
    spec = _doomed_spec({"species": "Snorlax", "moves": ["swordsdance", "bodyslam"]})
    spec["sides"]["p2"]["pokemon"].reverse()  # the Blissey in front

    def row_values(reply_ply: bool) -> dict[str, float]:
        answer = worker.request(
            "search",
            worlds=[{"spec": spec, "weight": 1.0}],
            ours=["move swordsdance", "move bodyslam"],
            samples=1,
            deadline_ms=5000,
            seed=1,
            luck="likely",
            enemy_model="heuristic",
            script_only=True,
            reply_ply=reply_ply,
        )
        (world,) = answer["worlds"]
        assert world["complete"]
        return {
            ours: max(v for v in row if v is not None)
            for ours, row in zip(world["ours"], world["matrix"], strict=True)
        }

    one, two = row_values(False), row_values(True)
    assert (
        two["move swordsdance"] - two["move bodyslam"]
        > one["move swordsdance"] - one["move bodyslam"]
    )
