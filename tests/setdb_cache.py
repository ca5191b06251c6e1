"""The Gen 9 set database, loaded once for all the tests that feed battles to the tracker."""

from __future__ import annotations

from functools import cache


@cache
def gen9_setdb():
    from setdb import SetDB

    return SetDB.load("gen9randombattle")
