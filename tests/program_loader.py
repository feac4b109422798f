"""The repository's programs (``bench/``, ``scripts/``, ``examples/``) loaded as modules, for
the tests that call their functions: they are files to run, not part of the package."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def load_program(path: str) -> ModuleType:
    """The program at ``path`` (relative to the repository's root, ``bench/judge.py``) as a
    module named after its file, registered in ``sys.modules`` (its dataclasses need it); its
    folder is put on ``sys.path`` as running it does (``bench/ladder.py`` imports
    ``strength``). A second load of the same program gives the first module back: two modules of
    one name would make its functions unpicklable for a process pool ("not the same object")."""
    name = Path(path).stem
    loaded = sys.modules.get(name)
    if loaded is not None and Path(getattr(loaded, "__file__", "") or "") == ROOT / path:
        return loaded
    folder = str((ROOT / path).parent)
    if folder not in sys.path:
        sys.path.append(folder)
    spec = importlib.util.spec_from_file_location(name, ROOT / path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
