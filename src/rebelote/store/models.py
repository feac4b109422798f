"""SQLAlchemy 2 models of the stored data: the counter's games (``counter_games``,
:mod:`rebelote.store.counter_games`) and the play tables (``play_tables``,
:mod:`rebelote.store.play_tables`). Each store module is named after its SQL table."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, Index, Integer, String, Text, false
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """The declarative base of every stored table."""


class CounterGame(Base):
    """A counter game: its JSON input plus what the list of saved games shows without parsing it.

    ``data`` is ``Match.to_json()`` serialised; the summary columns (``game``, team names, totals,
    winner, number of deals) are copied from it and from its result at every write. ``secret_hash``
    is the SHA-256 of the game's write secret (the secret itself is never stored); ``view_id``
    the id of its read-only view; ``meta`` (JSON text) what the counter keeps beside the game's
    rules and deals: who dealt first and the players' names; ``archived`` hides it from the list.
    """

    __tablename__ = "counter_games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    game: Mapped[str] = mapped_column(String(16), nullable=False)
    team_ns: Mapped[str] = mapped_column(String(80), nullable=False)
    team_ew: Mapped[str] = mapped_column(String(80), nullable=False)
    target: Mapped[int] = mapped_column(Integer, nullable=False)
    deal_count: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    total_ns: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    total_ew: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    winner: Mapped[str | None] = mapped_column(String(2), nullable=True)
    data: Mapped[str] = mapped_column(Text, nullable=False)
    secret_hash: Mapped[str] = mapped_column(String(64), nullable=False)
    view_id: Mapped[str] = mapped_column(String(32), nullable=False)
    meta: Mapped[str] = mapped_column(Text, nullable=False, default="{}", server_default="{}")
    archived: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False,
                                           server_default=false())
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)

    __table_args__ = (
        Index("ix_counter_games_updated_at", "updated_at"),
        Index("ix_counter_games_secret_hash", "secret_hash", unique=True),
        Index("ix_counter_games_view_id", "view_id", unique=True),
    )


class PlayTable(Base):
    """A play table: its JSON (secrets included: it never leaves the server as is)."""

    __tablename__ = "play_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    code: Mapped[str] = mapped_column(String(12), nullable=False, unique=True)
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    game: Mapped[str] = mapped_column(String(16), nullable=False)
    over: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    #: The version ``data`` is the table at; the moves of later versions are in play_moves.
    base: Mapped[int] = mapped_column(Integer, nullable=False, default=1, server_default="0")
    data: Mapped[str] = mapped_column(Text, nullable=False)
    #: The running turn clock and leave timers (JSON text), restored at start-up.
    timers: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)

    __table_args__ = (Index("ix_play_tables_updated_at", "updated_at"),)


class PlayMove(Base):
    """The moves that took a play table to ``version`` (``Table.moves_after``, JSON text):
    a move is written as what it adds, on the table's snapshot (``play_tables.data``)."""

    __tablename__ = "play_moves"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    moves: Mapped[str] = mapped_column(Text, nullable=False)


class TableExplanation(Base):
    """A bot decision's explanation at a play table (*Pourquoi ce coup ?*: the deal's action
    ``idx``, JSON text of :meth:`rebelote.bots.explain.Explanation.to_record`), written once
    its deal ``deal`` (from 1) is finished: it names cards of the bot's hand."""

    __tablename__ = "table_explanations"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    data: Mapped[str] = mapped_column(Text, nullable=False)


class TableReplay(Base):
    """*Le robot à votre place* of a play table's finished deal ``deal`` (from 1) at the human's
    seat ``seat`` (0 to 3): the comparison's JSON text
    (:meth:`rebelote.table.robot.RobotReplay.result`), written once the deal is finished and
    its replay done: it names cards of every hand."""

    __tablename__ = "table_replays"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    data: Mapped[str] = mapped_column(Text, nullable=False)
