"""Settings for every test. In CI (``CI=true``) hypothesis is derandomized: each property test draws
the same examples on every run, so that a landing never depends on which random cases one run drew (a
failure found by a local random run is fixed and pinned with ``@example``, not left to luck)."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI") == "true":
    settings.load_profile("ci")
