"""The matchup engine on hand-built states (Python damage estimate: no Node needed)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from randbot.bot.damage import DamageOracle
from randbot.bot.field import FieldState
from randbot.bot.matchup import MatchupEngine, hazard_fraction
from randbot.bot.mon import Mon, species_mon
from randbot.bot.pydamage import estimate


def mon(
    species: str,
    level: int,
    moves: tuple[str, ...],
    item: str = "",
    ability: str = "",
    hp: float = 1.0,
) -> Mon:
    return species_mon(species, level, moves, item, ability, hp_fraction=hp)


def engine() -> MatchupEngine:
    return MatchupEngine(DamageOracle(None), FieldState())


GARCHOMP = mon(
    "garchomp", 77, ("earthquake", "outrage", "stoneedge", "swordsdance"), "lifeorb", "roughskin"
)
HEATRAN = mon(
    "heatran",
    80,
    ("magmastorm", "earthpower", "flashcannon", "stealthrock"),
    "leftovers",
    "flashfire",
)


def test_super_effective_attacker_wins_and_picks_its_best_move():
    e = engine()
    duel = e.duel(GARCHOMP, HEATRAN)
    assert duel.a_wins
    assert duel.first_action in ("earthquake", "swordsdance")
    assert duel.ttk_ab <= 2
    assert not e.duel(HEATRAN, GARCHOMP).a_wins


def test_immunity_gives_zero_damage():
    gengar = mon("gengar", 80, ("shadowball",))
    snorlax = mon("snorlax", 80, ("bodyslam",))
    assert estimate(gengar, snorlax, "shadowball", FieldState(), True) == (0, 0, 0.0)
    assert estimate(snorlax, gengar, "bodyslam", FieldState(), True) == (0, 0, 0.0)


def test_every_check_is_a_counter_and_an_extra_hit_can_break_a_counter():
    e = engine()
    seen_counter_not_check = False
    for hp in [x / 20 for x in range(1, 21)]:
        ours = mon("garchomp", 77, GARCHOMP.moves, "lifeorb", "roughskin", hp=hp)
        builds = [(HEATRAN, 1.0)]
        check, counter = e.is_check(ours, builds), e.is_counter(ours, builds)
        assert not check or counter
        seen_counter_not_check |= counter and not check
    assert seen_counter_not_check


def test_priority_finishes_a_faster_low_enemy():
    e = engine()
    scizor = mon("scizor", 80, ("bulletpunch", "closecombat"), "choiceband", "technician")
    weak = mon("dragapult", 76, ("dragondarts", "shadowball"), hp=0.1)
    duel = e.duel(scizor, weak, first=None)
    assert duel.a_wins and duel.first_action == "bulletpunch"


def test_setup_plan_is_simulated():
    e = engine()
    dnite = mon(
        "dragonite",
        74,
        ("dragondance", "outrage", "earthquake", "extremespeed"),
        "heavydutyboots",
        "multiscale",
    )
    blissey = mon(
        "blissey", 85, ("seismictoss", "softboiled", "thunderwave"), "heavydutyboots", "naturalcure"
    )
    plain, setup = e.duel(dnite, blissey, plans=(0,)), e.duel(dnite, blissey, plans=(1,))
    assert setup.first_action == "dragondance" and setup.plan == "setup1"
    assert setup.ttk_ab < plain.ttk_ab  # the boost is simulated: fewer hits needed after it
    assert setup.a_wins
    assert setup.a_raised == (("atk", 1), ("spe", 1))  # it goes on at the stages it set up to
    assert plain.a_raised == () and setup.b_raised == ()


def test_stealth_rock_hurts_charizard_a_quarter():
    zard = mon("charizard", 85, ("flamethrower",), "leftovers", "blaze")
    field = FieldState(ours=FieldState().ours.__class__(stealth_rock=True))
    assert abs(hazard_fraction(zard, field, ours=True) - 0.5) < 1e-9
    boots = mon("charizard", 85, ("flamethrower",), "heavydutyboots", "blaze")
    assert hazard_fraction(boots, field, ours=True) == 0.0


def test_chance_mode_counts_a_lethal_inaccurate_hit_as_a_chance_not_as_less_damage():
    # A low Hydrapple facing Noctowl's Hurricane (70%): expected damage says it survives the hit
    # and may set up; in chance mode it is KO'd in 70% of worlds on the first hit.
    hydrapple = mon("hydrapple", 83, ("nastyplot", "earthpower", "ficklebeam"), hp=0.09)
    noctowl = mon("noctowl", 95, ("hurricane",), "heavydutyboots", hp=0.32)
    plain = engine().duel(hydrapple, noctowl)
    chance = MatchupEngine(DamageOracle(None), FieldState(), chance=True).duel(hydrapple, noctowl)
    assert plain.p_a == (1.0 if plain.a_wins else 0.0)
    assert 0.0 < chance.p < 0.5  # it loses most worlds, but not all: Hurricane can miss
    assert chance.first_action != "nastyplot"


def test_chance_mode_keeps_certain_duels_certain():
    e = MatchupEngine(DamageOracle(None), FieldState(), chance=True)
    duel = e.duel(GARCHOMP, HEATRAN)
    assert duel.a_wins and duel.p > 0.95


@pytest.mark.parametrize("gengar_hp", [0.72, 0.79])
def test_roll_chance_counts_the_rolls_that_ko(gengar_hp):
    # A 10% Dragapult outspeeds Gengar; its Shadow Ball rolls 0.70-0.82 of Gengar's HP and Gengar's
    # reply KOs it. Only the share of rolls above Gengar's HP wins, whichever side the mean falls.
    pult = mon("dragapult", 76, ("dragondarts", "shadowball"), hp=0.1)
    gengar = mon("gengar", 80, ("shadowball", "sludgebomb"), hp=gengar_hp)
    e = MatchupEngine(DamageOracle(None), FieldState(), chance=True, roll_chance=True)
    ball = next(o for o in e.options(pult, gengar, True) if o.move == "shadowball")
    hp = gengar.hp_fraction  # whole HP points: close to `gengar_hp`
    assert ball.low < hp < ball.high
    by_mean = MatchupEngine(DamageOracle(None), FieldState(), chance=True).duel(pult, gengar)
    by_rolls = e.duel(pult, gengar)
    assert by_mean.p == (1.0 if ball.mean >= hp else 0.0)
    assert by_rolls.p == pytest.approx((ball.high - hp) / (ball.high - ball.low))


BANDED_GARCHOMP = mon(
    "garchomp", 77, ("earthquake", "outrage", "stoneedge", "fireblast"), "choiceband", "roughskin"
)


def test_a_choice_locked_enemy_only_has_its_locked_move():
    e = engine()
    assert not e.duel(HEATRAN, BANDED_GARCHOMP).a_wins  # free, it picks Earthquake
    assert e.duel(HEATRAN, BANDED_GARCHOMP.locked_to("outrage")).a_wins  # resisted Outrage only
    # Locked into a status move, it cannot hurt us at all.
    rotom = mon("rotomwash", 80, ("trick", "hydropump", "voltswitch"), "choicescarf", "levitate")
    locked = e.duel(HEATRAN, rotom.locked_to("trick"))
    assert locked.a_wins and locked.a_hp == 1.0
    assert not e.duel(HEATRAN, rotom).a_wins


def test_our_choice_item_holds_the_plan_to_its_first_move():
    e = engine()
    life_orb = mon("garchomp", 77, BANDED_GARCHOMP.moves, "lifeorb", "roughskin")
    # With Life Orb, Outrage now then Earthquake wins; with a band it is Outrage all the way.
    assert e.duel(life_orb, HEATRAN, first="outrage").a_wins
    assert not e.duel(BANDED_GARCHOMP, HEATRAN, first="outrage").a_wins


def test_only_a_choice_item_locks_and_switching_out_frees():
    assert HEATRAN.locked_to("magmastorm").locked is None  # Leftovers: no lock
    locked = BANDED_GARCHOMP.locked_to("outrage")
    assert locked.locked == "outrage"
    assert locked.fresh().locked is None
    assert BANDED_GARCHOMP.locked_to("tackle").locked is None  # not one of its moves


def test_knock_off_removes_the_item_and_what_it_did_to_the_damage():
    from randbot.bot.matchup import _Side

    e = engine()
    weavile = mon("weavile", 79, ("knockoff", "tripleaxel", "iceshard"), "heavydutyboots")
    dusclops = mon("dusclops", 90, ("shadowball", "icebeam", "painsplit"), "eviolite", "frisk")
    ours = _Side(weavile, True, 1.0, e.options(weavile, dusclops, True))
    theirs = _Side(dusclops, False, 1.0, e.options(dusclops, weavile, False))
    before = {o.move: o.mean for o in ours.options}
    e._act(ours, ("knockoff", ours.options[0]), theirs, False, True)
    after = {o.move: o.mean for o in ours.options}
    assert theirs.mon.item == ""
    assert after["tripleaxel"] > 1.3 * before["tripleaxel"]  # no more Eviolite
    # Arceus keeps its plate.
    arceus = mon("arceusfire", 71, ("judgment",), "flameplate", "multitype")
    plated = _Side(arceus, False, 1.0, e.options(arceus, weavile, False))
    e._act(ours, ("knockoff", ours.options[0]), plated, False, True)
    assert plated.mon.item == "flameplate"


def test_rest_heals_fully_then_sleeps_two_turns_unless_a_berry_wakes_it():
    from randbot.bot.matchup import _Side

    e = engine()
    for item, asleep, item_after in (("leftovers", 2, "leftovers"), ("chestoberry", 0, "")):
        registeel = mon("registeel", 81, ("ironhead", "rest"), item, "clearbody", hp=0.35)
        side = _Side(registeel, True, 0.35, e.options(registeel, HEATRAN, True))
        foe = _Side(HEATRAN, False, 1.0, e.options(HEATRAN, registeel, False))
        e._act(side, ("rest", None), foe, False, True)
        assert side.hp == 1.0 and side.asleep == asleep and side.mon.item == item_after
    # At full HP Rest fails.
    full = _Side(GARCHOMP, True, 1.0, [])
    e._act(full, ("rest", None), foe, False, True)
    assert full.asleep == 0


def test_rest_is_played_only_when_it_raises_the_chance_to_win():
    from randbot.bot.matchup import Aggregate
    from randbot.bot.tactics import MoveEval, _without_idle_rest

    def ev(move: str, p_win: float, a_hp: float) -> MoveEval:
        return MoveEval(move, False, Aggregate(p_win, a_hp, 0.0, 1, 3, move, "attack", 0.0))

    ko_now, rest = ev("ironhead", 1.0, 0.12), ev("rest", 1.0, 0.32)
    assert _without_idle_rest([ko_now, rest]) == [ko_now]
    losing, saving_rest = ev("ironhead", 0.2, 0.0), ev("rest", 0.9, 0.5)
    assert _without_idle_rest([losing, saving_rest]) == [losing, saving_rest]


def _hit_effects_engine() -> MatchupEngine:
    return MatchupEngine(DamageOracle(None), FieldState(), hit_boosts=True, status_orbs=True)


def test_a_hits_sure_stat_changes_land_on_user_and_target_unless_blocked():
    from randbot.bot.matchup import _Side

    e = _hit_effects_engine()
    lokix = mon("lokix", 80, ("lunge", "trailblaze"), "choiceband", "tintedlens")
    slowbro = mon("slowbro", 85, ("scald",), "leftovers", "regenerator")
    user = _Side(lokix, True, 1.0, e.options(lokix, slowbro, True))
    target = _Side(slowbro, False, 1.0, e.options(slowbro, lokix, False))
    for move in ("lunge", "trailblaze"):
        e._act(user, (move, next(o for o in user.options if o.move == move)), target, False, True)
    assert (target.atk, user.spe) == (-1, 1)
    # Clear Body keeps the drop off; Defiant answers it with +2 Attack.
    for ability, atk in (("clearbody", 0), ("defiant", 1)):
        foe = mon("kingambit", 80, ("kowtowcleave",), "leftovers", ability)
        side = _Side(foe, False, 1.0, e.options(foe, lokix, False))
        lunge = next(o for o in e.options(lokix, foe, True) if o.move == "lunge")
        e._act(user, ("lunge", lunge), side, False, True)
        assert side.atk == atk
    # Without the setting the duel model ignores them, as before.
    plain = engine().options(lokix, slowbro, True)
    assert all(o.target_boosts == () and o.self_boosts == () for o in plain)


def test_sheer_force_drops_the_sure_secondaries_it_powers_up():
    e = _hit_effects_engine()
    nidoking = mon("nidoking", 82, ("icywind",), "lifeorb", "sheerforce")
    target = mon("slowbro", 85, ("scald",), "leftovers", "regenerator")
    (icy_wind,) = e.options(nidoking, target, True)
    assert icy_wind.target_boosts == ()


def test_a_guts_flame_orb_holder_hits_harder_from_its_second_turn():
    from randbot.bot.matchup import _Side

    e = _hit_effects_engine()
    ursaluna = mon("ursaluna", 78, ("facade", "crunch"), "flameorb", "guts")
    corviknight = mon("corviknight", 80, ("bravebird",), "leftovers", "pressure")
    bear = _Side(ursaluna, False, 1.0, e.options(ursaluna, corviknight, False))
    bird = _Side(corviknight, True, 1.0, e.options(corviknight, ursaluna, True))
    before = {o.move: o.mean for o in bear.options}
    e._activate_orb(bear, bird)
    after = {o.move: o.mean for o in bear.options}
    assert bear.mon.status == "brn"
    assert after["crunch"] > 1.4 * before["crunch"]  # Guts: x1.5, no burn halving
    assert after["facade"] > 2.8 * before["facade"]  # and Facade doubles
    # A Poison type's Toxic Orb does nothing; the whole duel sees the boost (and the burn's chip).
    gengar = mon("gengar", 80, ("shadowball",), "toxicorb", "cursedbody")
    ghost = _Side(gengar, True, 1.0, e.options(gengar, corviknight, True))
    e._activate_orb(ghost, bird)
    assert ghost.mon.status is None
    corviknight = mon("corviknight", 80, ("bravebird", "bodypress"), "leftovers", "pressure")
    seen, unseen = e.duel(corviknight, ursaluna), engine().duel(corviknight, ursaluna)
    assert seen.a_hp < unseen.a_hp - 0.03 and seen.ttk_ba < unseen.ttk_ba


def test_switching_in_onto_sticky_web_costs_a_grounded_pokemon_a_speed_stage():
    side = FieldState().ours.__class__(sticky_web=True)
    webbed = MatchupEngine(DamageOracle(None), FieldState(ours=side), sticky_web=True)
    scarfed = mon("gothitelle", 88, ("psychic",), "choicescarf", "shadowtag")
    assert webbed.entering(scarfed).boost("spe") == -1
    # Flying types, boots, Clear Body and the enemy's side stay untouched; Contrary gains.
    for untouched in (
        mon("corviknight", 80, ("bravebird",), "leftovers", "pressure"),
        mon("gothitelle", 88, ("psychic",), "heavydutyboots", "shadowtag"),
        mon("metagross", 80, ("meteormash",), "leftovers", "clearbody"),
    ):
        assert webbed.entering(untouched).boost("spe") == 0
    assert webbed.entering(scarfed, ours=False).boost("spe") == 0
    assert webbed.entering(mon("serperior", 80, ("leafstorm",), "", "contrary")).boost("spe") == 1
    leavanny = mon("leavanny", 88, ("lunge",), "focussash", "swarm", hp=0.11)
    slowed = webbed.duel(webbed.entering(scarfed), leavanny)
    assert not slowed.a_first and engine().duel(scarfed, leavanny).a_first


def test_before_gen_4_a_moves_type_decides_whether_it_is_physical():
    tyranitar = mon("tyranitar", 80, ("crunch", "rockslide"), "leftovers", "sandstream")
    physical = {
        gen: {o.move: o.physical for o in MatchupEngine(DamageOracle(None), FieldState(), gen=gen)
              .options(tyranitar, HEATRAN, True)}
        for gen in (3, 9)
    }  # fmt: skip
    assert physical[9] == {"crunch": True, "rockslide": True}
    assert physical[3] == {"crunch": False, "rockslide": True}  # Dark was special


def _status_engine(**kwargs) -> MatchupEngine:
    return MatchupEngine(DamageOracle(None), FieldState(), status_moves=True, **kwargs)


BRELOOM = mon("breloom", 84, ("spore", "bulletseed", "machpunch", "rocktomb"), "", "technician")
ZANGOOSE = mon("zangoose", 86, ("facade", "closecombat", "nightslash", "swordsdance"), "", "")


def test_a_sleep_move_stops_the_targets_next_turns_in_the_duel():
    """Off, Spore is a lost turn; on, the target sleeps two turns and Breloom ends with more HP."""
    off = engine().duel(BRELOOM, ZANGOOSE, first="spore")
    on = _status_engine().duel(BRELOOM, ZANGOOSE, first="spore")
    assert on.first_action == "spore"
    assert (on.p_a, on.a_hp) > (off.p_a, off.a_hp)


def test_no_sleep_under_sleep_clause_nor_on_a_grass_type_nor_through_a_lum_berry():
    """Each of these leaves Spore the lost turn it is with the setting off."""
    off = engine().duel(BRELOOM, ZANGOOSE, first="spore")
    assert _status_engine(sleep_blocked=True).duel(BRELOOM, ZANGOOSE, first="spore") == off
    lum = mon("zangoose", 86, ZANGOOSE.moves, "lumberry", "")
    assert _status_engine().duel(BRELOOM, lum, first="spore") == engine().duel(
        BRELOOM, lum, first="spore"
    )
    grass = mon("meowscarada", 78, ("flowertrick", "knockoff", "uturn", "tripleaxel"), "", "")
    assert _status_engine().duel(BRELOOM, grass, first="spore") == engine().duel(
        BRELOOM, grass, first="spore"
    )


def test_a_burn_halves_the_physical_attackers_damage_for_the_rest_of_the_duel():
    """Will-O-Wisp on a physical attacker: Sableye lasts longer and leaves Lucario lower than
    after a lost turn; a Guts holder burned hits harder, so Sableye keeps no more HP."""
    sableye = mon("sableye", 95, ("willowisp", "knockoff", "recover", "encore"), "", "prankster")
    lucario = mon("lucario", 86, ("closecombat", "meteormash", "extremespeed", "swordsdance"))
    off = engine().duel(sableye, lucario, first="willowisp")
    on = _status_engine().duel(sableye, lucario, first="willowisp")
    assert on.turns > off.turns and on.b_hp < off.b_hp
    guts = mon("ursaring", 90, ("facade", "closecombat", "crunch", "swordsdance"), "", "guts")
    burned_guts = _status_engine().duel(sableye, guts, first="willowisp")
    assert burned_guts.a_hp <= engine().duel(sableye, guts, first="willowisp").a_hp


def test_triage_gives_a_draining_move_priority():
    """Comfey's Draining Kiss moves first against a faster Pokémon; the same move without Triage
    does not."""
    foe = mon("weavile", 80, ("tripleaxel", "knockoff", "iceshard", "swordsdance"))
    comfey = mon("comfey", 89, ("drainingkiss", "gigadrain", "calmmind", "uturn"), "", "triage")
    plain = mon("comfey", 89, comfey.moves, "", "naturalcure")
    options = {o.move: o for o in engine().options(comfey, foe, True)}
    assert options["drainingkiss"].priority == 3 and options["gigadrain"].priority == 3
    assert {o.priority for o in engine().options(plain, foe, True)} == {0}


def test_leech_seed_strength_sap_and_pain_split_move_hp_between_the_sides():
    """Each is a lost turn with the setting off; on, the user ends the duel better off."""
    ferrothorn = mon(
        "ferrothorn", 84, ("leechseed", "powerwhip", "gyroball", "spikes"), "leftovers", ""
    )
    tyranitar = mon("tyranitar", 79, ("stoneedge", "crunch", "earthquake", "firepunch"))
    for attacker, foe, move in (
        (ferrothorn, tyranitar, "leechseed"),
        (
            mon("amoonguss", 88, ("strengthsap", "gigadrain", "sludgebomb", "spore")),
            ZANGOOSE,
            "strengthsap",
        ),
        (
            mon("mismagius", 88, ("painsplit", "shadowball", "mysticalfire", "nastyplot"), hp=0.3),
            ZANGOOSE,
            "painsplit",
        ),
    ):
        off = engine().duel(attacker, foe, first=move)
        on = _status_engine().duel(attacker, foe, first=move)
        assert (on.p_a, on.a_hp, -on.b_hp) > (off.p_a, off.a_hp, -off.b_hp), move


OOZE_DRAINERS = [
    (
        mon("ferrothorn", 84, ("leechseed", "powerwhip", "gyroball"), "leftovers", hp=0.7),
        "leechseed",
    ),
    (mon("sinistcha", 86, ("strengthsap", "matchagotcha", "shadowball"), hp=0.7), "strengthsap"),
    (mon("ceruledge", 84, ("bitterblade", "shadowsneak", "poltergeist")), "bitterblade"),
]


@pytest.mark.parametrize(("user", "move"), OOZE_DRAINERS)
def test_draining_a_liquid_ooze_holder_hurts_the_drainer(user, move):
    """A Swalot that loses its Liquid Ooze is drained as any target; with it, what the drainer
    would have gained is lost (Sinistcha's Strength Sap into Swalot's ooze, battle 44, seed 11)."""
    duels = {}
    for ability in ("liquidooze", "stickyhold"):
        swalot = mon("swalot", 90, ("sludgebomb", "earthquake", "icebeam", "encore"), "", ability)
        duels[ability] = _status_engine().duel(user, swalot, first=move, plans=(0,))
    ooze, plain = duels["liquidooze"], duels["stickyhold"]
    assert (ooze.p_a, ooze.a_hp, -ooze.b_hp) < (plain.p_a, plain.a_hp, -plain.b_hp)


def test_double_shock_works_once_and_not_after_tera_takes_the_electric_type():
    """Double Shock takes Pawmot's Electric type: a second one fails (battle 46, seed 11, where
    Pawmot used it again and Annihilape KOed it). Two would KO Dondozo; one and a Close Combat
    do not, and Dondozo wins. Terastallized into Fighting, Pawmot has no Double Shock at all."""
    e = engine()
    pawmot = mon("pawmot", 85, ("doubleshock", "closecombat", "icepunch"), "", "voltabsorb")
    dondozo = mon("dondozo", 85, ("waterfall", "rest"))
    hits = {o.move: o.mean for o in e.options(pawmot, dondozo, True)}
    assert 2 * hits["doubleshock"] >= 1.0 > hits["doubleshock"] + hits["closecombat"]
    assert not e.duel(pawmot, dondozo, plans=(0,)).a_wins
    fighting = replace(pawmot, tera_type="FIGHTING", terastallized=True)
    assert "doubleshock" not in {o.move for o in e.options(fighting, dondozo, True)}


def test_strength_sap_into_defiant_raises_the_foes_attack():
    """Each Strength Sap lowers Annihilape's Attack a stage and Defiant raises it two (battle 415,
    seed 11: six saps took it to +6): the sap that wins against Vital Spirit loses against it."""
    sinistcha = mon("sinistcha", 86, ("strengthsap", "matchagotcha", "shadowball", "calmmind"))
    moves = ("bulkup", "drainpunch", "gunkshot", "ragefist")
    saps = {}
    for ability in ("defiant", "vitalspirit"):
        annihilape = mon("annihilape", 76, moves, "leftovers", ability)
        saps[ability] = _status_engine().duel(sinistcha, annihilape, first="strengthsap")
    assert saps["vitalspirit"].a_wins and not saps["defiant"].a_wins


def test_avalanche_doubles_after_the_targets_hit():
    """Avalanche moves last and doubles once the target has hit its user that turn (battle 4,
    seed 11, where the plan priced Avalugg's at half): two KO a Gyarados that attacks, three one
    that only sets up."""
    e = engine()
    avalugg = mon("avalugg", 88, ("avalanche", "bodypress", "recover"), "heavydutyboots", "sturdy")
    hitter = mon("gyarados", 79, ("waterfall", "earthquake"), "heavydutyboots", "intimidate")
    dancer = mon("gyarados", 79, ("dragondance",), "heavydutyboots", "intimidate")
    avalanche = next(o for o in e.options(avalugg, hitter, True) if o.move == "avalanche")
    assert 2 * avalanche.mean < 1.0 <= 4 * avalanche.mean
    assert e.duel(avalugg, hitter, plans=(0,)).turns == 2
    assert e.duel(avalugg, dancer, plans=(0,)).turns == 3


def test_asleep_only_sleep_talk_acts():
    """A sleeping Dondozo's Wave Crash does nothing (battle 475, seed 11: it chose Wave Crash over
    Sleep Talk and lost the turn); the duel played the forced first move as if it were awake.
    Sleep Talk calls one of its other moves: it hits this turn."""
    e = engine()
    moves = ("wavecrash", "rest", "sleeptalk", "curse")
    awake = mon("dondozo", 84, moves, "heavydutyboots", "unaware")
    asleep = replace(awake, status="slp")
    charizard = mon(
        "charizard", 85, ("flamethrower", "airslash"), "heavydutyboots", "blaze", hp=0.3
    )
    assert e.duel(awake, charizard, first="wavecrash").turns == 1
    crash = e.duel(asleep, charizard, first="wavecrash")
    talk = e.duel(asleep, charizard, first="sleeptalk")
    assert crash.turns > 1 and talk.turns == 1 and talk.a_hp > crash.a_hp


def test_salt_cure_salts_the_target_each_end_of_turn():
    """Salt Cure does 15% to Vaporeon, and its salt a quarter more each end of turn (Water):
    three turns, where the hit alone needs seven (battle 418, seed 11: Roost could not keep up)."""
    e = engine()
    garganacl = mon("garganacl", 81, ("saltcure",), "leftovers", "purifyingsalt")
    vaporeon = mon("vaporeon", 85, ("protect",))
    (cure,) = e.options(garganacl, vaporeon, True)
    assert cure.mean * 6 < 1.0
    assert e.duel(garganacl, vaporeon, plans=(0,)).turns == 3


@pytest.mark.parametrize("chance", [False, True])
def test_a_recoil_ko_of_the_foes_last_pokemon_wins(chance):
    """Golem's Double-Edge KOs Copperajah and its recoil KOs Golem: a lost duel while the enemy
    has others to send, a won battle when Copperajah was its last (the side that falls last wins,
    from Gen 5; battle 475, seed 11, where Golem chose a Stone Edge that missed)."""
    golem = mon("golemalola", 84, ("doubleedge", "rockslide"), "", "galvanize", hp=0.1)
    copperajah = mon("copperajah", 85, ("ironhead", "earthquake"), "leftovers", "", hp=0.25)
    for last in (False, True):
        e = MatchupEngine(DamageOracle(None), FieldState(), chance=chance, theirs_last=last)
        duel = e.duel(golem, copperajah, first="doubleedge", plans=(0,))
        assert duel.a_first and duel.a_hp == 0.0 and duel.b_hp == 0.0
        assert duel.a_wins == last


def test_multiscale_halves_only_the_first_hit():
    """Ice Shard does 41% to a full-HP Multiscale Dragonite: the next one does twice that, so two
    KO it (the duel priced every hit at the halved 41% and needed three)."""
    e = engine()
    dragonite = mon("dragonite", 74, ("dragondance",), "heavydutyboots", "multiscale")
    weavile = mon("weavile", 80, ("iceshard",), "", "pressure")
    (shard,) = e.options(weavile, dragonite, True)
    assert shard.halved_at_full and 2 * shard.mean < 1.0 <= 3 * shard.mean
    duel = e.duel(weavile, dragonite, plans=(0,))
    assert duel.a_wins and duel.turns == 2
    breaker = mon("weavile", 80, ("iceshard",), "", "moldbreaker")
    assert not e.options(breaker, dragonite, True)[0].halved_at_full


def test_curse_and_belly_drum_are_setups_and_belly_drum_costs_half_the_hp():
    """Their raises are coded in Showdown's handlers, not in the move data: the duel played them
    as lost turns. Belly Drum pays half the user's HP, and at half HP or less it fails."""
    e = engine()
    garchomp = mon("garchomp", 77, ("earthquake", "outrage", "stoneedge"), "", "roughskin")
    snorlax = mon("snorlax", 80, ("curse", "bodyslam", "rest"), "leftovers", "thickfat")
    assert e.duel(snorlax, garchomp, plans=(1,)).first_action == "curse"
    moves = ("bellydrum", "aquajet", "playrough", "knockoff")
    azumarill = mon("azumarill", 82, moves, "leftovers", "hugepower")
    drum = e.duel(azumarill, garchomp, plans=(1,))
    assert drum.first_action == "bellydrum" and drum.plan == "setup1"
    assert e.duel(azumarill, garchomp, plans=(1,), first="bellydrum").a_hp <= 0.5
    halved = mon("azumarill", 82, moves, "leftovers", "hugepower", hp=0.5)
    assert e.duel(halved, garchomp).first_action != "bellydrum"


def test_a_sitrus_berry_heals_a_quarter_once_at_half_hp():
    """Azumarill trades blows with Garchomp: the quarter its Sitrus Berry heals at half HP keeps
    it standing to land the last hit, which Leftovers does not."""
    e = engine()
    garchomp = mon("garchomp", 77, ("earthquake", "outrage", "stoneedge"), "", "roughskin")
    moves = ("bellydrum", "aquajet", "playrough", "knockoff")
    berry = e.duel(mon("azumarill", 82, moves, "sitrusberry", "hugepower"), garchomp)
    scraps = e.duel(mon("azumarill", 82, moves, "leftovers", "hugepower"), garchomp)
    assert berry.a_wins and not scraps.a_wins
    # at half HP or below it would have eaten it already: the build's berry is a stale belief
    low = mon("azumarill", 82, moves, "sitrusberry", "hugepower", hp=0.45)
    stale, none = e.duel(low, garchomp), e.duel(replace(low, item=""), garchomp)
    assert (stale.a_wins, stale.a_hp, stale.b_hp) == (none.a_wins, none.a_hp, none.b_hp)


def test_a_setup_move_ko_ed_before_it_acts_does_not_count_its_boosts_as_a_faster_ko():
    """Drifblim at 26% into a faster Life Orb Grafaiai whose Knock Off KOs it (battle 455 of the
    seed-11 run): every first move loses the same way, and a tie goes to the move whose duel KOs
    sooner. The Calm Mind duel measured that with the +1 Special Attack it had banked before it
    fainted (an Air Slash OHKO), so Calm Mind won the tie over Air Slash."""
    e = engine()
    drifblim = mon(
        "drifblim", 86, ("airslash", "calmmind", "strengthsap", "shadowball"), "", "", hp=0.26
    )
    grafaiai = mon(
        "grafaiai", 86, ("gunkshot", "knockoff", "lowkick", "swordsdance"), "lifeorb", "", hp=0.43
    )
    for chance in (False, True):
        e.chance = chance
        attack = e.duel(drifblim, grafaiai, first="airslash")
        setup = e.duel(drifblim, grafaiai, first="calmmind")
        assert not attack.a_wins and not setup.a_wins
        assert setup.ttk_ab == attack.ttk_ab == 2


def test_weak_armor_outruns_a_physical_attacker_from_its_second_turn():
    """Tauros outspeeds Armarouge and needs two hits, as Armarouge does. Its first Body Slam sets
    off Weak Armor (-1 Defense, +2 Speed): Armarouge moves first on the second turn and wins."""
    tauros = mon("tauros", 85, ("bodyslam", "closecombat"), "lifeorb")
    armarouge = mon(
        "armarouge", 82, ("armorcannon", "psyshock", "energyball"), "heavydutyboots", "weakarmor"
    )
    plain = MatchupEngine(DamageOracle(None), FieldState()).duel(tauros, armarouge, plans=(0,))
    answered = MatchupEngine(DamageOracle(None), FieldState(), hit_abilities=True).duel(
        tauros, armarouge, plans=(0,)
    )
    assert plain.a_wins and plain.ttk_ab == 2
    assert not answered.a_wins


def test_intimidate_drops_attack_unless_the_ability_blocks_or_answers_it():
    e = MatchupEngine(DamageOracle(None), FieldState(), stat_abilities=True)
    plain = mon("garchomp", 77, ("earthquake",), "", "roughskin")
    assert e.intimidated(plain).boost("atk") == -1
    assert e.intimidated(mon("metagross", 80, ("meteormash",), "", "clearbody")).boost("atk") == 0
    assert e.intimidated(replace(plain, item="clearamulet")) == replace(plain, item="clearamulet")
    defiant = e.intimidated(mon("kingambit", 77, ("kowtowcleave",), "", "defiant"))
    assert defiant.boost("atk") == 1
    competitive = e.intimidated(mon("milotic", 84, ("scald",), "", "competitive"))
    assert (competitive.boost("atk"), competitive.boost("spa")) == (-1, 2)
    assert e.intimidated(mon("serperior", 80, ("leafstorm",), "", "contrary")).boost("atk") == 1


def test_the_chance_a_hit_kos_a_switch_in_spreads_over_its_rolls_and_hits():
    """Five Technician Tail Slaps at most, four at least (Loaded Dice), 85% accurate: a Sneasler
    switching in is KOed by most hits though the expected damage (misses counted as less
    damage) leaves it standing; a Corviknight never; from a sliver of HP any hit KOs; Focus
    Sash holds from full HP."""
    e = engine()
    cinccino = mon("cinccino", 83, ("tailslap", "tripleaxel"), "loadeddice", "technician")
    sneasler = mon("sneasler", 74, ("closecombat", "direclaw"), "whiteherb", "unburden")
    corviknight = mon("corviknight", 80, ("bravebird", "roost"), "leftovers", "pressure")
    expected = e.incoming([(cinccino, 1.0)], sneasler)
    p = e.ko_chance([(cinccino, 1.0)], sneasler, 1.0)
    assert 0.5 < p < 0.85 and expected < 1.0, (p, expected)
    assert e.ko_chance([(cinccino, 1.0)], corviknight, 1.0) == 0.0
    assert e.ko_chance([(cinccino, 1.0)], sneasler, 0.05) == pytest.approx(0.85)
    sashed = replace(sneasler, item="focussash")
    assert e.ko_chance([(cinccino, 1.0)], sashed, 1.0) == 0.0
    assert e.ko_chance([(cinccino, 0.5)], sneasler, 1.0) == pytest.approx(p * 0.5)


def test_truant_loafs_every_other_turn_and_focus_punch_fails_into_an_attacker():
    slaking = mon("slaking", 84, ("doubleedge", "earthquake"), "choiceband", "truant")
    e = MatchupEngine(DamageOracle(None), FieldState(), charge_moves=True)
    assert all(o.recharge for o in e.options(slaking, HEATRAN, True))
    assert not any(o.recharge for o in e.options(GARCHOMP, HEATRAN, True))
    dusknoir = mon("dusknoir", 88, ("focuspunch", "poltergeist"), "leftovers", "frisk")
    heatran_moves = {o.move for o in e.options(dusknoir, HEATRAN, True)}
    assert heatran_moves == {"poltergeist"}  # Heatran attacks each turn: Focus Punch fails
    wall = mon("toxapex", 84, ("recover", "haze"), "blacksludge", "regenerator")
    assert {o.move for o in e.options(dusknoir, wall, True)} == {"focuspunch", "poltergeist"}


def test_an_intact_disguise_takes_the_first_hit():
    e = MatchupEngine(DamageOracle(None), FieldState(), hit_abilities=True)
    mimikyu = mon("mimikyu", 80, ("playrough", "shadowsneak"), "lifeorb", "disguise")
    busted = replace(mimikyu, species="mimikyubusted")
    weak = mon("garchomp", 77, ("earthquake",), "lifeorb", "roughskin", hp=0.3)
    # Garchomp, at 30% HP, has time for one Earthquake: it nearly KOs a busted Mimikyu and only
    # breaks the Disguise of an intact one (an eighth of its HP, and its Life Orb's tenth).
    assert e.duel(weak, busted).b_hp < 0.1
    assert e.duel(weak, mimikyu).b_hp > 0.6


def test_chance_mode_books_no_ko_through_an_intact_disguise():
    """Toxicroak's Swords Dance in front of a faster Mimikyu: a +2 Gunk Shot that lands would KO a
    busted Mimikyu, but an intact Disguise takes it whole, so that world is no win."""
    e = MatchupEngine(DamageOracle(None), FieldState(), hit_abilities=True, chance=True)
    mimikyu = mon(
        "mimikyu",
        80,
        ("playrough", "shadowsneak", "swordsdance", "shadowclaw"),
        "lifeorb",
        "disguise",
    )
    busted = replace(mimikyu, species="mimikyubusted")
    toxicroak = mon(
        "toxicroak",
        84,
        ("gunkshot", "swordsdance", "suckerpunch", "drainpunch"),
        "lifeorb",
        "dryskin",
    )
    through_busted = e.duel(toxicroak, busted, first="swordsdance").p_a
    assert through_busted > 0
    assert e.duel(toxicroak, mimikyu, first="swordsdance").p_a < through_busted


def test_a_sitrus_berry_still_held_is_hp_in_reserve_not_hp_lost():
    """Dedenne against Zekrom: Dazzling Gleam wins in two turns with the berry uneaten; a slower
    line ends with more HP only because Bolt Strike made it eat the berry (a quarter, and Cheek
    Pouch's third). The move choice counts the berry still held."""
    from randbot.bot.tactics import MoveEval

    e = MatchupEngine(DamageOracle(None), FieldState(), chance=True)
    dedenne = mon(
        "dedenne",
        88,
        ("nuzzle", "thunderbolt", "dazzlinggleam", "uturn"),
        "sitrusberry",
        "cheekpouch",
    )
    zekrom = mon("zekrom", 71, ("boltstrike", "dragondance", "outrage"), "leftovers", "teravolt")
    evals = {
        m: MoveEval(m, False, e.versus(dedenne, [(zekrom, 1.0)], first=m)) for m in dedenne.moves
    }
    assert evals["dazzlinggleam"].agg.a_kept > 0.5 and evals["uturn"].agg.a_kept == 0.0
    assert evals["uturn"].agg.a_hp > evals["dazzlinggleam"].agg.a_hp  # the berry eaten
    assert max(evals.values(), key=lambda x: x.value).move == "dazzlinggleam"


def test_blood_moon_rests_a_turn_between_uses_and_future_sight_is_no_duel_hit():
    e = engine()
    ursaluna = mon("ursalunabloodmoon", 78, ("bloodmoon", "earthpower"), "leftovers", "mindseye")
    assert all(o.no_repeat == (o.move == "bloodmoon") for o in e.options(ursaluna, HEATRAN, True))
    moves = []
    original = e._act

    def record(user, action, target, worst, is_a, **kwargs):
        if is_a:
            moves.append(action[0])
        original(user, action, target, worst, is_a, **kwargs)

    e._act = record
    e.duel(ursaluna, mon("blissey", 85, ("softboiled",), "leftovers", "naturalcure"))
    assert len(moves) >= 3
    assert all(not (x == y == "bloodmoon") for x, y in zip(moves, moves[1:], strict=False))
    assert "bloodmoon" in moves
    slowbro = mon("slowbro", 86, ("futuresight", "scald", "slackoff"), "leftovers", "regenerator")
    assert {o.move for o in e.options(slowbro, GARCHOMP, True)} == {"scald"}


def test_eruption_weakens_with_the_users_hp_in_the_duel():
    typhlosion = mon("typhlosion", 84, ("eruption",), "choicescarf", "flashfire")
    target = mon("blissey", 85, ("seismictoss",), "heavydutyboots", "naturalcure")
    full = engine().duel(typhlosion, target)
    # against the same move at a fixed power (the duel's belief before)
    e = engine()
    (opt,) = e.options(typhlosion, target, True)
    assert opt.hp_power
    e._options[(typhlosion, target, True)] = [replace(opt, hp_power=False)]
    fixed = e.duel(typhlosion, target)
    assert full.b_hp > fixed.b_hp + 0.1  # each Seismic Toss taken cuts every later Eruption


def test_stakeout_doubles_the_hit_on_a_pokemon_switching_in():
    e = engine()
    mabosstiff = mon("mabosstiff", 84, ("crunch", "playrough"), "choiceband", "stakeout")
    builds = [(mabosstiff, 1.0)]
    staying = e.incoming(builds, HEATRAN)
    assert e.incoming(builds, HEATRAN, entering=True) == pytest.approx(2 * staying)
    assert e.ko_chance(builds, HEATRAN, 1.5 * staying, entering=True) > 0.5
    assert e.ko_chance(builds, HEATRAN, 1.5 * staying) == 0.0
    guard = replace(mabosstiff, ability="intimidate")
    assert e.incoming([(guard, 1.0)], HEATRAN, entering=True) == pytest.approx(staying)


def test_slow_start_lifts_after_its_turns_in_the_duel():
    regigigas = mon("regigigas", 84, ("bodyslam", "knockoff"), "leftovers", "slowstart")
    target = mon("blissey", 85, ("seismictoss", "softboiled"), "heavydutyboots", "naturalcure")
    e = engine()
    ending = e.duel(regigigas.with_slow_start(True, 1), target)
    lasting = e.duel(regigigas.with_slow_start(True, 99), target)
    # Slow Start over after one turn: Regigigas hits at full Attack for the rest of the duel
    assert ending.b_hp < lasting.b_hp or ending.turns < lasting.turns
    assert regigigas.with_slow_start(True, 1).slow_turns == 1
    assert regigigas.with_slow_start(False, 3).slow_turns == 0


def test_palafin_comes_back_as_its_hero_forme():
    from randbot.bot.mon import hero_form

    zero = mon(
        "palafin", 79, ("jetpunch", "wavecrash", "closecombat", "flipturn"), "", "zerotohero"
    )
    hero = hero_form(zero)
    assert hero.species == "palafinhero" and hero.max_hp == zero.max_hp
    assert hero.stat("atk") > 2 * zero.stat("atk") - 20
    assert hero_form(GARCHOMP) is GARCHOMP
    e = engine()
    assert e.duel(hero, HEATRAN).a_hp > e.duel(zero, HEATRAN).a_hp  # it wins sooner


def test_a_ko_its_recoil_pays_for_with_the_users_last_hp_is_no_win():
    e = MatchupEngine(DamageOracle(None), FieldState(), chance=True)
    target = mon("breloom", 84, ("seedbomb",), "focussash", "technician", hp=0.3)
    frail = mon("staraptor", 82, ("bravebird",), "choiceband", "reckless", hp=0.05)
    assert not e.duel(frail, target).a_wins
    sturdy = replace(frail, ability="rockhead")
    assert e.duel(sturdy, target).a_wins


def test_unburden_surge_surfer_and_a_speed_boosting_paradox_ability_double_or_raise_speed():
    from randbot.bot.pydamage import speed

    hitmonlee = mon("hitmonlee", 86, ("closecombat",), "whiteherb", "unburden")
    field = FieldState()
    assert speed(replace(hitmonlee, item=""), field, False) == 2 * speed(hitmonlee, field, False)
    raichu = mon("raichualola", 88, ("psychic",), "lifeorb", "surgesurfer")
    electric = replace(field, terrain="electric")
    assert speed(raichu, electric, True) == 2 * speed(raichu, field, True)
    bundle = mon("ironbundle", 80, ("hydropump",), "choicespecs", "quarkdrive")
    assert speed(bundle, electric, True) == 1.5 * speed(bundle, field, True)
    moth = mon("ironmoth", 80, ("fierydance",), "choicespecs", "quarkdrive")  # Sp. Atk highest
    assert speed(moth, electric, True) == speed(moth, field, True)


def test_a_frozen_pokemon_loses_more_than_one_turn():
    e = engine()
    frozen = replace(GARCHOMP, status="frz")
    chansey = mon("chansey", 88, ("seismictoss",), "eviolite", "naturalcure")
    # three turns of Seismic Toss before it moves: more HP lost than one turn frozen would cost
    assert e.duel(frozen, chansey).a_hp < e.duel(GARCHOMP, chansey).a_hp - 0.35


@pytest.mark.parametrize("chance", [False, True])
def test_explosion_faints_its_user(chance):
    """Golem's Explosion KOs a Gurdurr at 40% and Golem faints with it: a lost duel while the enemy
    has others to send (the duel kept Golem standing at full HP)."""
    golem = mon("golem", 88, ("explosion", "rockslide"), "", "sturdy")
    gurdurr = mon("gurdurr", 86, ("drainpunch", "machpunch"), "eviolite", "guts", hp=0.4)
    e = MatchupEngine(DamageOracle(None), FieldState(), chance=chance)
    (boom,) = [o for o in e.options(golem, gurdurr, True) if o.move == "explosion"]
    assert boom.self_ko
    duel = e.duel(golem, gurdurr, first="explosion", plans=(0,))
    assert duel.b_hp == 0.0 and duel.a_hp == 0.0 and not duel.a_wins


def test_a_duel_keeps_explosion_for_a_ko_or_a_user_with_little_left():
    """At full HP Golem hits Gurdurr with Rock Slide rather than blowing up for part of its HP."""
    golem = mon("golem", 88, ("explosion", "rockslide"), "", "sturdy")
    gurdurr = mon("gurdurr", 86, ("drainpunch", "machpunch"), "eviolite", "guts")
    duel = engine().duel(golem, gurdurr, plans=(0,))
    assert duel.first_action == "rockslide"


def test_moonlight_heals_a_quarter_in_snow_and_two_thirds_in_sun():
    """Cresselia heals off Snorlax's Body Slams with Moonlight in clear weather; in snow Moonlight
    heals a quarter and it falls (the duels healed half whatever the weather)."""
    from randbot.bot.movefacts import healed_share, move_facts

    moonlight, shore_up = move_facts("moonlight"), move_facts("shoreup")
    assert healed_share(moonlight, None) == 0.5 and healed_share(moonlight, "snow") == 0.25
    assert healed_share(moonlight, "sun") == pytest.approx(2 / 3)
    assert healed_share(moonlight, "sun", "utilityumbrella") == 0.5
    assert healed_share(shore_up, "sand") == pytest.approx(2 / 3)
    assert healed_share(move_facts("recover"), "rain") == 0.5
    cresselia = mon("cresselia", 82, ("moonlight", "psyshock"), "leftovers", "levitate")
    snorlax = mon("snorlax", 84, ("bodyslam", "curse"), "leftovers", "thickfat")
    clear = engine().duel(cresselia, snorlax)
    snow = MatchupEngine(DamageOracle(None), FieldState(weather="snow")).duel(cresselia, snorlax)
    assert clear.a_hp > 0 and snow.a_hp == 0.0


def test_switching_in_onto_toxic_spikes_poisons_a_grounded_pokemon():
    """One layer poisons, two badly poison; Flying, boots, Poison and Steel types, a status
    already, Misty Terrain and the other side's layers leave it as it is."""
    side = FieldState().ours.__class__(toxic_spikes=1)
    spiked = MatchupEngine(DamageOracle(None), FieldState(ours=side), toxic_spikes=True)
    chansey = mon("chansey", 88, ("seismictoss", "softboiled"), "eviolite", "naturalcure")
    assert spiked.entering(chansey).status == "psn"
    two = MatchupEngine(
        DamageOracle(None), FieldState(ours=side.__class__(toxic_spikes=2)), toxic_spikes=True
    )
    assert two.entering(chansey).status == "tox"
    for untouched in (
        mon("corviknight", 80, ("bravebird",), "leftovers", "pressure"),
        mon("chansey", 88, ("seismictoss",), "heavydutyboots", "naturalcure"),
        mon("muk", 86, ("gunkshot",), "leftovers", "poisontouch"),
        mon("metagross", 80, ("meteormash",), "leftovers", "clearbody"),
        replace(chansey, status="par"),
    ):
        assert spiked.entering(untouched).status == untouched.status
    assert spiked.entering(chansey, ours=False).status is None
    misty = MatchupEngine(
        DamageOracle(None), FieldState(ours=side, terrain="misty"), toxic_spikes=True
    )
    assert misty.entering(chansey).status is None
    assert MatchupEngine(DamageOracle(None), FieldState(ours=side)).entering(chansey).status is None


def test_critical_hits_are_folded_in_at_the_chance_of_their_stage():
    """Klawf's Stone Edge (a high ratio) through a Scope Lens crits half the time; the estimate
    counted every move at 1/24."""
    from randbot.bot.movefacts import move_facts
    from randbot.bot.pydamage import crit_factor

    plain = mon("klawf", 88, ("stoneedge", "crabhammer"), "heavydutyboots", "angershell")
    lens = replace(plain, item="scopelens")
    target = mon("veluza", 88, ("aquacutter",), "sitrusberry", "sharpness")
    edge, tackle = move_facts("stoneedge"), move_facts("tackle")
    assert crit_factor(plain, target, tackle) == pytest.approx(1 + 0.5 / 24)
    assert crit_factor(plain, target, edge) == pytest.approx(1 + 0.5 / 8)
    assert crit_factor(lens, target, edge) == pytest.approx(1.25)
    assert crit_factor(lens, replace(target, ability="shellarmor"), edge) == 1.0
    assert crit_factor(plain, target, move_facts("flowertrick")) == 1.5
    field = FieldState()
    ratio = (
        estimate(lens, target, "stoneedge", field, True)[2]
        / estimate(plain, target, "stoneedge", field, True)[2]
    )
    assert ratio == pytest.approx(1.25 / 1.0625, rel=0.01)


def test_anger_shell_raises_its_holder_once_a_hit_takes_it_below_half():
    """Klawf at 90%: Gardevoir's first Moonblast takes it below half, and Anger Shell's +1 Attack
    makes its Knock Off hit harder before the second Moonblast lands."""
    klawf = mon("klawf", 88, ("stoneedge", "knockoff"), "scopelens", "angershell", hp=0.9)
    calm = replace(klawf, ability="shellarmor")
    gardevoir = mon("gardevoir", 86, ("moonblast", "psyshock"), "choicescarf", "trace")
    e = MatchupEngine(DamageOracle(None), FieldState(), hit_abilities=True)
    angry, plain = e.duel(gardevoir, klawf), e.duel(gardevoir, calm)
    assert angry.a_wins and plain.a_wins and angry.a_hp < plain.a_hp - 0.1
    off = MatchupEngine(DamageOracle(None), FieldState())
    assert off.duel(gardevoir, klawf).a_hp == pytest.approx(off.duel(gardevoir, calm).a_hp)


def test_blizzard_never_misses_in_snow_and_thunder_is_a_coin_in_sun():
    from randbot.bot.movefacts import move_facts, weather_accuracy

    blizzard, thunder = move_facts("blizzard"), move_facts("thunder")
    assert weather_accuracy(blizzard, None) == 0.7 and weather_accuracy(blizzard, "snow") == 1.0
    assert weather_accuracy(thunder, "rain") == 1.0 and weather_accuracy(thunder, "sun") == 0.5
    abomasnow = mon("abomasnow", 88, ("blizzard", "woodhammer"), "leftovers", "snowwarning")
    drifblim = mon("drifblim", 88, ("calmmind", "airslash"), "sitrusberry", "unburden")
    snow = MatchupEngine(DamageOracle(None), FieldState(weather="snow"))
    (hit,) = [o for o in snow.options(abomasnow, drifblim, False) if o.move == "blizzard"]
    assert hit.accuracy == 1.0
    assert engine().options(abomasnow, drifblim, False)[0].accuracy == 0.7


def test_intrepid_sword_and_dauntless_shield_raise_an_entry_that_still_gets_it():
    """Zamazenta's first entry comes with +1 Defense; once spent, none."""
    zamazenta = replace(
        mon("zamazenta", 72, ("bodypress", "crunch"), "leftovers", "dauntlessshield"),
        entry_boost=True,
    )
    e = engine()
    assert e.entering(zamazenta).boost("def") == 1
    assert e.entering(replace(zamazenta, entry_boost=False)).boost("def") == 0
    zacian = replace(
        mon("zacian", 70, ("playrough",), "rustedsword", "intrepidsword"), entry_boost=True
    )
    assert e.entering(zacian).boost("atk") == 1 and e.entering(zacian).boost("def") == 0


def test_a_super_effective_hit_sets_off_weakness_policy_once():
    """Mystical Fire into a Weakness Policy Metagross raised its Attack two stages, and the
    Earthquakes after took Hatterene out first."""
    hatterene = mon("hatterene", 86, ("mysticalfire",), "leftovers", "magicbounce", hp=0.7)
    plain = mon("metagross", 82, ("earthquake",), "leftovers", "clearbody")
    policy = replace(plain, item="weaknesspolicy")
    e = MatchupEngine(DamageOracle(None), FieldState(), hit_abilities=True)
    assert e.duel(hatterene, plain).a_wins
    assert not e.duel(hatterene, policy).a_wins
    # without hit_abilities the item is not read: the duel is the plain one
    assert engine().duel(hatterene, policy).a_wins


def test_scale_shot_raises_its_users_speed_and_lowers_its_defence():
    from randbot.bot.movefacts import move_facts

    assert dict(move_facts("scaleshot").self_boosts) == {"spe": 1, "def": -1}
    assert dict(move_facts("clangingscales").self_boosts) == {"def": -1}


def test_an_ogerpon_terastallizing_raises_its_masks_stat():
    hearthflame = mon("ogerponhearthflame", 80, ("ivycudgel",), "hearthflamemask", "moldbreaker")
    assert hearthflame.with_tera().boost("atk") == 1
    assert hearthflame.with_tera().with_tera().boost("atk") == 1  # once
    assert GARCHOMP.with_tera().boosts == GARCHOMP.boosts


def test_a_serene_grace_iron_head_flinches_a_slower_foe_out_of_its_duel():
    """Recorded as lost (seed 21, battle 342): a Serene Grace Jirachi's Iron Head (60% to flinch)
    flinched a slower Gurdurr nine turns of ten that the plan counted as won."""
    jirachi = mon("jirachi", 82, ("ironhead",), "leftovers", "serenegrace")
    gurdurr = mon("gurdurr", 88, ("drainpunch",), "eviolite", "guts")
    plain = MatchupEngine(DamageOracle(None), FieldState(), chance=True, roll_chance=True)
    flinching = MatchupEngine(
        DamageOracle(None), FieldState(), chance=True, roll_chance=True, flinches=True
    )
    assert plain.duel(gurdurr, jirachi).a_wins
    assert not flinching.duel(gurdurr, jirachi).a_wins
    assert flinching.duel(jirachi, gurdurr).a_wins  # the same duel from Jirachi's side
    # an Inner Focus Pokémon does not flinch
    assert flinching.duel(replace(gurdurr, ability="innerfocus"), jirachi).a_wins


def test_blaze_powers_fire_moves_by_half_once_its_holder_is_at_a_third():
    """Charizard's Flamethrower, priced at full HP, hits half as hard again once the duel has
    brought Charizard to a third of its HP; a Charizard priced at a third already has it."""
    from randbot.bot.matchup import _dmg, _Side

    charizard = mon("charizard", 85, ("flamethrower", "airslash"), "heavydutyboots", "blaze")
    jumpluff = mon("jumpluff", 90, ("acrobatics", "sleeppowder"), "leftovers", "infiltrator")
    e = MatchupEngine(DamageOracle(None), FieldState(), hit_abilities=True)
    fire, air = e.options(charizard, jumpluff, True)
    assert fire.pinch and not air.pinch  # only its type's moves
    zard = _Side(charizard, True, 1.0, [fire, air])
    foe = _Side(jumpluff, False, 1.0, [])
    full, flying = _dmg(fire, zard, foe, False, True), _dmg(air, zard, foe, False, True)
    zard.hp = 0.3
    assert _dmg(fire, zard, foe, False, True) == pytest.approx(1.5 * full)
    assert _dmg(air, zard, foe, False, True) == pytest.approx(flying)
    low = replace(charizard, hp=charizard.max_hp // 4)
    assert not e.options(low, jumpluff, True)[0].pinch  # the calc's price has it already
    off = MatchupEngine(DamageOracle(None), FieldState())
    assert not off.options(charizard, jumpluff, True)[0].pinch


def test_minior_enters_above_half_hp_in_its_slow_meteor_form():
    """On the bench Minior shows its Core's stats; Shields Down makes it enter as the Meteor Form
    (Speed 60, not 120) above half HP, and as the Core at half or below."""
    minior = mon("minior", 86, ("shellsmash", "acrobatics"), "whiteherb", "shieldsdown")
    entered = engine().entering(minior)
    assert entered.species == "miniormeteor" and entered.stats[5] < minior.stats[5]
    assert entered.stats[0] == minior.stats[0] and entered.hp == minior.hp
    low = mon("minior", 86, ("shellsmash", "acrobatics"), "whiteherb", "shieldsdown", hp=0.45)
    assert engine().entering(low).species == "minior"


def test_sucker_punch_lands_by_the_share_of_attacks_the_target_knows():
    """Sucker Punch fails on a status turn: sure against a target with four attacks, four times
    in five against one that also sets up, never against one with no attack at all."""
    e = engine()
    kingambit = mon(
        "kingambit",
        74,
        ("kowtowcleave", "ironhead", "suckerpunch", "swordsdance"),
        "leftovers",
        "supremeoverlord",
    )
    all_attacks = mon(
        "dragapult", 74, ("dracometeor", "shadowball", "fireblast", "uturn"), "choicespecs"
    )
    no_attacks = mon("dragapult", 74, ("willowisp", "substitute", "dragondance", "protect"))

    def sucker(target: Mon):
        return next(
            (o for o in e.options(kingambit, target, True) if o.move == "suckerpunch"), None
        )

    assert sucker(all_attacks).accuracy == pytest.approx(1.0)
    assert sucker(GARCHOMP).accuracy == pytest.approx(0.8)  # Swords Dance among its moves
    assert sucker(no_attacks) is None


def test_an_inaccurate_two_hit_ko_lands_twice_before_it_kos():
    """Hydreigon's Focus Blast (70%) takes about 72% of a slower Ursaring, whose Facade takes
    38% back: the second Focus Blast KOs only where the first landed too (0.7 x 0.7), and the
    third wherever the second KO missed (0.51 x 0.7): 0.847, where the whole game gives 0.784
    (two landings in the three tries before the third Facade). The duel used to count the first
    hit as 70% of its damage and the second as a KO 70% of the time: 0.91."""
    e = MatchupEngine(DamageOracle(None), FieldState(), chance=True, landed_chance=True)
    hydreigon = mon("hydreigon", 84, ("focusblast",))
    ursaring = mon("ursaring", 90, ("facade",))
    (blast,) = e.options(hydreigon, ursaring, True)
    assert blast.accuracy == pytest.approx(0.7) and 0.5 < blast.mean < 1.0
    assert e.duel(hydreigon, ursaring).p_a == pytest.approx(0.7 * 0.7 + 0.51 * 0.7)
    before = MatchupEngine(DamageOracle(None), FieldState(), chance=True)
    assert before.duel(hydreigon, ursaring).p_a == pytest.approx(0.7 + 0.3 * 0.7)


def test_iron_defense_is_body_press_set_up_and_raises_its_power_in_the_duel():
    """Zamazenta's Body Press hits off its Defence: two Iron Defenses win the duel against a
    physical Swalot that beats a Zamazenta pressing from the start. The duel had played Iron
    Defense as a lost turn (only Attack, Special Attack and Speed raises counted), and scaled
    Body Press by Special Attack stages."""
    e = MatchupEngine(DamageOracle(None), FieldState(), chance=True, stat_abilities=True)
    zamazenta = mon(
        "zamazenta",
        74,
        ("bodypress", "irondefense", "crunch", "stoneedge"),
        "leftovers",
        "dauntlessshield",
    )
    swalot = mon("swalot", 94, ("knockoff", "earthquake", "gunkshot", "swordsdance"), "blacksludge")
    assert e.duel(zamazenta, swalot, first="irondefense").p_a == 1.0
    no_setup = replace(zamazenta, moves=("bodypress", "crunch", "stoneedge"))
    assert e.duel(no_setup, swalot).p_a == 0.0
    assert e.versus(zamazenta, [(swalot, 1.0)]).first_action == "irondefense"


def test_a_chance_self_raise_is_not_counted_as_sure():
    """Diamond Storm raises its user's Defence by two half the time: no sure raise in the duels
    (the duels raised a Diancie two stages with every hit, where one hit in two does); Close
    Combat's drops come every time."""
    from randbot.bot.movefacts import move_facts

    assert move_facts("diamondstorm").self_boosts == ()
    assert dict(move_facts("closecombat").self_boosts) == {"def": -1, "spd": -1}


def test_electromorphosis_charges_its_holder_when_hit_and_doubles_its_next_electric_move():
    """A Gurdurr outlasts an uncharged Bellibolt; hit by Gurdurr, Bellibolt is charged and each
    Thunderbolt after a hit takes twice as much. The charge powers one Electric move, not Muddy
    Water, and a Bellibolt that enters the duel charged keeps it until it spends it."""
    from randbot.bot.matchup import _dmg, _Side

    bellibolt = mon(
        "bellibolt",
        84,
        ("thunderbolt", "muddywater", "slackoff", "voltswitch"),
        "leftovers",
        "electromorphosis",
    )
    gurdurr = mon(
        "gurdurr", 85, ("drainpunch", "machpunch", "knockoff", "bulkup"), "eviolite", "guts"
    )
    plain = MatchupEngine(DamageOracle(None), FieldState())
    e = MatchupEngine(DamageOracle(None), FieldState(), hit_abilities=True)
    assert plain.duel(gurdurr, bellibolt).a_wins
    assert not e.duel(gurdurr, bellibolt).a_wins
    bolt, water, volt = e.options(bellibolt, gurdurr, False)
    assert bolt.electric and volt.electric and not water.electric
    side = _Side(bellibolt, False, 1.0, [bolt, water, volt])
    foe = _Side(gurdurr, True, 1.0, e.options(gurdurr, bellibolt, True))
    uncharged = _dmg(bolt, side, foe, False, False)
    e._act(foe, ("drainpunch", foe.options[0]), side, False, is_a=True)
    assert side.charged
    assert _dmg(bolt, side, foe, False, False) == pytest.approx(2 * uncharged)
    e._act(side, ("muddywater", water), foe, False, is_a=False)
    assert side.charged  # Muddy Water does not spend it
    e._act(side, ("thunderbolt", bolt), foe, False, is_a=False)
    assert not side.charged
    assert _dmg(bolt, side, foe, False, False) == pytest.approx(uncharged)
    # a Toxapex that never hits it: a charge it entered with doubles the first Thunderbolt only
    toxapex = mon("toxapex", 86, ("recover", "haze"), "", "regenerator")
    one_bolt = e.options(bellibolt, toxapex, True)[0].mean
    weakened = replace(toxapex, hp=round(1.5 * one_bolt * toxapex.max_hp))
    assert e.duel(bellibolt, weakened).turns == 2
    assert e.duel(replace(bellibolt, charged=True), weakened).turns == 1


@pytest.mark.parametrize("chance", [False, True])
def test_triple_axel_checks_accuracy_on_every_hit_and_stops_at_a_miss(chance):
    """Weavile's Triple Axel (90% a hit, 20/40/60 power) KOs a Hariyama that one hit would KO 90%
    of the time, one that needs two hits 81%, and one that needs all three 72.9% (before, every KO
    was its first hit's 90%); with Loaded Dice the later hits never miss."""
    e = MatchupEngine(DamageOracle(None), FieldState(), chance=True, roll_chance=True)
    weavile = mon("weavile", 79, ("tripleaxel",), "heavydutyboots", "pressure")
    hariyama = mon("hariyama", 85, ("closecombat",), "", "guts")
    (axel,) = e.options(weavile, hariyama, True)
    assert axel.hit_chance == pytest.approx(0.9)
    per_hit = axel.high / 6  # the first hit's highest roll: the three hits are 1, 2 and 3 of it
    expected = {1: 0.9, 3: 0.81, 6: 0.729}
    for power, p in expected.items():
        hp = 0.8 * power * per_hit  # every roll of `power` KOs, and none of the power below
        if chance:  # Hariyama's Close Combat KOs the faster Weavile if it does not KO first
            target = mon("hariyama", 85, ("closecombat",), "", "guts", hp=hp)
            assert e.duel(weavile, target, plans=(0,)).p_a == pytest.approx(p, abs=0.01)
        else:
            assert e.ko_chance([(weavile, 1.0)], hariyama, hp) == pytest.approx(p)
    dice = replace(weavile, item="loadeddice")
    (sure,) = e.options(dice, hariyama, True)
    assert sure.hit_chance == 1.0
    assert e.ko_chance([(dice, 1.0)], hariyama, 0.8 * sure.high) == pytest.approx(0.9)


def test_an_enemy_that_may_set_up_beats_the_wall_that_stops_it_unboosted():
    # Skarmory walls Garchomp's unboosted hits but not a Swords Dance's: the duel assumes the
    # enemy sets up unless told it never does (a scripted player).
    skarmory = mon(
        "skarmory", 84, ("bravebird", "spikes", "roost", "bodypress"), "rockyhelmet", "sturdy"
    )
    assert not engine().duel(skarmory, GARCHOMP).a_wins
    never = MatchupEngine(DamageOracle(None), FieldState(), enemy_setup=False)
    assert never.duel(skarmory, GARCHOMP).a_wins


def test_a_scripted_enemy_fights_only_with_the_moves_its_script_clicks():
    # Low Kick's base power is 0 in the data: neither script clicks it, and MaxBasePowerPlayer
    # clicks Close Combat (120) over a stronger-hitting Knock Off against a Ghost.
    conkeldurr = mon(
        "conkeldurr", 82, ("lowkick", "closecombat", "knockoff", "machpunch"), "", "guts"
    )
    tyranitar = mon("tyranitar", 80, ("crunch", "stoneedge"))
    gengar = mon("gengar", 80, ("shadowball",))

    def moves(script: str, target: Mon) -> set[str]:
        scripted = MatchupEngine(DamageOracle(None), FieldState(), enemy_script=script)
        return {o.move for o in scripted.options(conkeldurr, target, False)}

    assert "lowkick" in moves("", tyranitar)
    assert moves("heuristic", tyranitar) == {"closecombat", "knockoff", "machpunch"}
    assert moves("power", tyranitar) == {"closecombat"}
    # Close Combat cannot touch a Ghost: with nothing its script would click, it keeps them all
    assert moves("power", gengar) == {"knockoff"}
    # our side is never scripted
    scripted = MatchupEngine(DamageOracle(None), FieldState(), enemy_script="power")
    assert "lowkick" in {o.move for o in scripted.options(conkeldurr, tyranitar, True)}


def test_a_scripted_enemy_never_heals_in_its_duels():
    # Vaporeon's Scalds wear Blissey down hardly faster than Soft-Boiled heals it; neither
    # script ever clicks Soft-Boiled.
    blissey = mon("blissey", 84, ("flamethrower", "softboiled"), "leftovers")
    vaporeon = mon("vaporeon", 84, ("scald",))
    healing = engine().duel(vaporeon, blissey, plans=(0,))
    scripted = MatchupEngine(DamageOracle(None), FieldState(), enemy_script="heuristic")
    assert scripted.duel(vaporeon, blissey, plans=(0,)).b_hp < healing.b_hp - 0.2


def test_a_protean_holder_whose_type_changed_gets_stab_on_its_new_type_alone():
    # Battle 476 (seed 39 against the heuristic): Greninja's Ice Beam turned it Ice; its next
    # Gunk Shot was priced with Protean's STAB, valued over a sure Ice Beam, and fell short.
    greninja = species_mon("greninja", 80, ("gunkshot", "icebeam"), "lifeorb", "protean")
    pachirisu = species_mon("pachirisu", 94, ("thunderbolt",), "assaultvest", "voltabsorb")
    field = FieldState()
    unspent = estimate(greninja, pachirisu, "gunkshot", field, True)[2]
    iced = replace(greninja, base_types=("ICE",), type_change_spent=True)
    assert abs(unspent / estimate(iced, pachirisu, "gunkshot", field, True)[2] - 1.5) < 0.05
    assert estimate(iced, pachirisu, "icebeam", field, True)[2] == pytest.approx(
        estimate(greninja, pachirisu, "icebeam", field, True)[2]
    )
    assert not iced.fresh().type_change_spent  # a new entry changes its type again


@pytest.mark.parametrize(("gen", "spent"), [(9, True), (8, False)])
def test_a_type_change_spends_protean_from_gen_9(gen, spent):
    # `|-start|p2a: Greninja|typechange|Ice|[from] ability: Protean`; Gens 6 to 8 change the
    # holder's type on every move, so there it keeps its STAB on all of them.
    from poke_env.battle.pokemon import Pokemon

    from randbot.bot.mon import type_change_spent

    greninja = Pokemon(gen=gen, species="greninja")
    assert not type_change_spent(greninja)
    greninja.start_effect("typechange", details="Ice")
    assert type_change_spent(greninja) is spent
