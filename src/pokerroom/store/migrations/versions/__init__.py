"""Alembic revision scripts (kept a package so an installed wheel carries them)."""
