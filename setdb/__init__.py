"""The set database: random-battle builds per species, harvested from the game's own generator.

    from setdb import SetDB, Constraints
    db = SetDB.load("gen9randombattle")
    db.filter("Great Tusk", Constraints(moves=frozenset({"rapidspin"})))

Leaf package: imports nothing from randbot or collectors.
"""

from setdb.build import Build
from setdb.constraints import Constraints
from setdb.database import DATA_DIR, SetDB, available_formats
from setdb.errors import SetDBError
from setdb.formats import is_singles_random, set_database_format, singles_random_formats
from setdb.ids import to_id

__all__ = [
    "DATA_DIR",
    "Build",
    "Constraints",
    "SetDB",
    "SetDBError",
    "available_formats",
    "is_singles_random",
    "set_database_format",
    "singles_random_formats",
    "to_id",
]
