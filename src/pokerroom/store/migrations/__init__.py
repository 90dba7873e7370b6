"""Alembic migrations of the store, shipped inside the package (``pokerroom db upgrade`` applies them)."""
