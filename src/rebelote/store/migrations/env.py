"""Alembic environment: migrations run on the connection that :func:`migrate` hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from rebelote.store.models import Base

connection = context.config.attributes.get("connection")
if connection is None:  # run from the alembic command line: a URL must be configured
    url = context.config.get_main_option("sqlalchemy.url") or "sqlite:///counter.sqlite3"
    with create_engine(url).begin() as own:
        context.configure(connection=own, target_metadata=Base.metadata)
        with context.begin_transaction():
            context.run_migrations()
else:
    context.configure(connection=connection, target_metadata=Base.metadata)
    with context.begin_transaction():
        context.run_migrations()
