"""TrackingPlayer: a poke-env player mixin that feeds every battle's protocol lines into a BattleTracker."""

from __future__ import annotations

import logging
from typing import Any

from poke_env.battle import AbstractBattle
from poke_env.player import Player

from randbot.inference.builds import load_setdb
from randbot.inference.tracker import BattleTracker
from randbot.protocol import room_of

log = logging.getLogger("randbot.inference")


class TrackingPlayer(Player):
    """Keeps one tracker per battle, fed before poke-env sees each message (so decisions see it too).

    Set `inference_calc` (a damagecalc_bridge.DamageCalc) before battles start to enable damage-roll checks.
    """

    inference_calc: Any = None

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._trackers: dict[str, BattleTracker] = {}
        self._inference_setdb: Any = None
        self._inference_setdb_loaded = False

    def tracker(self, battle: AbstractBattle | str) -> BattleTracker:
        tag = battle if isinstance(battle, str) else battle.battle_tag
        tracker = self._trackers.get(tag)
        if tracker is None:
            tracker = self._new_tracker(tag)
        if not isinstance(battle, str) and tracker.our_role is None and battle.player_role:
            tracker.our_role = battle.player_role
        return tracker

    def _new_tracker(self, tag: str) -> BattleTracker:
        if not self._inference_setdb_loaded:
            self._inference_setdb = load_setdb(self.format)
            self._inference_setdb_loaded = True
        tracker = BattleTracker(
            format_id=self.format,
            our_role=None,
            setdb=self._inference_setdb,
            calc=self.inference_calc,
            our_name=self.username,
        )
        self._trackers[tag] = tracker
        return tracker

    async def _handle_battle_message(self, split_messages: list[list[str]]) -> None:
        try:
            self.feed_trackers(split_messages)
        except Exception:  # noqa: BLE001 - tracking must never break poke-env's own processing
            log.exception("tracker failed on a message")
        await super()._handle_battle_message(split_messages)

    def feed_trackers(self, split_messages: list[list[str]]) -> None:
        """One chunk of a battle room's messages (its first line names the room) into the room's
        tracker; a replay feeds its chunks here as the websocket would."""
        tag = room_of(split_messages)
        if tag.startswith("battle-"):
            tracker = self._trackers.get(tag) or self._new_tracker(tag)
            for fields in split_messages[1:]:
                if len(fields) > 1:
                    tracker.feed("|".join(fields))

    def _battle_finished_callback(self, battle: AbstractBattle) -> None:
        super()._battle_finished_callback(battle)
        # Follow the player's own pruning of finished battles, so memory stays bounded.
        live = set(self._battles)
        for tag in [t for t in self._trackers if t not in live]:
            del self._trackers[tag]
