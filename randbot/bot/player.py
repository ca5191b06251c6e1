"""RandBot: the Discover/Defeat player (thesis 3.6), a poke-env `Player` usable in your own poke-env code.

    from randbot import RandBot
    bot = RandBot(battle_format="gen9randombattle")   # the planner from turn one, 250 ms budget
    bot = RandBot(battle_format=..., bot_config=BotConfig(discover=True))  # the thesis's phases

Every decision runs under a deadline, falls back to a safe order on any exception, and writes one JSON
line to the "randbot.decision" logger (phase, rule, candidates with scores, assumed enemy build, ms).
"""

from __future__ import annotations

import logging
import sys
from collections import OrderedDict
from typing import Any

from poke_env.battle import AbstractBattle, Battle, Move
from poke_env.player import Player
from poke_env.player.battle_order import BattleOrder, DefaultBattleOrder

from randbot.bot.beliefs import Beliefs
from randbot.bot.calcpool import shared_calc
from randbot.bot.chargeclock import ChargeClock
from randbot.bot.config import BotConfig
from randbot.bot.damage import DamageOracle
from randbot.bot.decision import Deadline, Decision, explain, log_decision
from randbot.bot.formeclock import FormeClock
from randbot.bot.hitcount import HitCount
from randbot.bot.pairingmoves import PairingMoves
from randbot.bot.policy import decide, warm_up
from randbot.bot.toxicclock import ToxicClock
from randbot.bot.trapclock import TrapClock
from randbot.bot.truant import TruantWatch
from randbot.bot.weatherclock import WeatherClock
from randbot.formats import generation_of
from randbot.orders import refused_choices, switch_order
from randbot.protocol import (
    BattleEnded,
    Cant,
    Entered,
    MoveUsed,
    TurnStarted,
    read_event,
    room_of,
)

log = logging.getLogger("randbot.bot")
ENDED_REMEMBERED = 1000  # ended battles whose late messages are ignored (bounded)

try:  # the inference tracker is optional: without it the narrowed species prior is used
    from randbot.inference import TrackingPlayer as _Base  # type: ignore[attr-defined]
except Exception:  # noqa: BLE001 - any import problem means "no tracker"
    _Base = Player


class RandBot(_Base):  # type: ignore[misc, valid-type]
    def __init__(
        self, *args: Any, bot_config: BotConfig | None = None, explain: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.bot_config = bot_config or BotConfig()
        self.explain = explain
        self.beliefs = Beliefs(
            self.format,
            use_inference=self.bot_config.inference,
            top_k=self.bot_config.top_builds,
            merge_tera=self.bot_config.merge_tera_builds,
        )
        calc = shared_calc(generation_of(self.format)) if self.bot_config.use_bridge else None
        self.oracle = DamageOracle(calc=calc)
        if self.bot_config.inference_damage and calc is not None:
            # The tracker then checks damage taken and dealt against the calc's rolls.
            self.inference_calc = calc
        self.last_payload: dict[str, Any] | None = None
        self.fallbacks = 0
        # battle tag -> the sides ("p1"/"p2") that have acted since the last |turn|
        self._acted_this_turn: dict[str, set[str]] = {}
        # battle tag -> side -> the move its active chose since switching in (what a choice item locks)
        self._last_moves: dict[str, dict[str, str]] = {}
        # battle tag -> side -> every move its active used since switching in (Illusion evidence)
        self._entry_moves: dict[str, dict[str, set[str]]] = {}
        # battle tag -> side -> the moves that failed last turn (a Sucker Punch into a status move
        # fails again while the same two face each other); and the turn still being played
        self._failed_last_turn: dict[str, dict[str, set[str]]] = {}
        self._failing: dict[str, dict[str, set[str]]] = {}
        self._weather_clock = WeatherClock()
        self._toxic_clock = ToxicClock()
        self._trap_clock = TrapClock()
        self._charge_clock = ChargeClock()
        self._forme_clock = FormeClock()
        self._hit_count = HitCount()
        self._pairing_moves = PairingMoves()
        self._truant = TruantWatch()
        self._switch_streak: dict[str, int] = {}  # tag -> our voluntary switches in a row
        # battle tag -> the last choice we sent; and the one the server refused ("[Invalid choice]"),
        # which poke-env asks us to make again: the same choice would be refused forever
        self._sent: dict[str, str] = {}
        self._refused: dict[str, str] = {}
        # battles that ended: the messages that follow a win (|deinit|, ratings) add no entries
        self._ended: OrderedDict[str, None] = OrderedDict()
        warm_up(self.format, self.oracle)
        if self.bot_config.search:
            self._start_worker()
        if hasattr(self, "_inference_setdb_loaded"):
            # Share our already-loaded set database with the tracker instead of loading it per player.
            from randbot.bot.beliefs import _setdb

            self._inference_setdb = _setdb(self.format)
            self._inference_setdb_loaded = True

    def _start_worker(self) -> None:
        """Start (and warm) the simulator worker now, not in the first decision; a worker that
        cannot start leaves the bot without lookahead, logged, rather than without a bot."""
        from randbot.lookahead.worker import SimWorkerError, shared_worker

        try:
            shared_worker()
        except SimWorkerError as error:
            log.error("lookahead off: %s", error)
            self.bot_config = self.bot_config.with_overrides({"search": False})

    def _tracker(self, battle: AbstractBattle) -> Any | None:
        tracker = getattr(self, "tracker", None)
        if tracker is None or not self.bot_config.inference:
            return None
        try:
            return tracker(battle)
        except Exception:  # noqa: BLE001 - a tracker problem must not cost the decision
            return None

    async def _handle_battle_message(self, split_messages: list[list[str]]) -> None:
        try:
            self._note_actions(split_messages)
            self._note_refusals(split_messages)
        except Exception:  # noqa: BLE001 - bookkeeping must never break poke-env's processing
            log.exception("action bookkeeping failed")
        await super()._handle_battle_message(split_messages)

    def _note_refusals(self, split_messages: list[list[str]]) -> None:
        """Remember the choice the server refused, so that the next one can differ from it."""
        tag = room_of(split_messages)
        for refusal in refused_choices(split_messages):
            log.warning("%s: the server refused %r: %s", tag, self._sent.get(tag), refusal)
            if tag in self._sent:
                self._refused[tag] = self._sent[tag]

    def _note_actions(self, split_messages: list[list[str]]) -> None:
        """Which sides have acted since the last `|turn|`: a mid-turn switch request after our own
        U-turn or Volt Switch means the enemy may still hit whoever comes in."""
        tag = room_of(split_messages)
        if not tag.startswith("battle-") or tag in self._ended:
            return
        acted = self._acted_this_turn.setdefault(tag, set())
        last_moves = self._last_moves.setdefault(tag, {})
        entry_moves = self._entry_moves.setdefault(tag, {})
        failing = self._failing.setdefault(tag, {})
        mover = None  # the side whose move line came last: a -fail on it is its move failing
        for fields in split_messages[1:]:
            if len(fields) > 2 and fields[1] == "-fail" and fields[2][:2] == mover:
                if mover in last_moves:
                    failing.setdefault(mover, set()).add(last_moves[mover])
            self._weather_clock.note(tag, fields)
            self._toxic_clock.note(tag, fields)
            self._trap_clock.note(tag, fields)
            self._charge_clock.note(tag, fields)
            self._forme_clock.note(tag, fields)
            self._hit_count.note(tag, fields)
            self._pairing_moves.note(tag, fields)
            self._truant.note(tag, fields)
            event = read_event(fields[1:])
            if isinstance(event, TurnStarted):
                acted.clear()
                self._failed_last_turn[tag] = {side: set(m) for side, m in failing.items()}
                failing.clear()
            elif isinstance(event, MoveUsed | Cant):
                side = event.user.side if isinstance(event, MoveUsed) else event.ident.side
                acted.add(side)
            elif isinstance(event, Entered) and event.kind == "switch":
                acted.add(event.ident.side)
            if isinstance(event, MoveUsed):
                mover = event.user.side
                # a move called by another (Sleep Talk...) is not the one chosen, nor Struggle
                # (a Choice holder out of PP stays locked into its move)
                if not event.called and event.move_id != "struggle":
                    last_moves[event.user.side] = event.move_id
                    entry_moves.setdefault(event.user.side, set()).add(event.move_id)
            elif isinstance(event, Entered):
                if event.kind != "replace":
                    last_moves.pop(event.ident.side, None)
                entry_moves.pop(event.ident.side, None)
                failing.clear()  # a new pairing: what failed against the last one may not
                self._failed_last_turn.pop(tag, None)
            elif isinstance(event, BattleEnded):
                self._acted_this_turn.pop(tag, None)
                self._last_moves.pop(tag, None)
                self._entry_moves.pop(tag, None)
                self._failed_last_turn.pop(tag, None)
                self._failing.pop(tag, None)
                self._weather_clock.forget(tag)
                self._toxic_clock.forget(tag)
                self._trap_clock.forget(tag)
                self._charge_clock.forget(tag)
                self._forme_clock.forget(tag)
                self._hit_count.forget(tag)
                self._pairing_moves.forget(tag)
                self._truant.forget(tag)
                self._switch_streak.pop(tag, None)
                self._sent.pop(tag, None)
                self._refused.pop(tag, None)
                self._ended[tag] = None
                if len(self._ended) > ENDED_REMEMBERED:
                    self._ended.popitem(last=False)
                return

    def _enemy_to_move(self, battle: Battle) -> bool:
        if not battle.force_switch or battle.player_role not in ("p1", "p2"):
            return False
        active = battle.active_pokemon
        if active is None or active.fainted:
            return False  # a faint: replacements come at the end of the turn
        return _enemy_side(battle) not in self._acted_this_turn.get(battle.battle_tag, set())

    def _our_failed_moves(self, battle: Battle) -> frozenset[str]:
        """Our moves that failed last turn against the enemy still in front of us."""
        failed = self._failed_last_turn.get(battle.battle_tag, {})
        return frozenset(failed.get(battle.player_role or "", set()))

    def _enemy_repeat(self, battle: Battle) -> str | None:
        """The move the enemy's active last chose against our active, both still in."""
        return self._pairing_moves.of(battle.battle_tag, _enemy_side(battle))

    def _enemy_entry_moves(self, battle: Battle) -> set[str]:
        return set(self._entry_moves.get(battle.battle_tag, {}).get(_enemy_side(battle), set()))

    def choose_move(self, battle: AbstractBattle) -> BattleOrder:
        deadline = Deadline(self.bot_config.budget_ms)
        if not isinstance(battle, Battle):
            return self.choose_random_move(battle)
        self._weather_clock.correct(battle)
        self._toxic_clock.correct(battle)
        self._trap_clock.correct(battle)
        self._charge_clock.correct(battle)
        self._forme_clock.correct(battle)
        try:
            decision = decide(
                battle,
                self.beliefs,
                self.oracle,
                self.bot_config,
                deadline,
                self._tracker(battle),
                self._enemy_to_move(battle),
                self._last_moves.get(battle.battle_tag),
                self._enemy_entry_moves(battle),
                self._our_failed_moves(battle),
                self._hit_count.of(battle.battle_tag),
                self._enemy_repeat(battle),
                self._switch_streak.get(battle.battle_tag, 0),
                self._truant.loafing(battle.battle_tag),
            )
            order = self._order(battle, decision)
        except Exception as exc:  # noqa: BLE001 - never stall a battle: a safe order instead
            self.fallbacks += 1
            log.exception("decision failed in %s turn %s", battle.battle_tag, battle.turn)
            decision = Decision("move", "", "fallback", f"error: {type(exc).__name__}")
            order = self._safe_order(battle)
        refused = self._refused.pop(battle.battle_tag, None)
        if refused is not None and order.message == refused:
            # deterministic rules would send it again: Showdown's default choice is always legal
            decision = Decision(
                "move", "", "fallback", "refused-repeat", notes={"refused": refused}
            )
            order = DefaultBattleOrder()
        self._sent[battle.battle_tag] = order.message
        self._note_choice(battle, order)
        self._note_streak(battle, decision)
        payload = log_decision(battle.battle_tag, battle.turn, decision, deadline.elapsed_ms())
        self.last_payload = payload
        if self.explain:
            print(explain(payload), file=sys.stderr, flush=True)
        return order

    def _note_streak(self, battle: Battle, decision: Decision) -> None:
        tag = battle.battle_tag
        streak = self._switch_streak.get(tag, 0)
        self._switch_streak[tag] = streak_after(streak, decision, bool(battle.force_switch))

    def _note_choice(self, battle: Battle, order: BattleOrder) -> None:
        """Tell the tracker what we chose: if the enemy KOs us before we move, the move we chose
        bounds its speed (a Z-move or Max Move has another priority than its base move: not told)."""
        tracker = self._tracker(battle)
        if tracker is None or not hasattr(tracker, "note_our_choice"):
            return
        try:
            chosen = getattr(order, "order", None)
            if isinstance(chosen, Move):
                if getattr(order, "z_move", False) or getattr(order, "dynamax", False):
                    return
                tracker.note_our_choice(battle.turn, chosen.id)
            else:
                tracker.note_our_choice(battle.turn, None)
        except Exception:  # noqa: BLE001 - bookkeeping must never cost the decision
            log.exception("could not note our choice")

    def _order(self, battle: Battle, decision: Decision) -> BattleOrder:
        if decision.kind == "switch":
            poke = battle.team.get(decision.target)
            if poke is not None and poke in battle.available_switches:
                return switch_order(battle, poke)
        elif decision.kind == "move":
            for move in battle.available_moves:
                if move.id == decision.target:
                    return self.create_order(
                        move,
                        terastallize=decision.tera and battle.can_tera,
                        mega=decision.gimmick == "mega" and battle.can_mega_evolve,
                        z_move=decision.gimmick == "zmove" and battle.can_z_move,
                        dynamax=decision.gimmick == "dynamax" and battle.can_dynamax,
                    )
        return self._safe_order(battle)

    def _safe_order(self, battle: Battle) -> BattleOrder:
        """Fallback: the strongest-looking move by base power and type, else any legal order."""
        target = battle.opponent_active_pokemon
        if battle.available_moves and target is not None:

            def power(move) -> float:
                stab = 1.5 if move.type in battle.active_pokemon.types else 1.0
                return move.base_power * move.accuracy * stab * target.damage_multiplier(move)

            return self.create_order(max(battle.available_moves, key=power))
        return self.choose_random_move(battle)


def streak_after(streak: int, decision: Decision, forced: bool) -> int:
    """Our switches by choice in a row after this decision (a move or a forced switch ends it)."""
    return streak + 1 if decision.kind == "switch" and not forced else 0


def _enemy_side(battle: Battle) -> str:
    """The enemy's side id in the protocol ("p1" or "p2")."""
    return "p2" if battle.player_role == "p1" else "p1"
