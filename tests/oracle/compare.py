"""Helpers that put the implementation's answers beside the oracle's.

The implementation is reached only by its public interfaces: the ``rebelote`` command line
(many JSON lines in one run) and the documented Python functions. Answers are cut down to the
fields docs/interfaces.md requires before they are compared, so that extra fields are welcome.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from oracle import play
from oracle.scoring import rules_of, score_line

DEAL_FIELDS = ("outcome", "score", "held_over")
GAME_FIELDS = ("totals", "winner", "won_after_deal")


def rebelote_command() -> list[str]:
    """The ``rebelote`` program of this environment (the venv's, else the module)."""
    exe = Path(sys.executable).with_name("rebelote")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("rebelote")
    return [found] if found else [sys.executable, "-m", "rebelote.cli"]


def run_cli(subcommand: str, lines: Iterable[str], *args: str,
            timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run ``rebelote <subcommand>`` with ``lines`` on standard input."""
    return subprocess.run(
        [*rebelote_command(), subcommand, *args],
        input="".join(line if line.endswith("\n") else line + "\n" for line in lines),
        capture_output=True, text=True, timeout=timeout, check=False,
    )


def run_json_lines(subcommand: str, objs: Sequence[Any]) -> tuple[list[dict[str, Any]], int, str]:
    """Answers (one JSON object per input), exit status and standard error of one CLI run."""
    proc = run_cli(subcommand, [json.dumps(o) for o in objs])
    answers = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    return answers, proc.returncode, proc.stderr


def cut_deal(answer: Mapping[str, Any]) -> dict[str, Any]:
    if "error" in answer:
        return {"error": answer["error"]}
    return {k: answer.get(k, 0 if k == "held_over" else None) for k in DEAL_FIELDS}


def cut_answer(answer: Mapping[str, Any]) -> dict[str, Any]:
    """The required fields of a ``rebelote score`` answer (a deal's or a game's)."""
    if "error" in answer:
        return {"error": answer["error"]}
    if "deals" in answer:
        return {"deals": [cut_deal(d) for d in answer["deals"]],
                **{k: answer.get(k) for k in GAME_FIELDS}}
    return cut_deal(answer)


def expected_score(obj: Mapping[str, Any]) -> dict[str, Any]:
    """The oracle's answer to a line of ``rebelote score``."""
    return cut_answer(score_line(obj))


def expected_legal(obj: Mapping[str, Any]) -> dict[str, Any]:
    """The oracle's answer to a line of ``rebelote legal`` (legal cards sorted, or winner)."""
    opts = rules_of(obj)
    trick = [card for _, card in obj["trick"]]
    if "hand" in obj:
        return {"legal": sorted(play.legal_cards(obj["hand"], trick, obj["trump"], opts)),
                "winner": None}
    return {"winner": obj["trick"][play.trick_winner(trick, obj["trump"])][0],
            "points": play.trick_points(trick, obj["trump"], opts)}


def cut_legal(obj: Mapping[str, Any], answer: Mapping[str, Any]) -> dict[str, Any]:
    if "error" in answer:
        return {"error": answer["error"]}
    if "hand" in obj:
        return {"legal": sorted(answer.get("legal", [])), "winner": answer.get("winner", "absent")}
    return {"winner": answer.get("winner"), "points": answer.get("points")}


def mismatch_report(kind: str, rows: list[tuple[Any, Any, Any]], limit: int = 5) -> str:
    """A readable list of the first disagreements: input, oracle, implementation."""
    out = [f"{len(rows)} {kind} disagree with the oracle; the first {min(limit, len(rows))}:"]
    for obj, exp, got in rows[:limit]:
        out.append(f"  input:    {json.dumps(obj, ensure_ascii=False)}")
        out.append(f"  oracle:   {json.dumps(exp, ensure_ascii=False)}")
        out.append(f"  rebelote: {json.dumps(got, ensure_ascii=False)}")
    return "\n".join(out)


def assert_cli_scores_like_the_oracle(kind: str, objs: Sequence[Any]) -> None:
    """Run every object through one ``rebelote score`` and compare each answer with the
    oracle's; the report lists the first mismatches."""
    answers, status, err = run_json_lines("score", objs)
    assert "Traceback" not in err
    assert len(answers) == len(objs), err
    rows = []
    for obj, answer in zip(objs, answers, strict=True):
        exp, got = expected_score(obj), cut_answer(answer)
        if exp != got:
            rows.append((obj, exp, got))
    assert not rows, mismatch_report(kind, rows)
    assert status == 0
