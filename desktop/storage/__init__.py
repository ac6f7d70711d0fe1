"""Persistence: SQLite via SQLAlchemy Core, the settings file, and keyring secrets.

Nothing here imports Qt. Submodules are imported directly (no re-exports) so that, for
example, reading settings does not pull in SQLAlchemy.
"""
