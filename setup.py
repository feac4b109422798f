"""The compiled modules (Cython, built by ``pip install``; see docs/solver.md), optional.

From a git clone the ``.pyx`` sources are compiled by Cython; an sdist also carries the C files
Cython generated, so it builds without Cython. When no C compiler works (or
``REBELOTE_PURE=1``), the install goes on without them: rebelote then runs its plain-Python
engine and solver (the same answers, slower), and says so (``rebelote`` prints one line on
standard error; ``rebelote.build_info()``).
"""

import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

MODULES = {
    "rebelote.fast._core": "src/rebelote/fast/_core",
    "rebelote.solver._search": "src/rebelote/solver/_search",
}
ARGS = {"extra_compile_args": ["-O3"]}

FALLBACK = ("rebelote: the compiled engine and solver were not built ({why}); rebelote installs "
            "without them and runs its pure-Python engine and solver (the same answers, slower)")


def _say(message: str) -> None:
    line = "*" * 78
    sys.stderr.write(f"\n{line}\n{message}\n{line}\n\n")


def extensions() -> list[Extension]:
    if os.environ.get("REBELOTE_PURE"):
        _say(FALLBACK.format(why="REBELOTE_PURE is set"))
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        cythonize = None
    pyx = all(os.path.exists(path + ".pyx") for path in MODULES.values())
    if cythonize is not None and pyx:
        # ``src`` on the include path: both modules cimport the shared rule of legal cards
        # from ``rebelote/fast/_rules.pxd``.
        return list(cythonize([Extension(name, [path + ".pyx"], **ARGS)
                               for name, path in MODULES.items()],
                              include_path=["src"], compiler_directives={"language_level": 3}))
    if all(os.path.exists(path + ".c") for path in MODULES.values()):
        return [Extension(name, [path + ".c"], **ARGS) for name, path in MODULES.items()]
    _say(FALLBACK.format(why="neither Cython nor the generated C files are here"))
    return []


class OptionalBuildExt(build_ext):
    """``build_ext`` that lets the install go on when a module does not compile."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as e:  # no compiler at all (DistutilsPlatformError, OSError...)
            _say(FALLBACK.format(why=f"no C compiler: {e}"))

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as e:  # CompileError, LinkError, a compiler that is not there
            _say(FALLBACK.format(why=f"{ext.name} did not compile: {e}"))


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
