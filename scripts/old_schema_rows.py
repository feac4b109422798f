"""Write the rows an old version of rebelote stored, for the upgrade tests (tests/test_upgrades.py).

For each schema revision the tests start from, the app of that time (the last commit whose
newest migration was that revision; for the newest, the commit that added it) is taken out of
git, served in-process on an empty SQLite file, and driven through its own HTTP API as a user
would: four counter games from the seed vectors with their deals, two play tables (belote and
coinche) played for 25 of South's moves against the bots, and from 0005 a concours of seven
teams, two parties drawn, results entered, phones opened for the second. Every row of every
table is then written out as JSON with what the old app answered (ids, secrets, totals), which
the tests compare with what today's app reads after the upgrade.

    python scripts/old_schema_rows.py            # all of them, into tests/vectors/old-schemas/
    python scripts/old_schema_rows.py 0003       # one

The old code runs with this environment's packages (FastAPI, SQLAlchemy...), its compiled
modules absent (each old version falls back to its pure-Python paths).
"""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "vectors" / "old-schemas"
SEEDS = ROOT / "tests" / "vectors" / "seed-games.jsonl"
#: Each schema revision and the commit whose app wrote its rows.
COMMITS = {
    "0001": "aadc1709e4fec81e5b30f3d10d8efa8aaeb692bc",
    "0002": "75be9eecadd1f7bd542425bd12a9df4fc5af9927",
    "0003": "fc7531b6c3531972a43494e128e321c03f96b20f",
    "0004": "b3ff6dce5fe1e348ac98842351878b4a78ab9351",
    "0005": "2a013f1790b48bfc6040db4acdaddebdb002fb78",
    "0006": "97f64c216c76b3eeef0224db22e19c0fe5589a7d",
    "0007": "21417061be2941b9ac5e9fda2c87a45315d59c22",
    "0008": "d0a8ca151040fe7ce652437812be62a8c587ecbf",
}


def main(argv: list[str]) -> int:
    if argv[:1] == ["--inside"]:
        json.dump(drive(argv[1], argv[2]), sys.stdout, ensure_ascii=False, indent=1,
                  sort_keys=True)
        return 0
    OUT.mkdir(parents=True, exist_ok=True)
    for rev in argv or list(COMMITS):
        with tempfile.TemporaryDirectory() as tmp:
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", COMMITS[rev], "src"],
                                     check=True, capture_output=True).stdout
            tar_path = Path(tmp) / "src.tar"
            tar_path.write_bytes(archive)
            with tarfile.open(tar_path) as tar:
                tar.extractall(tmp, filter="data")
            env = {**os.environ, "PYTHONPATH": str(Path(tmp) / "src"),
                   # le robot à votre place off (0008's app kept it in memory only, no row):
                   # without the compiled solver its counted searches would take minutes
                   "REBELOTE_ROBOT_PENDING": "0"}
            db = f"sqlite:///{Path(tmp) / 'old.sqlite3'}"
            done = subprocess.run([sys.executable, __file__, "--inside", rev, db], env=env,
                                  check=True, capture_output=True, text=True, cwd=tmp)
            (OUT / f"{rev}.json").write_text(done.stdout + "\n", encoding="utf-8")
            print(f"{rev}: {COMMITS[rev][:7]} -> {OUT / (rev + '.json')}")
    return 0


def drive(rev: str, db: str) -> dict[str, Any]:
    """Inside the old version: use its app, then read back every row."""
    from fastapi.testclient import TestClient
    from sqlalchemy import create_engine, inspect, text

    from rebelote.web.app import create_app  # the old version's

    seeds = [json.loads(line) for line in SEEDS.read_text(encoding="utf-8").splitlines()
             if line.strip()]
    out: dict[str, Any] = {"revision": rev, "commit": COMMITS[rev], "games": [], "tables": [],
                           "concours": []}
    with TestClient(create_app(db)) as c:
        for vec in seeds[:4]:
            given = vec["input"]
            body = {k: given[k] for k in ("game", "target", "rules", "options", "teams")
                    if k in given}
            r = c.post("/api/counter/games", json=body)
            assert r.status_code == 201, r.text
            g = r.json()
            auth = {"Authorization": f"Bearer {g['token']}"} if "token" in g else {}
            for d in given["deals"]:
                r = c.post(f"/api/counter/games/{g['id']}/deals", json=d, headers=auth)
                assert r.status_code == 200, r.text
            got = r.json()
            out["games"].append({"id": g["id"], "secret": g.get("token"), "view": g.get("view"),
                                 "deals": len(got["deals"]), "totals": got["totals"],
                                 "winner": got["winner"], "game": got["game"]})
        if rev >= "0003":
            for game in ("belote", "coinche"):
                out["tables"].append(play_table(c, game))
        if rev >= "0005":
            out["concours"].append(run_concours(c))
    rows: dict[str, list[dict[str, Any]]] = {}
    with create_engine(db).connect() as conn:
        for name in inspect(conn).get_table_names():
            result = conn.execute(text(f'SELECT * FROM "{name}"'))
            keys = list(result.keys())
            rows[name] = [
                {k: v.isoformat() if isinstance(v, datetime.datetime) else v
                 for k, v in zip(keys, row, strict=True)} for row in result]
    out["rows"] = rows
    return out


def play_table(c: Any, game: str) -> dict[str, Any]:
    """A table where South made 25 moves (the bots the others)."""
    r = c.post("/api/tables", json={"game": game})
    assert r.status_code == 201, r.text
    v = r.json()
    tid, token = v["id"], v["token"]
    auth = {"Authorization": f"Bearer {token}"}
    moves = 0
    while moves < 25 and not v["over"]:
        if v["turn"] != v["seat"] or not v["legal"]:
            v = c.get(f"/api/tables/{tid}", headers=auth).json()
            continue
        take = v["phase"] == "auction" and game == "belote"
        r = c.post(f"/api/tables/{tid}/actions", headers=auth,
                   json={"action": v["legal"][-1] if take else v["legal"][0]})
        v = r.json() if r.status_code == 200 else c.get(f"/api/tables/{tid}", headers=auth).json()
        moves += r.status_code == 200
    v = c.get(f"/api/tables/{tid}", headers=auth).json()
    return {"id": tid, "token": token, "code": v["code"], "version": v["version"],
            "deal": v["deal"], "hand": v["hand"], "trick": v["trick"], "game": game,
            "scores": v["scores"], "phase": v["phase"], "legal": v["legal"]}


def run_concours(c: Any) -> dict[str, Any]:
    """Seven teams, two parties drawn, the first scored, one table of the second; phones."""
    teams = [{"name": f"Équipe {i}", "players": [f"A{i}", f"B{i}"]} for i in range(1, 8)]
    r = c.post("/api/concours", json={
        "name": "Concours de la Saint-Jean", "game": "belote", "parties": 3, "deals": 12,
        "ranking": "points", "exempt": "half", "teams": teams})
    assert r.status_code == 201, r.text
    made = r.json()
    cid, auth = made["id"], {"Authorization": f"Bearer {made['token']}"}
    for k in (1, 2):
        r = c.post(f"/api/concours/{cid}/parties", headers=auth)
        assert r.status_code == 200, r.text
        partie = r.json()
        for t in partie["tables"][: None if k == 1 else 1]:
            a, b = t["teams"]
            r = c.put(f"/api/concours/{cid}/parties/{k}/tables/{t['table']}", headers=auth,
                      json={"scores": {str(a): 1000 + a, str(b): 900 - b}})
            assert r.status_code == 200, r.text
    phones = c.post(f"/api/concours/{cid}/parties/2/phones", headers=auth)
    assert phones.status_code == 200, phones.text
    got = c.get(f"/api/concours/{cid}", headers=auth).json()
    return {"id": cid, "token": made["token"], "view": made["view"],
            "parties": len(got["parties"]), "ranking": got["ranking"], "phones": phones.json()}


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
