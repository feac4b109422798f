"""The Makefile a newcomer runs (issue 18, item 12): ``make run`` says what it is doing before
each long silent step of its first run (the venv, pip's install with the Cython build, the
server), instead of 40 silent seconds."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(not shutil.which("make"), reason="make is absent")
def test_make_run_says_what_it_does_before_each_long_step(tmp_path: Path) -> None:
    # a dry run as on a fresh clone (a venv that does not exist yet): every command is listed
    out = subprocess.run(["make", "--dry-run", "--always-make", "-C", str(ROOT), "run",
                          f"VENV={tmp_path / 'venv'}"], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    commands = [(i, line) for i, line in enumerate(out) if not line.startswith("echo")]
    steps = [next(i for i, line in commands if "-m venv" in line),
             next(i for i, line in commands if "pip install" in line),
             next(i for i, line in commands if line.rstrip().endswith("rebelote serve"))]
    for before, i in zip([-1, *steps], steps, strict=False):  # announced since the last step
        said = [line for line in out[before + 1:i] if line.startswith("echo")]
        assert any("== make:" in line for line in said), (out[i], said)
    assert any("http://127.0.0.1:8000" in line and "echo" in line for line in out), out
    assert any("minute" in line and "echo" in line for line in out), out
