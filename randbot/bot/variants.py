"""Ablation variants as player classes, so the registry and `randbot play` can field them by name."""

from __future__ import annotations

from typing import Any

from randbot.bot.config import VARIANTS, BotConfig
from randbot.bot.player import RandBot


def _variant(name: str) -> type[RandBot]:
    overrides = VARIANTS[name]

    def __init__(
        self: RandBot, *args: Any, bot_config: BotConfig | None = None, **kwargs: Any
    ) -> None:
        RandBot.__init__(
            self, *args, bot_config=(bot_config or BotConfig()).with_overrides(overrides), **kwargs
        )

    cls_name = "RandBot" + "".join(part.title() for part in name.split("-")[1:])
    return type(
        cls_name, (RandBot,), {"__init__": __init__, "__doc__": f"RandBot with {overrides}"}
    )


RandBotDiscover = _variant("randbot-discover")
RandBotDefeat = _variant("randbot-defeat")
RandBotThesis = _variant("randbot-thesis")
RandBotCore = _variant("randbot-core")
RandBotNoinfer = _variant("randbot-noinfer")
RandBotNochance = _variant("randbot-nochance")
RandBotNotera = _variant("randbot-notera")
RandBotPycalc = _variant("randbot-pycalc")
RandBotSearch = _variant("randbot-search")
RandBotNosearch = _variant("randbot-nosearch")
RandBotNogimmick = _variant("randbot-nogimmick")
