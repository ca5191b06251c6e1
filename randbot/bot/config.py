"""The bot's switches: what is on by default was decided by measurement (see the ablation in the report)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

from randbot.errors import RandbotError
from randbot.inference.choice_model import SCRIPTED

# Settings that must be 0 or more.
NON_NEGATIVE = (
    "search_switch_streak",
    "search_script_rollout",
    "planner_faint_weight",
    "search_switch_rollout",
    "search_tie_window",
    "search_tie_by_ms",
    "planner_switch_margin",
    "discover_margin",
    "search_win_curve",
)


@dataclass(frozen=True)
class BotConfig:
    budget_ms: float = 250.0  # per decision; past it the best answer so far is played
    # The Discover phase's four rules and switch logic (thesis 3.6.4), until the enemy team is known,
    # each rule checked by the search against the Defeat planner's choice (discover_checked).
    # Unchecked, planning from the first turn measured better: 240-244 vs 229 of 300 paired
    # battles against the heuristic (scripts/paired_ab.py, seed 11). Checked, with discover_margin
    # 0.02: 1,386 of 1,500 draws against the heuristic where the bot without Discover won 1,380
    # (+28 -22; seeds 11, 12 and 13).
    discover: bool = True
    # A Discover rule's choice is played only where the search values it at least
    # discover_margin above the Defeat planner's choice; otherwise (it loses, wins by less, or
    # the search could not value both, or is off) the planner's choice is played and the log
    # names the rule it set aside. At margin 0: 452 of 500 against the heuristic where the
    # default without Discover won 459 (+8 -15, seed 11); with the search only overriding the
    # rules: 441; no search: 424.
    discover_checked: bool = True
    discover_margin: float = 0.02
    defeat: bool = True  # the Defeat phase's minimax planner (figure 3.3)
    inference: bool = (
        True  # the inference tracker's posterior; off = species prior narrowed by reveals
    )
    # The tracker's damage-roll checks through the shared bridge (its inference improves; cost per turn).
    # With our Pokémon priced at the format's EV spread (before, at none): 463 of 500 against the
    # heuristic where the bot without them won 462 (+10 -9, seed 11), decisions p95 156 ms against
    # 148: no stronger, so off.
    inference_damage: bool = False
    tera: bool = True
    # Each generation's gimmick (randbot/bot/gimmick.py): Mega Evolution, Z-moves, Dynamax.
    gimmicks: bool = True
    use_bridge: bool = True  # @smogon/calc through damagecalc_bridge; off = the Python estimate
    bridge_max_calcs: int = 250  # new bridge calcs per decision (the rest: the Python estimate)
    top_builds: int = 6  # enemy builds kept per Pokémon (the most likely, renormalised)
    # Builds differing only in tera type merged before that cut: the set database lists each role
    # once per tera type, so the six likeliest Donphan builds were all one Assault Vest role, and
    # its Choice Band and Stealth Rock roles (about half its sets) were never considered. With
    # inference_damage on: 456 of 500 against the heuristic where inference_damage alone won 463
    # (+13 -20, seed 11); like planner_distinct_builds, more roles measured weaker, so off.
    merge_tera_builds: bool = False
    # How the planner counts unseen enemy slots: "ignore" measured better than "prior" phantoms for the
    # planner-only variant (250/300 vs 390/500 against the heuristic; see the report), and again
    # for the default: "prior" won 452 of 500 against the heuristic where "ignore" won 460 (+28
    # -36, seed 11), though 14 of the 31 battles the default lost on seed 36 fall as an unseen
    # enemy comes in (scripts/lost_plans.py); "prior" there won 461 where "ignore" won 469 (+23
    # -31): its falls at a reveal 14 → 8, within the enemies seen 17 → 25.
    # "last": a phantom for the last enemy unseen alone, where it is sure to come and the plan's
    # care is spent on it alone: 464 of 500 where "ignore" won 469 (+6 -11, seed 36), and more
    # of its losses fell at a reveal (20 of 36, against 14 of 31).
    defeat_unseen: str = "ignore"  # "ignore" | "prior" | "last"
    defeat_when_unseen_at_most: int = (
        0  # planner takes over once at most this many enemies are unseen
    )
    sack_pivot: bool = True  # the sacrificial pivot rule when hopeless
    field_rule: bool = True  # Discover rule 3: hazards and screens
    status_rule: bool = True  # Discover rule 4: inflict status
    # No check to switch to: switch anyway when a switch beats the best move clearly (core's rule).
    discover_better_switch: bool = False
    # Defeat: where staying only feeds the enemy a KO (the active's duel nearly lost, the enemy
    # left most of its HP), a switch the plan values nearly as high is taken instead; and no
    # setup move where the enemy moves first and two of its hits KO. With skip_futile: 454 vs the
    # default's 459 of 500 against the heuristic (+21 -26, seed 11), so both are off.
    avoid_feeding: bool = False
    # No status move the enemy's likely builds cannot get, no recovery under Heal Block. On, with
    # hit_boosts, status_orbs, sticky_web and the tie search below: see search_tie_window.
    skip_futile: bool = True
    planner_depth: int = 8  # faints looked ahead by the minimax tree
    # A switch costs a turn: the plan switches only where a switch beats staying by this much
    # (a sixth is one Pokémon's full HP on the plan's scale). At 0.05 the plan switched 617 times
    # where it had switched 1,035 and won the same 466 of 500 against the heuristic (+19 -19,
    # seed 11): 0.02 kept.
    planner_switch_margin: float = 0.02
    pivot_entry_hit: bool = (
        True  # after our pivot, the switch-in takes the hit of an enemy yet to move
    )
    # Duels count a KO-ing hit's accuracy (and full paralysis) as a chance, not as less damage:
    # 251-254 vs 240 of 300 paired battles against the heuristic.
    engine_chance: bool = True
    # ... and the damage roll: a hit KOs in the share of its rolls that KO, not when its mean does.
    # 474 of 500 against the heuristic where the default won 473 (+12 -11, seed 11): off.
    engine_roll_chance: bool = False
    # ... and a KO that needs earlier inaccurate hits to have landed (a 70% Focus Blast's second
    # hit of two) only in the worlds where they did: 49% on the second try, where the duel had
    # counted the first as 70% of its damage and the second as a KO 70% of the time.
    engine_landed_chance: bool = True
    planner_engine: bool = True  # pairings fought by the matchup engine (off: per-turn rates only)
    # Duels hold a choice item's holder to its move of the stay (the enemy's, once it has moved).
    choice_lock: bool = True
    # The plan's current pairing may be fought terastallized (tera was otherwise only a move choice).
    planner_tera: bool = True
    # Where the duel would terastallize, the plan is asked too: staying in terastallized now, in
    # every pairing the active has left, against no tera; tera is held where it plans worse (a
    # tera that wins this duel can add a weakness the enemy's next Pokémon hits). It held 10 of
    # 331 teras and won 463 of 500 against the heuristic where the default won 466 (+6 -9,
    # seed 11): off.
    tera_by_plan: bool = False
    stay_rules: bool = (
        False  # Defeat: when the plan stays, Discover's rules 2-4 (heal, field, status) first
    )
    # A plan's leaf counts each Pokémon standing this much beyond its HP (a sixth of the scale per
    # Pokémon at 1.0): 0 values the HP margin alone, so while the plan sees the battle won a stay
    # that loses the active for little ties a switch that keeps it. At 0.5, against the same code
    # at 0: 464 and 457 of 500 against the heuristic where 0 won 466 and 464 (+16 -18 seed 11,
    # +17 -24 seed 12): off.
    planner_faint_weight: float = 0.0
    # Close fights as chance nodes in the plan tree (expectiminimax): 252 vs 254 of 300, so off.
    planner_chance: bool = False
    # The plan fights each pairing against the enemy's two likeliest builds. Random battles list
    # each role once per tera type, so those two were often one role twice (Arboliva: two Harvest
    # sets, never the Energy Ball set it holds 48% of the time). On: builds that differ only in a
    # tera type not yet used count as one, and the two likeliest roles are fought: 456 of 500
    # against the heuristic where the default won 468 (+8 -20, seed 11), so off.
    planner_distinct_builds: bool = False
    # The enemy's likeliest builds each plan pairing is fought against. At 3: 473 of 500 against
    # the heuristic, as 2 won on the same draws (+10 -10, seed 11): kept at 2.
    planner_builds: int = 2
    # The active, once the plan switches it out, comes back as it would enter (boosts and drops
    # cleared, a choice lock gone); off, it came back in every line as it stands now. With the
    # other fixes of 864eddb, level: 1,425 of 1,500 against the heuristic, as before (+25 -25,
    # seeds 11-13); not measured alone.
    planner_back_fresh: bool = True
    # A Pokémon whose ability raises it after a KO (Moxie, Chilling Neigh, Grim Neigh) is fought
    # at +1 by the plan once it has KO'd a foe, ours or the enemy's.
    planner_ko_boosts: bool = True
    # A Pokémon that wins its duel having raised its stats in it (a set-up move, a sure raise of
    # its own attack, Speed Boost) goes on in the plan at those stages, ours or the enemy's, up to
    # two raised versions of each (a Pokémon's pairings made once more for each). Off, it goes on
    # as it came in: on, 951 of 1,000 against the heuristic where off won 955 (+13 -17, seeds
    # 11-12), decisions p95 158-161 ms against 156-158.
    planner_duel_boosts: bool = False
    # A plan whose search did not finish even two plies in its time (a big tree while most of
    # both teams stand) stays in rather than switch on one-ply values, whose switch-ins count a
    # won pairing where the stay counts its HP margin.
    planner_shallow_stay: bool = True
    # Plans of equal value (the plan sees the battle won either way) go to the switch-in that
    # takes least coming in (a replacement: the enemy's next hit too), not to the team's order.
    # Of the 12 seed-11 draws that one of 911c7a0 and the default before won alone, 7 turned on
    # this tie-break: the old order won 6 of them. Off.
    planner_entry_tie_break: bool = False
    # A Pokémon the plan sends in after a faint, on either side, loses its hazard toll first (a
    # switch at the root always paid its own); off, later entries came in unhurt by hazards.
    # With the other fixes of a873bb3 (a KO's cost to its user, Speed abilities, freeze), the
    # default won 1,407 of 1,500 draws against the heuristic where it had won 1,388 (+62 -43,
    # seeds 11-13; see docs/results.md); not measured alone.
    planner_hazards: bool = True
    # A switch-in is planned at its HP after the enemy's expected hit, so one left a sliver
    # stood as sure as a healthy one (Sneasler into five Technician Tail Slaps). On: where the
    # hit may KO it (its rolls and hits spread evenly, times accuracy), the switch's value is
    # weighed with that chance of the Pokémon lost for nothing. It weighed a switch in 1,541 of
    # 11,002 decisions and won 464 of 500 against the heuristic where the default won 468
    # (+6 -10, seed 11): off.
    planner_entry_risk: bool = False
    # Two-turn moves (Solar Beam out of sun, Meteor Beam without a Power Herb...) spend a turn
    # charging in duels and never count as a KO this turn; recharge moves cost the next turn.
    # Paired against the heuristic (300 battles each): +3 -1 (seed 303), +2 -2 (seed 505).
    charge_moves: bool = True
    # An enemy active that used a move its species never has, but a Zoroark does, is fought as
    # that Zoroark (Illusion) until it is revealed. Off: +0 -1 (seed 303), +0 -3 (seed 505), and
    # the rule fired in none of those battles (the flips are timing noise); in-sample at seed 404
    # (where its recorded losses come from) +2 -0, one of them a Zoroark battle. On: at seed 24
    # a Zoroark came in 4 of 500 battles and 2 were lost; in battle 195 it used Dark Pulse as
    # "Ho-Oh", and the bot, fighting a Ho-Oh, chose Stone Axe where X-Scissor KO'd the Zoroark.
    illusion_check: bool = True
    # Duels apply Contrary (reversed) and Simple (doubled) to the user's own stage changes, and
    # Unaware ignores the other side's: no setting up into a Clodsire, Serperior's Leaf Storm raises.
    # With them, Speed Boost raises its holder's Speed at each end of turn of a duel (a Blaziken
    # outsped from its second turn on).
    # Measured within noise each time: +4 -3 (seed 303, 300 battles); with two other settings +3 -5
    # (seed 505); alone 465 vs 464 of 500 (+10 -9, seed 11). On, because the duels' old belief
    # was wrong: three of 37 lost battles read at seed 11 turned on a Contrary or Unaware Pokémon.
    stat_abilities: bool = True
    # Duels apply an attack's sure stat changes (Lunge's -1 Attack on its target, Icy Wind's -1
    # Speed, Trailblaze's +1 Speed on its user), and a Flame or Toxic Orb's status at the end of its
    # holder's first turn, with what it turns on (Guts, Facade, Quick Feet, Poison Heal).
    hit_boosts: bool = True
    status_orbs: bool = True
    # Duels apply the stat changes a target's own ability answers a hit with (Weak Armor's -1
    # Defense and +2 Speed, Stamina, Justified, Rattled, Steam Engine, Water Compaction, Thermal
    # Exchange); and the plan's pairings, Intimidate where one side enters against the other
    # (Defiant and Competitive answering it). Each decided a lost battle read at seed 11. Both
    # on, against the default before them: 466 and 464 of 500 against the heuristic where it won
    # 465 and 468 (+10 -9 seed 11, +5 -9 seed 12): within noise, on because the duels' old
    # belief was wrong. With them, Blaze, Torrent, Overgrow and Swarm power their type's moves
    # by half once a duel brings their holder to a third of HP (a Charizard's Flamethrower KO'd a
    # full Jumpluff from there); and Electromorphosis charges its holder when a hit lands on it,
    # doubling its next Electric move (a slow Bellibolt's Thunderbolts hit twice as hard as
    # priced, after each hit it took, and KO'd Pokémon that stayed in on it).
    hit_abilities: bool = True
    intimidate: bool = True
    # Duels count a flinch: a hit before the target moves (Iron Head 30%, 60% with Serene Grace)
    # takes that share off the target's damage that turn, as full paralysis takes 25%. A Serene
    # Grace Jirachi flinched a slower Gurdurr nine turns of ten that the plan had as won.
    flinch: bool = True
    # A status move played in a duel puts its status on the target (sleep for two turns, paralysis,
    # a burn, poison), where the target can take it and the move is at least 70% accurate, and
    # Leech Seed, Strength Sap and Pain Split move HP; off, the duel counts it as a lost turn, so
    # the plan almost never chose one.
    status_moves: bool = True
    # A hazard move's duel counts only the turn it costs; with this weight above 0, its worth on
    # the enemy's Pokémon still to come in (their HP it would take, in Pokémon) is added, and a
    # move that clears our side gains the hazard HP it saves our Pokémon still to come in.
    # Both on, against both off, 500 battles each against the heuristic: 463 vs 459 (+18 -14,
    # seed 11) and 463 vs 462 (+16 -15, seed 12): not above noise; on because the bot now plays
    # its status and hazard moves where they pay (status_moves alone: 465 vs 459, +14 -8).
    hazard_weight: float = 1.0
    # A switch (or a switch-in lost on entry) gives the enemy a free turn: the plan takes its HP
    # up by what that turn regains it (its hit's drain, Leftovers or Black Sludge).
    planner_enemy_regain: bool = True
    # The enemy's hit on a switch-in that may miss (below 95%): the plan values the line where it
    # lands (its full damage) and the one where it misses, by its accuracy, not one line with
    # the expected damage taken for sure.
    planner_entry_accuracy: bool = True
    # Our Pokémon switching in onto a Sticky Web are fought at -1 Speed (grounded, no boots).
    sticky_web: bool = True
    # Our Pokémon (and the enemy's) switching in onto Toxic Spikes are fought poisoned (two
    # layers: badly) when grounded, without Heavy-Duty Boots and able to be poisoned.
    toxic_spikes: bool = True
    # Lookahead on Showdown's own simulator (randbot/lookahead): our choices against the enemy's
    # for one turn, in `search_worlds` determinised worlds, within `think_ms`; the bot's own choice
    # stands unless the search's best beats it by more than `search_margin`. On by default at 50 ms
    # with the model rule: paired against the bot without it on 500 draws against the heuristic,
    # +19 -8 (seed 11, `play`) and +21 -9 (seed 11, `evaluate`); see docs/results.md. No longer
    # think time has measured stronger: at 400 ms, where the search values nearly every decision
    # and replaces a third of the bot's choices, 922 of 1,000 draws where 50 ms won 930; with
    # the heuristic played as its script, 100 ms and 5 worlds won 477 of 500 where 50 ms and 3
    # won 484 (+9 -16, seed 11). With the roll coin and the win-chance curve, 400 ms won 1,222
    # of 1,300 fresh draws where 50 ms won 1,226 (+51 -55, seeds 35 to 37), its search valuing
    # nine decisions in ten and replacing twice as many of the bot's choices; p95 338-397 ms.
    search: bool = True
    think_ms: float = 50.0
    search_worlds: int = 3
    search_rule: str = (
        "model"  # the enemy's simultaneous choice: "nash" | "maximin" | "mean" | "model"
    )
    search_margin: float = 0.02
    # A switch the search plays in place of the bot's move (the full search's or the tie
    # search's) must beat the move by this, where it is larger than search_margin.
    search_switch_margin: float = 0.02
    # At 0.1: 482 of 500 against the heuristic where 0.03 won 484 (+8 -10, seed 11).
    search_tera_cost: float = 0.03
    search_rollout_turns: int = 0  # after the searched turn, both sides' strongest moves
    # The value of where a turn leads: "static" (the worker's HP/status/boosts score) or "planner"
    # (the Defeat planner's minimax over the remaining matchups, searched `search_leaf_depth` faints
    # deep, plus the static score's non-HP part). The planner leaf with 150 ms: 449 of 500 against
    # the heuristic where the default won 469 (+22 -42, p = 0.02, seed 36); its search chose 2,678
    # of 12,188 decisions where the default's chose 1,180 of 10,803.
    search_leaf: str = "static"
    # The static score values an active the foe outspeeds and knocks out next turn as a sack
    # rather than by its HP (a 9-HP Pokémon about to fall is not 0.3 of a healthy one). Level
    # against the heuristic (479 vs 482, seed 11); with the heuristic played as its script, 479
    # where the script alone won 484 (+11 -16): off.
    search_doom: bool = False
    # ... and our switch-in alone, in the search's switch rows: a switch the foe then outspeeds
    # and knocks out before it acts is valued as the sack it is. 1,445 of 1,500 against the
    # heuristic where the default won 1,440 (+24 -19 over seeds 11-13, level on seed 13), and
    # 495 of 500 against MaxBasePowerPlayer where it won 494 (+3 -2, seed 12): off.
    search_switch_doom: bool = False
    # A hit that knocks out on some of its damage rolls and not on others is played as a coin
    # (both sides, weighted by their rolls, when it is the turn's first) where the middle roll
    # alone takes the KO as sure or as none. Alone: 1,426 of 1,500 against the heuristic where
    # the default before won 1,420 (+26 -21, seeds 31-33).
    search_roll_coin: bool = True
    # The search values a played turn by the chance of winning from where it leads, a curve of
    # this steepness over its score (0: by the score): a lead's mix of outcomes (a coin both
    # ways, the enemy's mixed replies, the worlds) is worth less than its mean, so the surer line
    # is preferred when ahead and the bolder one when behind. With the roll coin, at 6: 1,430 of
    # 1,500 where the default before won 1,420 (+32 -22, ahead on each of seeds 31-33). At 10:
    # 467 of 500 where 6 won 467 (+11 -11, seed 35).
    search_win_curve: float = 6.0
    # Once the tracker's player model gives a script of search_scripts at least this weight, the
    # search plays the enemy's choice as that script's (MaxBasePowerPlayer: its highest base
    # power, no switch) rather than as a damage-minded player's mix (0: off). Against
    # MaxBasePowerPlayer it won 991 of 1,000 where the default before won 986 (+10 -5; see
    # docs/results.md); against the heuristic it took the enemy for that script in 6 of 1,500.
    # At 0.6 the search took the heuristic for its script by turn 5 (median) where 0.9 did by
    # turn 8, and won 475 of 500 against it where 0.9 won 484 (+6 -15, seed 11); at 0.97, 966
    # of 1,000 where 0.9 won 964 (+19 -17, seeds 11 and 12).
    search_scripted_enemy: float = 0.9
    # The scripted players the search may play the enemy as, by the tracker's names
    # ("power", "heuristic"; see randbot/inference/choice_model.py).
    search_scripts: tuple[str, ...] = ("power", "heuristic")
    # With the enemy played as one of these scripts, only the replies it would click are
    # searched (one column of the game: worlds finish within the time). With the heuristic
    # among the scripts as well, against the default before: 1,440 of 1,500 against the
    # heuristic where it won 1,426 (+52 -38 over seeds 11-13, ahead on each). For "power" too:
    # 493 of 500 against MaxBasePowerPlayer where the default won 497 (+2 -6, seed 11): the
    # finished worlds let a one-turn value prefer a heal to progress.
    search_script_only: tuple[str, ...] = ("heuristic",)
    # The Defeat planner's duels let the enemy set up even once the tracker is sure it is a
    # script of search_scripts (False: not then; neither script ever sets up). Off: 963 of 1,000
    # against the heuristic where the default won 964 (+11 -12, seeds 11 and 12): on.
    planner_script_setup: bool = True
    # ... and give it only the moves that script clicks (none of base power 0, no recovery; for
    # MaxBasePowerPlayer its highest base power alone). Level: 484 of 500 against the heuristic
    # where the default won 484 (+6 -6, seed 11), 496 against MaxBasePowerPlayer where it won
    # 494 (+3 -1, seed 12): off.
    planner_script_moves: bool = False
    # Once we have switched by choice in each of this many decisions before, the search may not
    # replace the bot's move with a switch (0: off): against a script it predicts, each switch-in
    # takes a resisted hit and wins its one turn, and the switching never ends. At 2: 485 of 500
    # against the heuristic where the default won 484 (+6 -5, seed 11); on fresh draws, though
    # such loops decided two of 29 losses read on seed 39, 467 where the default won 474 (+4
    # -11, seed 36): off.
    search_switch_streak: int = 0
    # ... and this many turns are played after the one searched, the enemy clicking its script.
    # At 1: 476 of 500 against the heuristic where 0 won 484 (seed 11): off.
    search_script_rollout: int = 0
    # Once the enemy is played as a script whose clicks alone are searched, a choice the search
    # would play in place of the bot's is searched again, the bot's choice against it, each
    # valued a turn deeper: our best reply against the script's next click (for search_tie_ms).
    # The search's choice is played only if it still wins. On three draws against the heuristic
    # it won 1,443 of 1,500 where the default before won 1,424 (+44 -25, p = 0.03).
    search_confirm_reply: bool = True
    # The move the enemy's active last chose against ours, both still in, takes this share of
    # the search's model of the enemy's choice (0: off); see randbot/bot/pairingmoves.py. At 0.7
    # it won 1,415 of 1,500 against the heuristic where the default won 1,426 (+13 -24).
    search_repeat_share: float = 0.0
    search_leaf_depth: int = 4
    # Chance in a simulated turn: "likely" (the likely outcome of every roll, and both sides of the
    # first coin that could go either way, weighted) or "sampled" (one seeded throw of the dice).
    search_luck: str = "likely"
    # Which of the bot's choices the search may replace: "all", "moves" (a move by a move: the
    # plan's stay or switch stands) or "attacks" (a damaging move by another damaging move; see
    # randbot/lookahead/search.py).
    search_scope: str = "all"
    # The search runs only when at most this many Pokémon stand on both sides together (ours,
    # the enemy's seen and unseen): 12 is every turn.
    search_max_standing: int = 12
    # A plan's stay with a switch valued within this of it, left unvalued by the full search, is
    # searched again as the stay against those switches only (0: off), for search_tie_ms.
    # With skip_futile and the three duel mechanics above, against the bot without them, 500
    # battles each against the heuristic: 461 vs 457 (+23 -19, seed 11) and 465 vs 454 (+30 -19,
    # seed 12); not above noise (p = 0.14 pooled), but ahead on both draws. Alone: the tie search
    # 459 (+20 -18), the mechanics 454 (+11 -14), seed 11. Decision p95 60 -> 136 ms.
    search_tie_window: float = 0.1
    search_tie_ms: float = 150.0
    # ... and ends this long after the decision began (0: no such end), so a plan that used its
    # whole budget_ms leaves the tie search only the rest.
    search_tie_by_ms: float = 320.0
    # A switch the search would play in place of the bot's move is searched again, the move
    # against the switch alone (for search_tie_ms), with this many turns of both sides' strongest
    # moves after the turn searched; the switch is played only if it still wins (0: off). At 1 it
    # kept the move in a third of those switches and won 460 and 463 of 500 against the
    # heuristic where the default won 465 and 468 (+11 -16 seed 11, +9 -14 seed 12): off.
    search_switch_rollout: int = 0
    # The enemy's replies played likeliest first, and a world the deadline cut short counted when
    # every choice of ours met replies holding this share of the model rule's mix (0: only
    # complete worlds count; at 50 ms about 70% of searches completed no world). At 0.75 the
    # search valued 89% of the decisions it ran on and overrode 2.7 times as often, but won no
    # more: 467 vs 461 (+27 -21, seed 11) and 455 vs 465 (+25 -35, seed 12) of 500 against the
    # heuristic, so it is off.
    search_coverage: float = 0.0
    # The share of the enemy's choice the model rule gives its switches, spread evenly over them.
    # At 0.03 (about how often the heuristic player switches by choice), 466 of 500 against the
    # heuristic, as the default's 0.15 won on the same draws (+9 -9, seed 11): kept at 0.15.
    search_switch_share: float = 0.15

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_file(cls, path: str | Path) -> BotConfig:
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise RandbotError(f"cannot read bot config {path}: {exc}") from None
        return cls().with_overrides(data)

    def with_overrides(self, data: dict) -> BotConfig:
        known = {f.name: f.type for f in fields(self)}
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise RandbotError(
                f"unknown bot config keys: {', '.join(unknown)}; known: {', '.join(sorted(known))}"
            )
        config = replace(self, **data)
        if config.search_rule not in ("nash", "maximin", "mean", "model"):
            raise RandbotError(
                f"search_rule must be nash, maximin, mean or model, not {config.search_rule!r}"
            )
        if config.defeat_unseen not in ("ignore", "prior", "last"):
            raise RandbotError(
                f"defeat_unseen must be ignore, prior or last, not {config.defeat_unseen!r}"
            )
        if config.search_leaf not in ("static", "planner"):
            raise RandbotError(f"search_leaf must be static or planner, not {config.search_leaf!r}")
        if config.search_luck not in ("likely", "sampled"):
            raise RandbotError(f"search_luck must be likely or sampled, not {config.search_luck!r}")
        if config.search_scope not in ("all", "moves", "attacks"):
            raise RandbotError(
                f"search_scope must be all, moves or attacks, not {config.search_scope!r}"
            )
        for name in ("search_scripts", "search_script_only"):
            scripts = getattr(config, name)
            if isinstance(scripts, str) or not all(script in SCRIPTED for script in scripts):
                raise RandbotError(
                    f"{name} must be a list of {' and '.join(SCRIPTED)}, not {scripts!r}"
                )
            config = replace(config, **{name: tuple(scripts)})
        for name in NON_NEGATIVE:
            if getattr(config, name) < 0:
                raise RandbotError(f"{name} must be 0 or more, not {getattr(config, name)}")
        if not 0 <= config.search_coverage <= 1:
            raise RandbotError(
                f"search_coverage must be between 0 and 1, not {config.search_coverage}"
            )
        if not 0 <= config.search_switch_share < 1:
            raise RandbotError(
                f"search_switch_share must be from 0 up to 1, not {config.search_switch_share}"
            )
        if config.planner_builds < 1:
            raise RandbotError(f"planner_builds must be 1 or more, not {config.planner_builds}")
        if config.think_ms <= 0:
            raise RandbotError(f"think_ms must be positive, not {config.think_ms}")
        return config


# Ablation variants the player registry exposes under their own names.
VARIANTS: dict[str, dict] = {
    "randbot": {},
    "randbot-discover": {"discover": True, "defeat": False},  # Discover rules and switch logic only
    "randbot-defeat": {"discover": False},  # the planner from the first turn, no Discover rules
    # Discover's rules played as they are until the enemy team is known, then Defeat
    "randbot-thesis": {"discover": True, "discover_checked": False},
    "randbot-core": {"discover": False, "defeat": False},
    "randbot-noinfer": {"inference": False},
    "randbot-nochance": {"engine_chance": False},
    "randbot-notera": {"tera": False},
    "randbot-nogimmick": {"gimmicks": False},  # never Mega Evolves, Z-moves or Dynamaxes
    "randbot-pycalc": {"use_bridge": False},
    "randbot-search": {"search": True},  # the default since the search is on; kept as a name
    "randbot-nosearch": {"search": False},  # no lookahead on Showdown's simulator
}
