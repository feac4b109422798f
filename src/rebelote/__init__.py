"""rebelote: Belote and Coinche, exactly.

The core (cards, rules, scoring, match, auction, deal, record) is pure: no IO, no clock, and
randomness only through an injected ``random.Random`` or seed.

>>> sorted(compiled_modules())
['rebelote.fast._core', 'rebelote.solver._search']
"""

from __future__ import annotations

import os
from importlib.machinery import EXTENSION_SUFFIXES

__version__ = "0.1.0"

#: The compiled modules (Cython) and the plain-Python code that answers without them.
COMPILED_MODULES = {
    "rebelote.fast._core": "rebelote.fast.playout.reference_playout",
    "rebelote.solver._search": "rebelote.solver.reference.solve_reference",
}

#: The line the command line prints on standard error where the compiled modules are missing.
FALLBACK_LINE = ("rebelote: the compiled engine and solver are not built in this install (no C "
                 "compiler when it was installed); the pure-Python engine and solver answer, "
                 "the same, slower")


def compiled_modules() -> dict[str, bool]:
    """Each compiled module and whether this install has its file (looked for, not imported:
    the command line asks at every start)."""
    here = os.path.dirname(__file__)
    out = {}
    for name in COMPILED_MODULES:
        base = os.path.join(here, *name.split(".")[1:])
        out[name] = any(os.path.exists(base + suffix) for suffix in EXTENSION_SUFFIXES)
    return out
