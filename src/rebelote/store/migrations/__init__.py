"""Alembic migrations of the store, run programmatically by :func:`rebelote.store.migrate`."""
