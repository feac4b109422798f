"""The package installs anywhere: ``build`` makes an sdist and a wheel from a clean copy of
the tree (as ``python -m build`` does); the wheel installs into a fresh venv and runs
``rebelote score`` and the compiled solver; the sdist installed where no C compiler works
(``CC=/bin/false``) falls back to the pure-Python engine and solver, says so in one line, and
still answers.

Slow (a fresh venv with every dependency, a build): 14.5 s of CPU (17.6 s with two isolated
build environments and the modules' debug information, measured side by side; 40 s before pip
stopped byte-compiling what it installs)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

from rebelote import FALLBACK_LINE
from rebelote.bots import known_bots

ROOT = Path(__file__).resolve().parents[1]
SCORE = ('{"game": "coinche", "trump": "spades", "taker": "NS", "contract": 90, '
         '"points": {"NS": 97}}')
SOLVE = json.dumps({"game": "coinche", "trump": "hearts",
                    "hands": {"N": ["JH", "AS", "7D"], "E": ["9H", "AD", "8D"],
                              "S": ["TS", "8H", "TD"], "W": ["8S", "7H", "QD"]},
                    "leader": "N", "points": {"NS": 73, "EW": 0}, "tricks": {"NS": 5, "EW": 0}})
IGNORED = shutil.ignore_patterns(".venv", "venv", ".git", "build", "dist", "*.egg-info", "*.so",
                                 "*.c", "__pycache__", ".mypy_cache", ".ruff_cache",
                                 ".pytest_cache", ".hypothesis", "mutants", "node_modules")

pytestmark = pytest.mark.slow

#: ``python -m build`` as it builds (an sdist from the tree, then the wheel from the unpacked
#: sdist, each in an isolated environment holding the build-system's requirements), with one
#: isolated environment for both (``python -m build`` made two: a venv and a pip run of
#: setuptools, wheel and Cython more, 1.2 s of CPU).
BUILD = """
import os, sys, tarfile, tempfile
from build import ProjectBuilder
from build.env import DefaultIsolatedEnv
src, out = sys.argv[1:]
with DefaultIsolatedEnv() as env:
    builder = ProjectBuilder.from_isolated_env(env, src)
    env.install(builder.build_system_requires)
    env.install(builder.get_requires_for_build("sdist"))
    sdist = builder.build("sdist", out)
    with tempfile.TemporaryDirectory() as tmp, tarfile.open(sdist) as tar:
        tar.extractall(tmp, filter="data")
        unpacked = os.path.join(tmp, os.path.basename(sdist).removesuffix(".tar.gz"))
        builder = ProjectBuilder.from_isolated_env(env, unpacked)
        env.install(builder.get_requires_for_build("wheel"))
        builder.build("wheel", out)
"""


def run(args: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
    # pip does not byte-compile what it installs (here and in the build's isolated
    # environments: Cython, every dependency): a third of this test's time, and no part of
    # what it checks. pip reads PIP_NO_COMPILE backwards: "0" is --no-compile. The commands
    # write the bytecode of what they import instead (not under PYTHONDONTWRITEBYTECODE).
    env = {**os.environ, "PIP_NO_COMPILE": "0", **kw.pop("env", {})}  # type: ignore[dict-item]
    for name in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE"):
        env.pop(name, None)
    out = subprocess.run(args, capture_output=True, text=True, timeout=600, env=env, check=False,
                         **kw)  # type: ignore[call-overload]
    assert out.returncode == 0, f"{args}: {out.stdout[-2000:]}\n{out.stderr[-4000:]}"
    return out  # type: ignore[no-any-return]


def test_the_wheel_installs_in_a_fresh_venv_and_the_sdist_without_a_compiler(
        tmp_path: Path) -> None:
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=IGNORED)
    dist = tmp_path / "dist"
    # the compiled modules without debug information (-g0 after Python's -g; the -O3 of
    # setup.py still last): gcc took 4.2 s of CPU for the two, 3.3 s without it
    run([sys.executable, "-c", BUILD, str(src), str(dist)], env={"CFLAGS": "-g0"})
    wheels = list(dist.glob("rebelote-*.whl"))
    sdists = list(dist.glob("rebelote-*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1
    with zipfile.ZipFile(wheels[0]) as whl:  # the compiled modules, not their C
        names = whl.namelist()
    assert sum(n.endswith(".so") for n in names) == 2 and not any(n.endswith(".c") for n in names)
    with tarfile.open(sdists[0]) as sdist:  # the C files Cython generated, to build without it
        members = sdist.getnames()
    assert sum(n.endswith((".c", ".pyx")) for n in members) == 4

    # the wheel, in a fresh venv (outside the tree: nothing of the source is importable),
    # installed by this pip (--python: pip itself is no part of what rebelote needs, and
    # putting it into the venv took 3 s)
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=False)
    py = str(env_dir / "bin" / "python")
    pip = [sys.executable, "-m", "pip", "--python", py]
    rebelote = str(env_dir / "bin" / "rebelote")
    # with what the sdist's install below needs (setuptools and wheel, not Cython): one pip run
    run([*pip, "install", "-q", str(wheels[0]), "setuptools>=77", "wheel"], cwd=tmp_path)
    score = run([rebelote, "score"], input=SCORE + "\n", cwd=tmp_path)
    assert json.loads(score.stdout)["score"] == {"NS": 190, "EW": 70}
    assert FALLBACK_LINE not in score.stderr
    solved = run([rebelote, "solve"], input=SOLVE + "\n", cwd=tmp_path)
    answer = json.loads(solved.stdout)
    compiled = run([py, "-c", "import rebelote, rebelote.solver as s, rebelote.fast.playout as p;"
                              "print(s.COMPILED, p._core is not None, rebelote.__file__)"],
                   cwd=tmp_path).stdout.split()
    assert compiled[:2] == ["True", "True"] and str(env_dir) in compiled[2]

    # the sdist, where no C compiler works and without Cython (its generated C files then):
    # the pure-Python engine and solver, said in one line (setuptools and wheel came above)
    assert run([py, "-c", "import importlib.util as u; print(u.find_spec('Cython'))"],
               cwd=tmp_path).stdout.strip() == "None"
    built = run([*pip, "install", "-v", "--force-reinstall", "--no-deps",
                 "--no-cache-dir", "--no-build-isolation", str(sdists[0])], cwd=tmp_path,
                env={"CC": "/bin/false", "CXX": "/bin/false", "LDSHARED": "/bin/false"})
    assert "rebelote installs without them" in built.stdout + built.stderr
    pure = run([py, "-c", "import rebelote, rebelote.solver as s, rebelote.fast.playout as p;"
                          "print(s.COMPILED, p._core is not None, rebelote.compiled_modules())"],
               cwd=tmp_path).stdout
    assert pure.startswith("False False"), pure
    score = run([rebelote, "score"], input=SCORE + "\n", cwd=tmp_path)
    assert json.loads(score.stdout)["score"] == {"NS": 190, "EW": 70}
    assert score.stderr.strip().splitlines() == [FALLBACK_LINE]
    solved = run([rebelote, "solve"], input=SOLVE + "\n", cwd=tmp_path)
    assert json.loads(solved.stdout) == answer  # the plain solver: the same values
    deal = run([rebelote, "deal", "--count", "2", "--bots", "heuristic"], cwd=tmp_path)
    assert len(deal.stdout.splitlines()) == 2
    # the bots' shipped data too (the learned bidder's weights): every cheap bot plays a deal
    cheap = [b for b in ("random", "heuristic", "learned", "tuned") if b in known_bots()]
    deal = run([rebelote, "deal", "--count", "1", "--bots",
                ",".join((cheap * 4)[:4])], cwd=tmp_path)
    assert len(deal.stdout.splitlines()) == 1
