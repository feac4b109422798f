"""The compiled modules (Cython, built by ``pip install``; see docs/solver.md)."""

from Cython.Build import cythonize
from setuptools import Extension, setup

EXTENSIONS = [
    Extension("rebelote.fast._core", ["src/rebelote/fast/_core.pyx"], extra_compile_args=["-O3"]),
    Extension("rebelote.solver._search", ["src/rebelote/solver/_search.pyx"],
              extra_compile_args=["-O3"]),
]

setup(ext_modules=cythonize(EXTENSIONS, compiler_directives={"language_level": 3}))
