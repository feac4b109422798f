"""Outside bots over the line protocol (``engine:<command>``): whole matches in the arena and
``rebelote deal``, one program a seat for a match, and every fault (an illegal answer, a line
that is no action, a crash, an unasked line, a silence) stopping the match with a message that
names the engine, the seat, the deal and the answer, the program always reaped."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from rebelote.arena import ArenaConfig, run_arena
from rebelote.bots import EngineBot, EngineError, is_engine_spec, make_bot, parse_bot_spec
from rebelote.deal import DealState
from rebelote.errors import InputError
from rebelote.rules import Rules
from rebelote.table.model import bot_spec

ROOT = Path(__file__).resolve().parents[1]
FIRST_LEGAL = ROOT / "examples" / "first_legal.py"
PY = sys.executable


def engine(script: Path) -> str:
    return f"engine:{PY} {script}"


def write_bot(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / name
    path.write_text("import json, os, sys, time\n" + body, encoding="utf-8")
    return path


def alive(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie, not reaped, counts as alive)."""
    return Path(f"/proc/{pid}").exists()


def first_observation(game: str = "coinche", seed: int = 3):  # type: ignore[no-untyped-def]
    state = DealState.new(Rules.preset("official", game), dealer=3, seed=seed)
    return state.observation(state.player)


# -- specs ---------------------------------------------------------------------------------------
def test_engine_specs_keep_their_command() -> None:
    spec = parse_bot_spec("  Engine:python3  My Bot.py --depth 3 ")
    assert (spec.name, spec.level, str(spec)) == ("engine", "python3  My Bot.py --depth 3",
                                                  "engine:python3  My Bot.py --depth 3")
    assert is_engine_spec("engine-events:./bot") and not is_engine_spec("heuristic")
    for bad in ("engine", "engine:", "engine:  ", "engine:'unclosed"):
        with pytest.raises(ValueError, match="engine"):
            parse_bot_spec(bad)
    bot = make_bot("engine:python3 bot.py", engine_timeout=2.5)
    assert isinstance(bot, EngineBot) and bot.timeout == 2.5 and bot.pid is None  # not started
    with pytest.raises(ValueError, match="timeout"):
        make_bot("engine:python3 bot.py", engine_timeout=0)


def test_the_play_table_refuses_engine_specs() -> None:
    with pytest.raises(InputError, match="never by a server"):
        bot_spec("engine:python3 bot.py")
    assert bot_spec("engine:python3 bot.py", allow_engine=True) == "engine:python3 bot.py"


def test_the_table_api_refuses_engine_specs_and_starts_nothing(tmp_path: Path) -> None:
    from rebelote.web.app import create_app

    marker = tmp_path / "started"
    bot = write_bot(tmp_path, "bot.py", f"open({str(marker)!r}, 'w').close()\n")
    app = create_app(f"sqlite:///{tmp_path / 'tables.db'}")
    with TestClient(app) as client:
        for bots in (engine(bot), {"N": engine(bot)}, {"E": f"engine-events:{PY} {bot}"}):
            r = client.post("/api/tables", json={"game": "coinche", "bots": bots})
            assert r.status_code == 422, r.text
            assert r.json()["error"].startswith("bots"), r.text
    time.sleep(0.2)
    assert not marker.exists()


# -- whole matches -------------------------------------------------------------------------------
def test_the_arena_plays_whole_matches_against_the_example() -> None:
    config = ArenaConfig(a="heuristic", b=engine(FIRST_LEGAL), game="belote", deals=6, games=1,
                         seed=2)
    result = run_arena(config)
    assert len(result.deals) == 6 and len(result.games) == 1
    assert result.times_b  # the outside bot's decisions are timed like any bot's
    # the same seed, the same match: the protocol adds no randomness
    again = run_arena(config)
    assert [d.diffs for d in again.deals] == [d.diffs for d in result.deals]


def test_one_program_a_seat_for_the_whole_match(tmp_path: Path) -> None:
    log = tmp_path / "log"
    bot = write_bot(tmp_path, "bot.py", f"""
for line in sys.stdin:
    m = json.loads(line)
    with open({str(log)!r}, "a") as f:
        f.write(f"{{os.getpid()}} {{m['seat']}} {{m['deal']}}\\n")
    print(m["legal"][-1], flush=True)
""")
    run_arena(ArenaConfig(a=engine(bot), b="random", game="coinche", deals=12, seed=1))
    rows = [line.split() for line in log.read_text().splitlines()]
    seats_of: dict[str, set[str]] = {}
    for pid, seat, _ in rows:
        seats_of.setdefault(pid, set()).add(seat)
    # A sits at N-S then E-W of each duplicate deal: four programs, one seat each, all match
    assert sorted(s for seats in seats_of.values() for s in seats) == ["E", "N", "S", "W"]
    assert all(len(seats) == 1 for seats in seats_of.values())
    assert {int(d) for _, _, d in rows} == set(range(1, 13))  # each program saw 12 deals
    for pid in seats_of:
        assert not alive(int(pid))  # stopped and reaped when the match ended


def test_a_process_pool_keeps_one_program_a_seat_per_worker(tmp_path: Path) -> None:
    log = tmp_path / "log"
    bot = write_bot(tmp_path, "bot.py", f"""
for line in sys.stdin:
    m = json.loads(line)
    with open({str(log)!r}, "a") as f:
        f.write(f"{{os.getpid()}} {{m['seat']}}\\n")
    print(m["legal"][0], flush=True)
""")
    config = ArenaConfig(a=engine(bot), b="heuristic", game="contree", deals=40, seed=4)
    pooled = run_arena(config, workers=2)
    assert [d.diffs for d in pooled.deals] == [d.diffs for d in run_arena(config).deals]
    pids = {line.split()[0] for line in log.read_text().splitlines()}
    assert len(pids) <= 4 * 2 + 4  # per worker, one a seat (and the single process's run)
    time.sleep(0.5)
    assert not any(alive(int(p)) for p in pids)


def test_rebelote_deal_seats_outside_bots() -> None:
    ours = subprocess.run([PY, "-m", "rebelote.cli", "deal", "--count", "3", "--seed", "5",
                           "--bots", "engine:" + f"{PY} {FIRST_LEGAL}"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert ours.returncode == 0, ours.stderr
    records = [json.loads(x) for x in ours.stdout.splitlines()]
    assert len(records) == 3 and all("result" in r for r in records)


def test_events_bots_get_deal_and_result_lines(tmp_path: Path) -> None:
    log = tmp_path / "lines"
    bot = write_bot(tmp_path, "bot.py", f"""
for line in sys.stdin:
    with open({str(log)!r}, "a") as f:
        f.write(line)
    m = json.loads(line)
    if m["type"] == "act":
        print(m["legal"][0], flush=True)
""")
    run_arena(ArenaConfig(a=f"engine-events:{PY} {bot}", b="random", game="belote", deals=2,
                          games=1, seed=3))
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    kinds = [m["type"] for m in lines]
    assert set(kinds) == {"deal", "act", "result"}
    for m in lines:
        assert m["protocol"] == 1
    per_pid_seat: dict[str, list[str]] = {}
    for m in lines:
        per_pid_seat.setdefault(m["seat"], []).append(m["type"])
    for types in per_pid_seat.values():
        # each deal: its start, its acts, its result, in that order
        text = " ".join(types)
        assert text.startswith("deal act") and text.endswith("act result")
        assert text.count("deal") == text.count("result")
    result = next(m for m in lines if m["type"] == "result")
    assert result["outcome"] in ("made", "failed", "litige", "void")
    assert set(result["marks"]) == {"NS", "EW"} and result["legal"] == []
    act = next(m for m in lines if m["type"] == "act")
    assert act["rules_text"].startswith("belote:") and act["legal"]
    assert {"hand", "auction", "tricks", "trick", "declarations", "scores", "seat",
            "dealer"} <= set(act)


# -- faults --------------------------------------------------------------------------------------
FAULTS = {
    "illegal": ("print('pass' if m['legal'][0] != 'pass' else 'AS'); sys.stdout.flush()",
                r"answered '(pass|AS)', which is not legal here \(legal: "),
    "not an action": ("print('I resign'); sys.stdout.flush()",
                      r"answered 'I resign', which is not an action"),
    "empty": ("print(); sys.stdout.flush()", r"answered an empty line"),
    "not utf-8": ("sys.stdout.buffer.write(b'\\xff\\xfe\\n'); sys.stdout.flush()",
                  r"not UTF-8"),
    "too long": ("print('x' * 5000); sys.stdout.flush()", r"longer than 1000 bytes"),
    "crash": ("sys.exit(3)", r"exited with status 3 instead of answering"),
    "killed": ("os.kill(os.getpid(), 9)", r"crashed \(killed by SIGKILL\)"),
    "two lines": ("sys.stdout.write(m['legal'][0] + '\\n' + m['legal'][0] + '\\n'); "
                  "sys.stdout.flush(); time.sleep(1)",
                  r"wrote '.+' when no answer was asked for"),
    "silence": ("time.sleep(60)", r"no answer within 0.5 s"),
    "half a line": ("sys.stdout.write('pa'); sys.stdout.flush(); time.sleep(60)",
                    r"no answer within 0.5 s \(it had written 'pa'\)"),
}


@pytest.mark.parametrize("fault", list(FAULTS))
def test_each_fault_stops_the_match_naming_engine_seat_deal_and_answer(tmp_path: Path,
                                                                      fault: str) -> None:
    code, message = FAULTS[fault]
    bot = write_bot(tmp_path, "bot.py", f"""
for line in sys.stdin:
    m = json.loads(line)
    with open({str(tmp_path / 'pid')!r}, "w") as f:
        f.write(str(os.getpid()))
    if m["trick"][1:] or len(m["auction"]) >= 2:  # a few good answers first
        {code}
    else:
        print(m["legal"][0], flush=True)
""")
    config = ArenaConfig(a="random", b=engine(bot), game="coinche", deals=3, seed=9,
                         engine_timeout=0.5)
    t0 = time.monotonic()
    with pytest.raises(EngineError, match=message) as caught:
        run_arena(config)
    assert time.monotonic() - t0 < 8  # nothing hangs
    text = str(caught.value)
    assert text.startswith(f"engine '{PY} {bot}' at seat ")
    assert "deal 1 (dealer " in text and ", hand " in text and "coinche:official" in text
    pid = int((tmp_path / "pid").read_text())
    assert not alive(pid)


def test_a_command_that_cannot_start_is_named() -> None:
    bot = make_bot("engine:/nonexistent/bot --fast")
    with pytest.raises(EngineError, match=r"engine '/nonexistent/bot --fast' at seat .*: "
                                          r"cannot start"):
        bot.act(first_observation(), __import__("random").Random(0))


def test_a_bot_that_never_reads_cannot_block_rebelote(tmp_path: Path) -> None:
    """A program that answers without reading fills its input pipe: the write has a deadline
    too."""
    bot_path = write_bot(tmp_path, "bot.py", "while True:\n    time.sleep(1)\n")
    bot = EngineBot(f"{PY} {bot_path}", timeout=0.5)
    obs = first_observation()
    big = obs._replace(legal=obs.legal * 4000)  # a line longer than a pipe's buffer
    t0 = time.monotonic()
    with pytest.raises(EngineError, match="did not read its input within 0.5 s"):
        bot.act(big, __import__("random").Random(0))
    assert time.monotonic() - t0 < 5
    assert bot.pid is None


def test_the_programs_children_are_stopped_with_it(tmp_path: Path) -> None:
    child_pid = tmp_path / "child"
    script = tmp_path / "bot.sh"
    script.write_text(f"#!/bin/sh\nsleep 300 &\necho $! > {child_pid}\nexec {PY} "
                      f"{FIRST_LEGAL}\n", encoding="utf-8")
    script.chmod(0o755)
    bot = EngineBot(str(script), timeout=5)
    obs = first_observation()
    action = bot.act(obs, __import__("random").Random(0))
    assert action == obs.legal[0]
    pid = int(child_pid.read_text())
    assert alive(pid)
    bot.close()
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline and _running(pid):
        time.sleep(0.05)
    assert not _running(pid)


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie waiting for init is stopped


def test_the_command_line_says_the_fault(tmp_path: Path) -> None:
    bot = write_bot(tmp_path, "bot.py", "for line in sys.stdin:\n    print('nonsense', "
                                        "flush=True)\n")
    arena = subprocess.run([PY, "-m", "rebelote.cli", "arena", "--a", "heuristic", "--b",
                            engine(bot), "--deals", "2", "--engine-timeout", "3"],
                           capture_output=True, text=True, timeout=60, check=False)
    assert arena.returncode == 2
    assert arena.stderr.startswith(f"rebelote: engine '{PY} {bot}' at seat ")
    assert "answered 'nonsense', which is not an action" in arena.stderr
    assert "Traceback" not in arena.stderr
    deal = subprocess.run([PY, "-m", "rebelote.cli", "deal", "--bots",
                           f"random,random,{engine(bot)},random", "--engine-timeout", "3"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert deal.returncode == 1 and "at seat S, deal 1" in deal.stderr, deal.stderr
    assert "Traceback" not in deal.stderr


def test_the_answer_may_be_written_in_any_accepted_form(tmp_path: Path) -> None:
    """The answer is read like any action's text: ``10S`` for ``TS``, case and spaces aside."""
    bot = write_bot(tmp_path, "bot.py", """
for line in sys.stdin:
    m = json.loads(line)
    a = m["legal"][-1]
    print("  " + (a.replace("T", "10").lower() if len(a) == 2 else a.upper()) + " \\r",
          flush=True)
""")
    result = run_arena(ArenaConfig(a=engine(bot), b="heuristic", game="coinche", deals=2,
                                   seed=1))
    assert len(result.deals) == 2
    assert os.path.exists(bot)


# -- the docs ------------------------------------------------------------------------------------
def _doc() -> str:
    return (ROOT / "docs" / "interfaces.md").read_text(encoding="utf-8")


def test_the_documented_act_line_has_the_fields_of_a_real_one() -> None:
    doc = _doc()
    start = doc.index('{"type": "act"')
    documented = json.loads(doc[start:doc.index("```", start)])
    bot = EngineBot("unused")
    real = json.loads(bot.act_line(first_observation()))
    assert set(documented) == set(real)
    assert documented["rules_text"] == "coinche:official"


def test_the_complete_bot_of_the_docs_plays_whole_matches(tmp_path: Path) -> None:
    doc = _doc()
    start = doc.index("```python\n", doc.index("A complete bot")) + len("```python\n")
    bot = tmp_path / "doc_bot.py"
    bot.write_text(doc[start:doc.index("```", start)], encoding="utf-8")
    for game in ("belote", "coinche", "contree"):
        result = run_arena(ArenaConfig(a="heuristic", b=f"engine-events:{PY} {bot}", game=game,
                                       deals=4, games=1, seed=6))
        assert len(result.deals) == 4 and len(result.games) == 1


def test_docstring_examples_run() -> None:
    import doctest

    import rebelote
    import rebelote.bots

    for module in (rebelote.bots, rebelote):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0


def _sleepers(seconds: str) -> list[int]:
    """The processes running ``sleep <seconds>`` (not zombies)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and _running(int(entry.name)):
            try:
                argv = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if argv[:2] == [b"sleep", seconds.encode()]:
                found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists() or shutil.which("setsid") is None,
                    reason="Linux's /proc and setsid(1)")
def test_a_child_that_leaves_the_session_is_stopped_with_the_match(tmp_path: Path) -> None:
    # the attacker's forker: each start of the engine leaves a `setsid sleep 300` (its own
    # session and group, its parent `setsid` gone) and an in-group child; then plays
    seconds = f"300.{os.getpid()}{time.monotonic_ns() % 10_000}"
    bot = write_bot(tmp_path, "forker.py",
                    "import subprocess\n"
                    f"subprocess.Popen(['setsid', 'sleep', '{seconds}'])\n"
                    f"subprocess.Popen(['sleep', '{seconds}'])\n"
                    "for line in sys.stdin:\n"
                    "    print(json.loads(line)['legal'][0], flush=True)\n")
    try:
        arena = subprocess.run([PY, "-m", "rebelote.cli", "arena", "--a", engine(bot),
                                "--b", "random", "--deals", "2", "--engine-timeout", "5"],
                               capture_output=True, text=True, timeout=120, check=False)
        assert arena.returncode == 0, arena.stderr
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline and _sleepers(seconds):
            time.sleep(0.05)
        assert _sleepers(seconds) == []
    finally:
        for pid in _sleepers(seconds):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("value", ["inf", "1e308", "nan", "0", "-1"])
def test_an_engine_timeout_past_its_bounds_is_refused_by_name(value: str) -> None:
    for command in (["arena", "--a", "random", "--b", "random", "--deals", "2"],
                    ["deal", "--bots", "random"]):
        run = subprocess.run([PY, "-m", "rebelote.cli", *command, "--engine-timeout", value],
                             capture_output=True, text=True, timeout=60, check=False)
        assert run.returncode == 2, (command, run.stderr)
        assert "--engine-timeout" in run.stderr and "Traceback" not in run.stderr, run.stderr
