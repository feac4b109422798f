"""The compiled modules (Cython, built by ``pip install``; see docs/solver.md)."""

from Cython.Build import cythonize
from setuptools import Extension, setup

EXTENSIONS = [
    Extension("rebelote.fast._core", ["src/rebelote/fast/_core.pyx"], extra_compile_args=["-O3"]),
    Extension("rebelote.solver._search", ["src/rebelote/solver/_search.pyx"],
              extra_compile_args=["-O3"]),
]

# ``src`` on the include path: both modules cimport the shared rule of legal cards from
# ``rebelote/fast/_rules.pxd``.
setup(ext_modules=cythonize(EXTENSIONS, include_path=["src"],
                            compiler_directives={"language_level": 3}))
