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
from setdb.ids import to_id

__all__ = ["DATA_DIR", "Build", "Constraints", "SetDB", "SetDBError", "available_formats", "to_id"]
