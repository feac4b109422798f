"""The ``rebelote`` program (docs/interfaces.md): its start, kept light.

The commands are a Typer application (:mod:`rebelote.commands._app`); importing Typer (and the
pydantic it reads options with) and every command plugin costs more than playing 3000 random
deals. ``rebelote deal`` with plain options (:func:`rebelote.commands._deal.read_deal_options`)
is answered without them, by the same function as the Typer command; every other command line,
``--help`` and mistakes included, goes to the Typer application.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import typer

__all__ = ["main"]  # and ``app``, by __getattr__


def __getattr__(name: str) -> typer.Typer:
    """``rebelote.cli.app``: the Typer application, imported when first asked for."""
    if name == "app":
        from rebelote.commands._app import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main(argv: list[str] | None = None) -> None:
    """The console entry point (``argv``: the arguments, ``sys.argv[1:]`` by default)."""
    args = sys.argv[1:] if argv is None else argv
    _say_fallback()
    try:
        if args[:1] == ["deal"]:
            from rebelote.commands._deal import read_deal_options, run_deal

            options = read_deal_options(args[1:])
            if options is not None:
                sys.exit(run_deal(**options))
        from rebelote.commands._app import app

        app(args=args)
    except KeyboardInterrupt:
        sys.exit(130)


def _say_fallback() -> None:
    """One line on standard error where the compiled modules were not built (an install
    without a C compiler): the commands work, on the plain-Python engine and solver."""
    from rebelote import FALLBACK_LINE, compiled_modules

    if not all(compiled_modules().values()):
        print(FALLBACK_LINE, file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
