"""pokerroom: an open online poker room."""

__version__ = "0.1.0"
