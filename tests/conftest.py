"""Shared fixtures: a small but complete business state on a fixed simulated day."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

# The suite loads businesses fresh (tests patch the loader and its schemas); the compiled
# cache has its own tests, which point it at a temporary folder. Subprocesses inherit this.
os.environ["OPSBENCH_CACHE_DIR"] = "off"

from sandbox import FaultInjector, SimClock, State, World
from tools import default_registry

NOW = "2026-03-02T09:10"  # a Monday


def sample_tables() -> dict[str, dict[str, dict]]:
    """A state touching every standard table, so every tool has something to act on."""
    hours = {d: ["09:00", "17:00"] for d in ("mon", "tue", "wed", "thu", "fri")}
    customers = {
        "CUS-1001": {
            "id": "CUS-1001",
            "name": "Maria Lopez",
            "phone": "+1 555 0101",
            "email": "maria@example.com",
            "dob": "1984-06-12",
            "postcode": "94110",
            "address": "12 Elm St",
            "credit_cents": 0,
            "tags": [],
        },
        "CUS-1002": {
            "id": "CUS-1002",
            "name": "Sam Okafor",
            "phone": "+1 555 0102",
            "email": None,
            "dob": "1990-01-30",
            "postcode": "94103",
            "address": None,
            "credit_cents": 500,
            "tags": ["vip"],
        },
        "CUS-1003": {
            "id": "CUS-1003",
            "name": "Lena Fischer",
            "phone": "+1 555 0103",
            "email": "lena@example.com",
            "dob": "1975-11-02",
            "postcode": "94107",
            "address": "3 Pine Ave",
            "credit_cents": 0,
            "tags": [],
        },
    }
    return {
        "customers": customers,
        "staff": {
            "STF-1001": {
                "id": "STF-1001",
                "name": "Dr. Patel",
                "role": "dentist",
                "services": ["SRV-1001", "SRV-1002"],
                "hours": hours,
            },
            "STF-1002": {
                "id": "STF-1002",
                "name": "Jo Kim",
                "role": "hygienist",
                "services": ["SRV-1001"],
                "hours": hours,
            },
        },
        "services": {
            "SRV-1001": {
                "id": "SRV-1001",
                "name": "Cleaning",
                "duration_min": 30,
                "price_cents": 9500,
                "deposit_cents": 0,
            },
            "SRV-1002": {
                "id": "SRV-1002",
                "name": "Crown",
                "duration_min": 90,
                "price_cents": 120000,
                "deposit_cents": 20000,
            },
            "SRV-1003": {
                "id": "SRV-1003",
                "name": "Fibre 500",
                "duration_min": 30,
                "price_cents": 5500,
            },
        },
        "appointments": {
            "APT-1001": {
                "id": "APT-1001",
                "customer_id": "CUS-1001",
                "service_id": "SRV-1001",
                "staff_id": "STF-1002",
                "start": "2026-03-03T10:00",
                "end": "2026-03-03T10:30",
                "status": "booked",
                "booked_at": "2026-02-20T12:00",
                "cancelled_at": None,
                "cancel_reason": None,
            },
        },
        "reminders": {},
        "products": {
            "PRD-1001": {
                "id": "PRD-1001",
                "name": "Electric toothbrush",
                "sku": "TB-1",
                "price_cents": 4999,
                "stock": 5,
                "reserved": 0,
            },
            "PRD-1002": {
                "id": "PRD-1002",
                "name": "Floss (50m)",
                "sku": "FL-50",
                "price_cents": 399,
                "stock": 40,
                "reserved": 0,
            },
        },
        "reservations": {},
        "orders": {
            "ORD-1001": {
                "id": "ORD-1001",
                "customer_id": "CUS-1003",
                "items": [{"product_id": "PRD-1001", "quantity": 1, "price_cents": 4999}],
                "total_cents": 4999,
                "status": "delivered",
                "placed_at": "2026-02-10T10:00",
                "delivered_at": "2026-02-13T15:00",
                "return_reason": None,
            },
            "ORD-1002": {
                "id": "ORD-1002",
                "customer_id": "CUS-1003",
                "items": [{"product_id": "PRD-1002", "quantity": 2, "price_cents": 399}],
                "total_cents": 798,
                "status": "placed",
                "placed_at": "2026-03-01T18:00",
                "delivered_at": None,
                "return_reason": None,
            },
        },
        "payments": {
            "PAY-1001": {
                "id": "PAY-1001",
                "customer_id": "CUS-1003",
                "kind": "charge",
                "amount_cents": 4999,
                "status": "completed",
                "refunded_cents": 0,
                "order_id": "ORD-1001",
                "appointment_id": None,
                "subscription_id": None,
                "refund_of": None,
                "description": "Order ORD-1001",
                "at": "2026-02-10T10:00",
            },
            "PAY-1002": {
                "id": "PAY-1002",
                "customer_id": "CUS-1001",
                "kind": "fee",
                "amount_cents": 2500,
                "status": "due",
                "refunded_cents": 0,
                "order_id": None,
                "appointment_id": None,
                "subscription_id": None,
                "refund_of": None,
                "description": "Late cancellation fee",
                "at": "2026-02-25T09:00",
            },
        },
        "subscriptions": {
            "SUB-1001": {
                "id": "SUB-1001",
                "customer_id": "CUS-1002",
                "plan": "Fibre 500",
                "plan_id": "SRV-1003",
                "price_cents": 5500,
                "status": "active",
                "next_billing_date": "2026-03-15",
                "final_billing_date": None,
                "paused_until": None,
                "cancelled_at": None,
                "cancel_reason": None,
            },
            "SUB-1002": {
                "id": "SUB-1002",
                "customer_id": "CUS-1001",
                "plan": "Legacy Unlimited",
                "price_cents": 2900,
                "status": "active",
                "next_billing_date": "2026-03-02",
                "final_billing_date": "2026-03-02",
                "paused_until": None,
                "cancelled_at": None,
                "cancel_reason": None,
            },
        },
        "messages": {},
        "notes": {},
        "escalations": {},
    }


def make_world(faults: FaultInjector | None = None) -> World:
    return World(State(sample_tables()), default_registry(), SimClock(NOW), faults)


@pytest.fixture
def world() -> World:
    return make_world()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Print the reference-assistant matrix when the matrix tests ran."""
    import sys

    module = sys.modules.get("tests.test_scorer_matrix") or sys.modules.get("test_scorer_matrix")
    if module is None or not module.run.cache_info().currsize:
        return
    terminalreporter.write_sep("=", "reference assistants x metrics")
    for line in module.matrix_lines():
        terminalreporter.write_line(line)


@pytest.fixture(scope="session")
def network_guard() -> Iterator[list[str]]:
    """Refuse and record connections that leave the machine (``guard_network``), once per test
    process however many folders ask for it."""
    from tests.adapters.conftest import guard_network

    yield from guard_network()
