"""Benchmark of the per-call hot path: copy a state, run a write tool with its ledger entry, diff.

Not a test (timings on shared machines are noisy). Run:  uv run python benchmarks/hot_path.py
Prints the median of several repeats per operation, in microseconds.
"""

from __future__ import annotations

import statistics
import timeit
from datetime import datetime, timedelta

from sandbox import SimClock, State, World, diff
from tools import default_registry
from tools.timefmt import format_time


def realistic_tables(customers: int = 200, days: int = 14) -> dict[str, dict[str, dict]]:
    """A mid-sized clinic: 200 customers, 6 staff, two weeks of a full calendar, 300 orders."""
    hours = {d: ["08:00", "18:00"] for d in ("mon", "tue", "wed", "thu", "fri")}
    tables: dict[str, dict[str, dict]] = {
        name: {}
        for name in (
            "customers",
            "staff",
            "services",
            "appointments",
            "products",
            "orders",
            "payments",
        )
    }
    for i in range(customers):
        cid = f"CUS-{1001 + i}"
        tables["customers"][cid] = {
            "id": cid,
            "name": f"Customer {i}",
            "phone": f"+1 555 {1000 + i}",
            "email": f"c{i}@example.com",
            "dob": "1980-01-01",
            "credit_cents": 0,
            "tags": [],
        }
    for i in range(6):
        sid = f"STF-{1001 + i}"
        tables["staff"][sid] = {
            "id": sid,
            "name": f"Staff {i}",
            "role": "dentist",
            "services": [],
            "hours": hours,
        }
    tables["services"]["SRV-1001"] = {
        "id": "SRV-1001",
        "name": "Cleaning",
        "duration_min": 30,
        "price_cents": 9500,
    }
    start = datetime(2026, 3, 2, 8, 0)
    n = 0
    for day in range(days):
        for slot in range(0, 20, 2):
            for staff in range(6):
                t = start + timedelta(days=day, minutes=30 * slot)
                aid = f"APT-{1001 + n}"
                tables["appointments"][aid] = {
                    "id": aid,
                    "customer_id": f"CUS-{1001 + n % customers}",
                    "service_id": "SRV-1001",
                    "staff_id": f"STF-{1001 + staff}",
                    "start": format_time(t),
                    "end": format_time(t + timedelta(minutes=30)),
                    "status": "booked",
                }
                n += 1
    for i in range(50):
        pid = f"PRD-{1001 + i}"
        tables["products"][pid] = {
            "id": pid,
            "name": f"Product {i}",
            "price_cents": 1000 + i,
            "stock": 100,
            "reserved": 0,
        }
    for i in range(300):
        oid = f"ORD-{1001 + i}"
        tables["orders"][oid] = {
            "id": oid,
            "customer_id": f"CUS-{1001 + i % customers}",
            "items": [{"product_id": "PRD-1001", "quantity": 1, "price_cents": 1000}],
            "total_cents": 1000,
            "status": "delivered",
        }
        tables["payments"][f"PAY-{1001 + i}"] = {
            "id": f"PAY-{1001 + i}",
            "customer_id": f"CUS-{1001 + i % customers}",
            "kind": "charge",
            "amount_cents": 1000,
            "status": "completed",
            "refunded_cents": 0,
            "order_id": oid,
        }
    return tables


def _median_us(fn, number: int = 200, repeat: int = 7) -> float:
    return statistics.median(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e6


def main() -> None:
    base = State(realistic_tables())
    registry = default_registry()
    records = sum(len(t) for t in base.tables.values())
    print(f"state: {records} records in {sum(1 for t in base.tables.values() if t)} tables")

    copy_us = _median_us(base.copy)

    def write_note() -> None:
        World(base.copy(), registry, SimClock("2026-03-02T07:00")).call(
            "add_note", {"customer_id": "CUS-1001", "body": "prefers mornings"}
        )

    def write_refund() -> None:
        World(base.copy(), registry, SimClock("2026-03-02T07:00")).call(
            "refund", {"payment_id": "PAY-1001", "amount_cents": 500, "reason": "late"}
        )

    def write_booking() -> None:
        World(base.copy(), registry, SimClock("2026-03-02T07:00")).call(
            "book_appointment",
            {"customer_id": "CUS-1001", "service_id": "SRV-1001", "start": "2026-03-20T09:00"},
        )

    changed = base.copy()
    World(changed, registry, SimClock("2026-03-02T07:00")).call(
        "refund", {"payment_id": "PAY-1001", "amount_cents": 500, "reason": "late"}
    )
    note_us = _median_us(write_note) - copy_us
    refund_us = _median_us(write_refund) - copy_us
    booking_us = _median_us(write_booking, number=50) - copy_us
    diff_us = _median_us(lambda: diff(base, changed))
    canon_us = _median_us(base.canonical_bytes, number=20)
    print(f"copy state                     {copy_us:8.1f} us")
    print(f"add_note  (validate+ledger)    {note_us:8.1f} us")
    print(f"refund    (validate+ledger)    {refund_us:8.1f} us")
    print(f"book_appointment (scans {len(base.tables['appointments'])} appts) {booking_us:8.1f} us")
    print(f"diff (2 rows changed)          {diff_us:8.1f} us")
    print(f"canonical bytes of whole state {canon_us:8.1f} us (hashing only, not per call)")


if __name__ == "__main__":
    main()
