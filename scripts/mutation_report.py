"""The mutation score of each core module, from the results that `mutmut run` left in mutants/.

A mutant is *detected* when a test fails on it (killed), when mypy --strict rejects it (`make
test` runs mypy, so such a mutant never lands) or when it makes the tests time out. Mutants listed
as equivalent in docs/mutation.md (a line starting with ``- `<mutant name>` ``, then the reason)
are left out of the count: no test can tell them from the original. The score of a module is

    detected / (mutants - equivalent)

and the goal (issue 10) is at least 95 % in every module. A module some of whose mutants were not
run yet (a run stopped, or run for other modules only) is not measured: its score shows as ``-``.
Exits 1 when a module misses the goal or is not measured.

    python scripts/mutation_report.py [--survivors]
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL = 95.0

DETECTED = {1: "killed", 3: "killed", 37: "mypy", 36: "timeout", -24: "timeout", 24: "timeout",
            152: "timeout", 255: "timeout"}
SURVIVED = {0: "survived", 5: "no tests", 33: "no tests", None: "not run"}


def equivalent_mutants(doc: Path) -> dict[str, str]:
    """``{mutant name: reason}`` from the list in docs/mutation.md."""
    if not doc.exists():
        return {}
    found = {}
    for line in doc.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^\s*- `(rebelote\.[^`]+__mutmut_\d+)`:?\s*(.*)$", line)
        if m:
            found[m.group(1)] = m.group(2)
    return found


def module_results(mutants: Path) -> dict[str, dict[str, int | None]]:
    """``{module: {mutant name: exit code}}`` from mutmut's ``*.py.meta`` files."""
    out = {}
    for meta in sorted(mutants.glob("src/**/*.py.meta")):
        module = ".".join(meta.relative_to(mutants / "src").with_suffix("").with_suffix("").parts)
        codes = json.loads(meta.read_text(encoding="utf-8")).get("exit_code_by_key", {})
        if codes:
            out[module] = codes
    return out


def _percent(c: Counter[str]) -> float:
    """detected / (mutants - equivalent), in percent."""
    counted = c["mutants"] - c["equiv"]
    return 100.0 * (c["killed"] + c["mypy"] + c["timeout"]) / counted if counted else 100.0


def _score(c: Counter[str]) -> str:
    """The score, or ``-`` while some mutants were not run (the module is not measured)."""
    return "-" if c["not run"] else f"{_percent(c):.1f}%"


def main(argv: list[str]) -> int:
    show_survivors = "--survivors" in argv
    results = module_results(ROOT / "mutants")
    if not results:
        print("no mutation results: run `make mutation` first")
        return 1
    equivalent = equivalent_mutants(ROOT / "docs" / "mutation.md")
    header = (f"{'module':<24}{'mutants':>8}{'killed':>8}{'mypy':>6}{'timeout':>8}{'equiv':>7}"
              f"{'alive':>7}{'not run':>8}{'score':>9}")
    print(header)
    print("-" * len(header))
    failed = False
    alive_names: list[tuple[str, str]] = []
    totals: Counter[str] = Counter()
    for module, codes in results.items():
        c: Counter[str] = Counter()
        for name, code in codes.items():
            if name in equivalent:
                c["equiv"] += 1
            elif code in DETECTED:
                c[DETECTED[code]] += 1
            elif code is None:
                c["not run"] += 1
            else:
                c["alive"] += 1
                alive_names.append((name, SURVIVED.get(code, "suspicious")))
        c["mutants"] = len(codes)
        totals.update(c)
        print(f"{module:<24}{c['mutants']:>8}{c['killed']:>8}{c['mypy']:>6}{c['timeout']:>8}"
              f"{c['equiv']:>7}{c['alive']:>7}{c['not run']:>8}{_score(c):>9}")
        failed |= c["not run"] > 0 or _percent(c) < GOAL
    print("-" * len(header))
    print(f"{'all':<24}{totals['mutants']:>8}{totals['killed']:>8}{totals['mypy']:>6}"
          f"{totals['timeout']:>8}{totals['equiv']:>7}{totals['alive']:>7}{totals['not run']:>8}"
          f"{_score(totals):>9}")
    if totals["not run"]:
        print(f"\n{totals['not run']} mutant(s) not run yet: a module with mutants not run is not "
              "measured (its score is left out)")
    stale = sorted(set(equivalent) - {n for codes in results.values() for n in codes})
    if stale:
        print(f"\n{len(stale)} mutant(s) listed as equivalent in docs/mutation.md no longer exist "
              "(the code moved): check the list")
    if show_survivors or failed:
        print(f"\n{len(alive_names)} mutant(s) alive (see one with `.venv/bin/mutmut show NAME`):")
        for name, status in alive_names:
            print(f"  {name}  [{status}]")
    print(f"\ngoal: >= {GOAL:.0f}% in every module: {'missed' if failed else 'met'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
