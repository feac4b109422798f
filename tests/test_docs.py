"""The README and the documentation site (issue 36, item 6): the README stays short and says the
two commands of a fresh machine, and every page it sends a reader to exists; the site's pages
are all in its navigation. (The site itself is built with ``mkdocs build --strict`` by
scripts/test.sh: every link and anchor of the pages resolves.)"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_is_at_most_300_lines() -> None:
    assert len(README.splitlines()) <= 300


def test_the_readme_gives_the_two_commands_of_a_fresh_machine() -> None:
    quick = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", quick, re.S)
    assert block is not None
    commands = [line.split("#")[0].strip() for line in block.group(1).splitlines()]
    assert commands == ["make run", "make test"]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^run:", makefile, re.M) and re.search(r"^test:", makefile, re.M)


def test_every_link_of_the_readme_reaches_a_file() -> None:
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README)
    local = [link for link in links if "://" not in link]
    assert len(local) > 20, local  # where to read on
    missing = [link for link in local if not (ROOT / link).is_file()]
    assert missing == []


def test_every_page_of_docs_is_in_the_sites_navigation() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = config.split("\nnav:", 1)[1]
    listed = set(re.findall(r"^\s*- (?:[^:\n]+: )?([\w./-]+\.md)\s*$", nav, re.M))
    pages = {p.name for p in (ROOT / "docs").glob("*.md")}
    assert pages - listed == set()
    assert listed - pages == set()


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze is absent")
def test_the_systemd_units_of_the_docs_parse_without_a_warning(tmp_path: Path) -> None:
    page = (ROOT / "docs" / "ops-service.md").read_text(encoding="utf-8")
    units = re.findall(r"```ini\n(.*?)```", page, re.S)
    names = ["rebelote.service", "rebelote-prune.service", "rebelote-prune.timer"]
    assert len(units) == len(names)
    env = tmp_path / "env"
    env.write_text("REBELOTE_DB=sqlite:////var/lib/rebelote/counter.sqlite3\n")
    for name, unit in zip(names, units, strict=True):
        # the program and the environment file where this machine has them
        unit = unit.replace("/opt/rebelote/bin/rebelote", sys.executable)
        (tmp_path / name).write_text(unit.replace("/etc/rebelote/env", str(env)))
    run = subprocess.run(["systemd-analyze", "verify", "--man=no", *names], cwd=tmp_path,
                         capture_output=True, text=True)
    assert run.returncode == 0 and run.stderr.strip() == "", run.stderr
