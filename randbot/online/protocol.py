"""Pure helpers on Showdown protocol lines: ratings, popups, and resuming a rejoined battle.

When we rejoin a battle room the server sends `|init|battle` and the room's whole log again.
poke-env would apply every event twice (boosts, hazards, damage), so `ResumeFilter` counts the
log lines already delivered for each battle and lets only the new ones through. Lines that the
live stream and the resent log do not share (joins and leaves, chat, timestamps, player
re-announcements, requests) are not counted.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

# Line types that are not part of the battle's event log, or differ between live and resent.
UNCOUNTED = frozenset(
    {
        "",
        "j",
        "J",
        "join",
        "l",
        "L",
        "leave",
        "n",
        "N",
        "name",
        "c",
        "c:",
        "chat",
        "raw",
        "html",
        "uhtml",
        "uhtmlchange",
        "inactive",
        "inactiveoff",
        "request",
        "error",
        "sentchoice",
        "bigerror",
        "player",
        "title",
        "t:",
        "init",
        "deinit",
        "noinit",
        "unlink",
        "hidelines",
        "timestamp",
        "notify",
        "tempnotify",
        "tempnotifyoff",
        "expire",
        "askreg",
        "message",
        "-message",
        "badge",
    }
)

_RATING = re.compile(
    r"^(?P<name>.+?)'s rating: (?P<before>-?\d+) &rarr; <strong>(?P<after>-?\d+)</strong>"
)


def line_type(line: str) -> str:
    if not line.startswith("|"):
        return ""
    return line.split("|", 2)[1]


def is_counted(line: str) -> bool:
    return line.startswith("|") and line_type(line) not in UNCOUNTED


@dataclass(frozen=True)
class RatingChange:
    name: str
    before: int
    after: int


def parse_rating(line: str) -> RatingChange | None:
    """`|raw|NAME's rating: 1000 &rarr; <strong>1040</strong><br />(+40 for winning)`."""
    if not line.startswith("|raw|"):
        return None
    match = _RATING.match(line[5:])
    if not match:
        return None
    return RatingChange(html.unescape(match["name"]), int(match["before"]), int(match["after"]))


def split_battle_message(message: str) -> tuple[str, list[str]]:
    """(`battle-tag`, lines after the room line) of a room message; tag '' for global ones."""
    lines = message.split("\n")
    if lines and lines[0].startswith(">"):
        return lines[0][1:].strip(), lines[1:]
    return "", lines


class ResumeFilter:
    """Per battle: count delivered log lines; on a resent `|init|`, drop the ones seen."""

    def __init__(self) -> None:
        self.delivered: dict[str, int] = {}
        self.resumed = 0

    def known(self, tag: str) -> bool:
        return tag in self.delivered

    def forget(self, tag: str) -> None:
        self.delivered.pop(tag, None)

    def filter(self, tag: str, lines: list[str]) -> list[str]:
        """The lines of one room message that poke-env should see."""
        resent = tag in self.delivered and any(line.startswith("|init|") for line in lines)
        if resent:
            lines = self._skip_seen(tag, lines)
            self.resumed += 1
        lines = _drop_answered_request(lines)
        self.delivered[tag] = self.delivered.get(tag, 0) + sum(1 for x in lines if is_counted(x))
        return lines

    def _skip_seen(self, tag: str, lines: list[str]) -> list[str]:
        to_skip = self.delivered[tag]
        kept: list[str] = []
        seen = 0
        for line in lines:
            if line.startswith("|init|"):
                continue
            if seen < to_skip:
                if is_counted(line):
                    seen += 1
                continue
            kept.append(line)
        return kept


def _drop_answered_request(lines: list[str]) -> list[str]:
    """A resent request followed by `|sentchoice|` was already answered: drop both."""
    if not any(line.startswith("|sentchoice|") for line in lines):
        return lines
    return [x for x in lines if not x.startswith(("|sentchoice|", "|request|"))]


# Popups the online loops can live with; any other popup while waiting for a battle is a refusal.
BENIGN_POPUPS = (
    "already searching",
    "went offline before your battle could start",
    "ratings not updated",
    "the ladder is temporarily disabled",
)


def is_benign_popup(text: str) -> bool:
    lowered = text.lower()
    return any(marker in lowered for marker in BENIGN_POPUPS)


def popup_summary(text: str) -> str:
    """A popup as one line: Showdown uses `||` for newlines inside popups."""
    parts = [p.strip(" -") for p in re.split(r"\|\||\n", text) if p.strip(" -")]
    return "; ".join(parts)[:300]
