"""One module per CLI command; each exposes `register(subparsers)`.

`register` adds the command's parser and sets `func` to a callable taking the parsed args and
returning an exit code. Modules are found by name, so adding a command touches no other file.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType


def command_modules() -> list[ModuleType]:
    names = sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))
    return [importlib.import_module(f"{__name__}.{name}") for name in names]
