from __future__ import annotations

import pytest

from tests.cluster.nodes import need_services


@pytest.fixture
def services() -> None:
    """PostgreSQL and NATS answer (else skip with the reason; with CI=true, fail)."""
    need_services()
