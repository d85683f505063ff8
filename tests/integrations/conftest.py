"""Integration tests run offline: the adapter suite's loopback-only guard and credential scrub
apply here too (an agent framework that phones home fails its test), plus shared helpers."""

from __future__ import annotations

from tests.adapters.conftest import (  # noqa: F401  (fixtures, re-exported for this folder)
    local_server,
    loopback_only,
    no_provider_credentials,
    retry,
    server,
    sleeps,
)
