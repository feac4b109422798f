"""``scripts/train_net.py scratch``: the shipped network's whole recipe (docs/net.md, "The
shipped weights, from scratch") as one command, end to end on a few deals a stage: the same
weights as the documented chain of commands run one by one, the same weights from the same
seed, and a run stopped in the middle and taken up ends with the same weights to the bit."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from program_loader import load_program
from rebelote.bots.net import KEYS, load_model
from rebelote.bots.nettrain import Examples, deal_examples

#: A few deals a stage, a small network: the whole chain in a few seconds.
SMALL = ["--dd-deals", "10", "--self-deals", "4", "--calls-deals", "4", "--chunk", "2",
         "--dd-epochs", "2", "--all-epochs", "2", "--tune-epochs", "2", "--hidden", "16"]
#: The files every stage leaves in ``--work`` (the default seeds' names).
WEIGHTS = ("net-dd11.npz", "net-ddall.npz")


def _script() -> Any:
    """``scripts/train_net.py`` as a module."""
    return load_program("scripts/train_net.py")


def _equal(a: Path, b: Path) -> bool:
    one, two = load_model(a), load_model(b)
    return all(np.array_equal(one[k], two[k]) for k in KEYS)


@pytest.fixture(scope="module")
def straight(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A whole run of the small recipe, never stopped: its work folder (``net.npz`` in it)."""
    work = tmp_path_factory.mktemp("straight")
    assert _script().main(["scratch", "--work", str(work), "--out", str(work / "net.npz"),
                           *SMALL]) == 0
    return work


def test_scratch_is_the_documented_chain_of_commands(
        straight: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The seven commands of docs/net.md, scaled down the same way, run one by one (the
    self-play data played by the first network, both data sets in one folder, the tuning from
    the second network on the true deal's calls with belote's the tuned bidder's): every
    stage's weights equal ``scratch``'s, and each stage changed the weights."""
    script = _script()
    monkeypatch.chdir(tmp_path)
    chain = [
        "data --seed 11 --deals 10 --chunk 2 --level dd --out dd11",
        "train --data dd11 --seed 1 --epochs 2 --hidden 16 --out net-dd11.npz",
        "data --seed 12 --deals 4 --chunk 2 --level dd:net=net-dd11.npz --out dd12",
        "train --data dd-all --seed 1 --epochs 2 --hidden 16 --out net-ddall.npz",
        "data --seed 13 --deals 4 --chunk 2 --level dd+calls --out calls-13",
        "train --data calls-13 --belote-calls-from dd11 --call-q 25 --pass-bonus 30 "
        "--init net-ddall.npz --seed 1 --epochs 2 --hidden 16 --out net.npz",
    ]
    for command in chain:
        if command.startswith("train --data dd-all"):
            (tmp_path / "dd-all").mkdir()
            for chunk in [*sorted(Path("dd11").glob("*.npz")),
                          *sorted(Path("dd12").glob("*.npz"))]:
                (tmp_path / "dd-all" / chunk.name).symlink_to(tmp_path / chunk)
        assert script.main(command.split()) == 0, command
    for name in (*WEIGHTS, "net.npz"):
        assert _equal(straight / name, tmp_path / name), name
    for folder in ("dd11", "dd12", "calls-13"):
        mine = sorted(p.name for p in (straight / folder).glob("chunk-*.npz"))
        assert mine == sorted(p.name for p in (tmp_path / folder).glob("chunk-*.npz"))
        for name in mine:
            assert (straight / folder / name).read_bytes() == \
                (tmp_path / folder / name).read_bytes(), (folder, name)
    # every stage counted: the self-play deals are the first network's, not the tuned driver's
    own = Examples.load(straight / "dd12" / "chunk-12-0000000.npz")
    tuned = Examples.concat([deal_examples(12, i, "dd") for i in range(2)])
    assert len(own) != len(tuned) or not np.array_equal(own.x, tuned.x)
    assert not _equal(straight / "net-dd11.npz", straight / "net-ddall.npz")
    assert not _equal(straight / "net-ddall.npz", straight / "net.npz")


def test_scratch_stopped_in_the_middle_and_taken_up_ends_with_the_same_weights(
        straight: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A run stopped after the first epoch of the fourth stage, then started again with a
    chunk of the fifth stage's and the second stage's checkpoint gone: stages found are
    skipped, the training takes up from its checkpoint, and every weight ends equal to the
    bit to the run never stopped's."""
    script = _script()
    argv = ["scratch", "--work", str(tmp_path), "--out", str(tmp_path / "net.npz"), *SMALL]
    real_train: Callable[..., Any] = script.train

    class Stop(Exception):
        pass

    def stopping(*args: Any, log: Callable[[int, Any], None], **kw: Any) -> Any:
        def stop_after_one(epoch: int, model: Any) -> None:
            log(epoch, model)
            if epoch == 1 and kw["init"] is None and kw["checkpoint"].name == "ck-net-ddall.npz":
                raise Stop

        return real_train(*args, log=stop_after_one, **kw)

    monkeypatch.setattr(script, "train", stopping)
    with pytest.raises(Stop):
        script.main(argv)
    assert (tmp_path / "net-dd11.npz").exists() and not (tmp_path / "net-ddall.npz").exists()
    assert (tmp_path / "ck-net-ddall.npz").exists() and not (tmp_path / "calls-13").exists()
    monkeypatch.setattr(script, "train", real_train)
    capsys.readouterr()
    assert script.main(argv) == 0
    out = capsys.readouterr().out
    assert "net-dd11.npz found, skipped" in out
    assert '"epoch": 1' not in out.split("stage 4/6")[1].split("stage 5/6")[0]  # taken up
    for name in (*WEIGHTS, "net.npz"):
        assert _equal(straight / name, tmp_path / name), name
    # a chunk lost and the weights gone: the chunk made again, the tuning's checkpoint read
    (tmp_path / "calls-13" / "chunk-13-0000002.npz").unlink()
    (tmp_path / "net.npz").unlink()
    assert script.main(argv) == 0
    out = capsys.readouterr().out
    assert "net-ddall.npz found, skipped" in out and "from scratch:" in out
    assert _equal(straight / "net.npz", tmp_path / "net.npz")


def test_scratch_refuses_an_empty_stage(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        _script().main(["scratch", "--work", str(tmp_path), "--out", str(tmp_path / "n.npz"),
                        "--dd-deals", "0"])


def test_scratch_warns_when_blas_runs_on_more_than_one_thread(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Two BLAS threads sum in another order: the shipped file is one thread's (docs/net.md)."""
    argv = ["scratch", "--work", str(tmp_path), "--out", str(tmp_path / "n.npz"),
            "--dd-deals", "2", "--self-deals", "1", "--calls-deals", "1", "--chunk", "1",
            "--dd-epochs", "1", "--all-epochs", "1", "--tune-epochs", "1", "--hidden", "8"]
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    assert _script().main(argv) == 0
    assert "one BLAS thread" not in capsys.readouterr().out
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "2")
    assert _script().main(argv) == 0
    assert "made on one BLAS thread" in capsys.readouterr().out
