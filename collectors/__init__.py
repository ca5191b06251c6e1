"""Harvesting random-battle builds into setdb: from the team generator, or from real battles."""

from collectors.errors import HarvestError

__all__ = ["HarvestError"]
