"""Outside bots: any program that speaks the line protocol, seated by the spec ``engine:<command>``.

The protocol (docs/interfaces.md, "Outside bots"): rebelote starts the command once per seat
for a whole match and writes it one JSON object a line on its standard input; each ``act``
line is the seat's observation (:meth:`Observation.to_json`, with ``type``, ``deal`` and the
rules' text form ``rules_text``) when the seat must act, and the program answers one line, the
text of one of its ``legal`` actions. With the spec ``engine-events:<command>`` it also gets a
``deal`` line when a deal starts and a ``result`` line when it ends, which it must not answer.
An illegal answer, a line that is no action, a crash, a line it was not asked for or a silence
longer than the time limit raise :class:`EngineError` naming the engine, the seat, the deal and
what it answered; the program is then stopped. Nothing here waits without a deadline.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import random
import select
import shlex
import signal
import subprocess
import time
import weakref
from collections.abc import Iterable
from typing import Any, Final

from rebelote.actions import Action, parse_action
from rebelote.cards import SEATS, card_str, iter_mask
from rebelote.errors import RebeloteError
from rebelote.observation import Observation

__all__ = [
    "DEFAULT_TIMEOUT",
    "ENGINE_MARK",
    "ENGINE_NAMES",
    "MAX_TIMEOUT",
    "PROTOCOL",
    "EngineBot",
    "EngineError",
    "check_timeout",
    "close_bots",
    "kill_tree",
    "tell_deal_end",
]

#: The protocol's version, sent in every line (``"protocol": 1``).
PROTOCOL: Final = 1
#: Seconds an engine may take to answer one ``act`` line (its start included, for the first).
DEFAULT_TIMEOUT: Final = 10.0
#: The longest answer read, in bytes: an action's text is a few words.
MAX_ANSWER: Final = 1000
#: The spec names of outside bots: acts only, or acts with the deal and result lines.
ENGINE_NAMES: Final = ("engine", "engine-events")
#: Seconds a stopped engine is given to exit after its standard input closes, before it is
#: killed (with its process group).
_GRACE: Final = 1.0
#: The longest answer time an outside bot may be given (a day; ``inf`` is refused).
MAX_TIMEOUT: Final = 86_400.0
#: The environment variable that marks an outside bot's processes: its children inherit it,
#: even those that leave its process group and session (``setsid``), so that :meth:`close`
#: finds and stops them all.
ENGINE_MARK: Final = "REBELOTE_ENGINE_MARK"

_LIVE: weakref.WeakSet[EngineBot] = weakref.WeakSet()


class EngineError(RebeloteError):
    """An outside bot that broke the protocol; the message names the engine, the seat, the
    deal and what it answered."""


def check_command(command: str) -> list[str]:
    """The command's words (shell quoting, no shell); :class:`ValueError` for an empty one or
    one that cannot be read."""
    try:
        words = shlex.split(command)
    except ValueError as e:
        raise ValueError(f"bot 'engine': the command {command!r} cannot be read: {e}") from None
    if not words:
        raise ValueError("bot 'engine': a command after ':' (engine:python3 mybot.py)")
    return words


class EngineBot:
    """A seat played by an outside program over the line protocol.

    The program starts at the first :meth:`act` and lives until :meth:`close` (the arena and
    ``rebelote deal`` close it when the match ends; the interpreter's exit closes any left).
    ``timeout`` is the seconds allowed for each answer; ``events`` sends ``deal`` and
    ``result`` lines too.
    """

    def __init__(self, command: str, timeout: float = DEFAULT_TIMEOUT, events: bool = False
                 ) -> None:
        self.argv = check_command(command)
        check_timeout(timeout, "engine timeout")
        self.command = command.strip()
        self.timeout = float(timeout)
        self.events = events
        self.name = f"{ENGINE_NAMES[1] if events else ENGINE_NAMES[0]}:{self.command}"
        self._proc: subprocess.Popen[bytes] | None = None
        self._mark = ""
        self._buffer = b""
        self._deal = 0
        self._deal_key: object = None
        self._ended = False

    # -- the bot protocol --------------------------------------------------------------------
    def act(self, observation: Observation, rng: random.Random) -> Action:
        """Send the observation as an ``act`` line and read the answer."""
        self._track(observation)
        line = self.act_line(observation)
        self._send(line, observation)
        answer = self._read(observation)
        return self._action(answer, observation)

    def end_deal(self, observation: Observation, outcome: str, marks: tuple[int, int]) -> None:
        """The deal is over: a ``result`` line (with ``engine-events``), never answered."""
        if self._proc is None:
            return
        if self.events and not self._ended:
            data = {"type": "result", "protocol": PROTOCOL, "deal": self._deal,
                    **observation.to_json(), "rules_text": observation.rules.to_text(),
                    "outcome": outcome, "marks": {"NS": marks[0], "EW": marks[1]}}
            self._send(json.dumps(data), observation)
        self._ended = True

    def act_line(self, observation: Observation) -> str:
        """The ``act`` line of ``observation`` (the deal's number as this bot counts it)."""
        data: dict[str, Any] = {"type": "act", "protocol": PROTOCOL, "deal": self._deal,
                                **observation.to_json(),
                                "rules_text": observation.rules.to_text()}
        return json.dumps(data)

    def close(self) -> None:
        """Stop the program: its standard input closed, then killed (with every process it
        started) if it has not exited within a second; always reaped."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        _LIVE.discard(self)
        with contextlib.suppress(OSError):
            if proc.stdin:
                proc.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(_GRACE)
        # the whole tree: the group (a shell script's own children), then every process that
        # descends from it or carries its mark (a child that left the group with setsid, one
        # whose parent exited), until none is left
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            proc.kill()
        proc.wait()
        kill_tree(proc.pid, self._mark)
        with contextlib.suppress(OSError):
            if proc.stdout:
                proc.stdout.close()

    def __enter__(self) -> EngineBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def pid(self) -> int | None:
        """The running program's process id (``None`` before the first act or after close)."""
        return self._proc.pid if self._proc is not None else None

    # -- the lines ---------------------------------------------------------------------------
    def _track(self, obs: Observation) -> None:
        """Count the deals: a new one starts after a result, or when the dealer, the seat's
        dealt hand or the game's score change."""
        key = (obs.seat, obs.dealer, obs.auction_hand, obs.scores, obs.rules)
        if self._ended or key != self._deal_key:
            self._deal += 1
            self._deal_key = key
            self._ended = False
            if self.events:
                data = {"type": "deal", "protocol": PROTOCOL, "deal": self._deal,
                        "seat": SEATS[obs.seat], "game": obs.rules.game,
                        "rules": obs.rules.name, "rules_text": obs.rules.to_text(),
                        "dealer": SEATS[obs.dealer],
                        "hand": [card_str(c) for c in iter_mask(obs.auction_hand)],
                        "scores": {"NS": obs.scores[0], "EW": obs.scores[1]}}
                self._send(json.dumps(data), obs)

    def _where(self, obs: Observation) -> str:
        hand = " ".join(card_str(c) for c in iter_mask(obs.hand))
        return (f"engine {self.command!r} at seat {SEATS[obs.seat]}, deal {self._deal} "
                f"(dealer {SEATS[obs.dealer]}, hand {hand or '-'}, {obs.rules.to_text()})")

    def _fail(self, obs: Observation, what: str) -> EngineError:
        where = self._where(obs)
        self.close()
        return EngineError(f"{where}: {what}")

    def _start(self, obs: Observation) -> subprocess.Popen[bytes]:
        try:
            self._mark = f"{os.getpid()}-{id(self)}-{time.monotonic_ns()}"
            proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    bufsize=0, start_new_session=True, close_fds=True,
                                    env={**os.environ, ENGINE_MARK: self._mark})
        except OSError as e:
            raise EngineError(f"{self._where(obs)}: cannot start: {e}") from None
        assert proc.stdin is not None and proc.stdout is not None
        os.set_blocking(proc.stdin.fileno(), False)
        os.set_blocking(proc.stdout.fileno(), False)
        self._proc = proc
        self._buffer = b""
        _LIVE.add(self)
        return proc

    def _exited(self, proc: subprocess.Popen[bytes]) -> str:
        try:
            code = proc.wait(_GRACE)
        except subprocess.TimeoutExpired:
            return "closed its output without exiting"
        if code < 0:
            with contextlib.suppress(ValueError):
                return f"crashed (killed by {signal.Signals(-code).name})"
        return f"exited with status {code}"

    def _send(self, line: str, obs: Observation) -> None:
        proc = self._proc or self._start(obs)
        assert proc.stdin is not None and proc.stdout is not None
        # an answer nobody asked for (two lines for one act, or one for a result line)
        if self._buffer or select.select([proc.stdout], [], [], 0)[0]:
            extra = self._drain(proc)
            if extra:
                raise self._fail(obs, f"wrote {_shown(extra)} when no answer was asked for")
        data = (line + "\n").encode()
        deadline = time.monotonic() + self.timeout
        fd = proc.stdin.fileno()
        while data:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([], [fd], [], left)[1]:
                raise self._fail(obs, f"did not read its input within {self.timeout:g} s")
            try:
                n = os.write(fd, data)
            except BlockingIOError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                raise self._fail(obs, f"{self._exited(proc)} before reading its "
                                      "observation") from None
            data = data[n:]

    def _drain(self, proc: subprocess.Popen[bytes]) -> bytes:
        assert proc.stdout is not None
        out, self._buffer = self._buffer, b""
        with contextlib.suppress(BlockingIOError, OSError):
            while len(out) <= MAX_ANSWER:
                chunk = os.read(proc.stdout.fileno(), 65536)
                if not chunk:
                    break
                out += chunk
        return out

    def _read(self, obs: Observation) -> bytes:
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        deadline = time.monotonic() + self.timeout
        while b"\n" not in self._buffer:
            if len(self._buffer) > MAX_ANSWER:
                raise self._fail(obs, f"answered {_shown(self._buffer)}, a line longer than "
                                      f"{MAX_ANSWER} bytes: not an action")
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                got = f" (it had written {_shown(self._buffer)})" if self._buffer else ""
                raise self._fail(obs, f"no answer within {self.timeout:g} s{got}")
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                continue
            if not chunk:
                got = f" after writing {_shown(self._buffer)}" if self._buffer else ""
                raise self._fail(obs, f"{self._exited(proc)} instead of answering{got}")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        if len(line) > MAX_ANSWER:
            raise self._fail(obs, f"answered {_shown(line)}, a line longer than "
                                  f"{MAX_ANSWER} bytes: not an action")
        return line

    def _action(self, answer: bytes, obs: Observation) -> Action:
        texts = [str(a) for a in obs.legal]
        legal = ", ".join(texts) if len(texts) <= 12 else \
            f"{', '.join(texts[:12])}... ({len(texts)} in all)"
        try:
            text = answer.decode("utf-8").strip()
        except UnicodeDecodeError:
            raise self._fail(obs, f"answered {_shown(answer)}, which is not UTF-8 text "
                                  f"(legal: {legal})") from None
        for a in obs.legal:
            if str(a) == text:
                return a
        if not text:
            raise self._fail(obs, f"answered an empty line (legal: {legal})")
        try:
            action = parse_action(text)
        except ValueError:
            raise self._fail(obs, f"answered {_shown(answer)}, which is not an action "
                                  f"(legal: {legal})") from None
        if action not in obs.legal:
            raise self._fail(obs, f"answered {_shown(answer)}, which is not legal here "
                                  f"(legal: {legal})")
        return action


def check_timeout(timeout: object, field: str) -> float:
    """``timeout`` as seconds above 0 and at most :data:`MAX_TIMEOUT`; a :class:`ValueError`
    naming ``field`` otherwise (``inf`` and ``nan`` included)."""
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not (
            0 < timeout <= MAX_TIMEOUT):
        raise ValueError(f"{field}: a number of seconds above 0 and at most {MAX_TIMEOUT:g}, "
                         f"not {timeout!r}")
    return float(timeout)


def _processes() -> dict[int, tuple[int, int]]:
    """``{pid: (parent pid, session id)}`` of every process this user can see (Linux's
    ``/proc``; empty elsewhere)."""
    found: dict[int, tuple[int, int]] = {}
    with contextlib.suppress(OSError):
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            try:
                with open(f"/proc/{name}/stat", "rb") as f:
                    fields = f.read().rsplit(b")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if fields[0] != b"Z":  # a zombie is stopped already
                found[int(name)] = (int(fields[1]), int(fields[3]))
    return found


def _marked(pid: int, mark: str) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            return f"{ENGINE_MARK}={mark}".encode() in f.read().split(b"\0")
    except OSError:
        return False


def kill_tree(root: int, mark: str) -> None:
    """SIGKILL every process of the tree of ``root``: its descendants, those of its session,
    and those that carry ``mark`` in their environment (a child that called ``setsid`` and
    whose parent exited has neither ``root``'s group nor an ancestor in it); repeated while
    some are found (a fork racing the kill)."""
    for _ in range(20):
        processes = _processes()
        doomed = {pid for pid, (_, session) in processes.items() if session == root}
        if mark:
            doomed |= {pid for pid in processes if pid != os.getpid() and _marked(pid, mark)}
        grown = True
        while grown:
            children = {pid for pid, (parent, _) in processes.items()
                        if (parent == root or parent in doomed) and pid not in doomed}
            grown = bool(children)
            doomed |= children
        doomed.discard(os.getpid())
        if not doomed:
            return
        for pid in doomed:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.01)


def _shown(data: bytes) -> str:
    text = data.decode("utf-8", "replace").strip()
    return repr(text if len(text) <= 80 else text[:80] + "...")


def close_bots(bots: Iterable[object]) -> None:
    """Close every bot of ``bots`` that has a ``close`` (the outside ones)."""
    for bot in bots:
        close = getattr(bot, "close", None)
        if close is not None:
            close()


def tell_deal_end(bots: Iterable[object], state: Any) -> None:
    """Tell each seat's bot that has an ``end_deal`` (the outside ones) that ``state``, a
    finished deal, is over: its observation, the outcome and the marks."""
    seated = [(s, end) for s, b in enumerate(bots)
              if (end := getattr(b, "end_deal", None)) is not None]
    if not seated:
        return
    if state.is_void:
        outcome, marks = "void", (0, 0)
    else:
        score = state.score()
        outcome, marks = score.outcome, score.score
    for seat, end in seated:
        end(state.observation(seat), outcome, marks)


@atexit.register
def _close_all() -> None:
    for bot in list(_LIVE):
        bot.close()
