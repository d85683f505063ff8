"""Whose call it is (sandbox/identity.py), table-driven on real tool calls of the sample world.

The caller's *claimed* accounts are the ones the assistant tried to verify them against in a
session (a verification call that ran, matched or not); *verified* the ones a verification
matched. A call that failed or was refused, a verification in another session, or a customer
only looked up, claims nothing.
"""

from __future__ import annotations

import pytest

from sandbox.identity import session_callers, trace_position
from tests.policy.support import play


def verify(customer: str, **fields: str) -> tuple[str, dict]:
    return ("verify_customer", {"customer_id": customer, **fields})


MARIA_OK = verify("CUS-1001", dob="1984-06-12")
MARIA_WRONG = verify("CUS-1001", dob="1999-01-01")
SAM_OK = verify("CUS-1002", postcode="94103")
LOOKUP_LENA = ("list_notes", {"customer_id": "CUS-1003"})

# (script, faulted tools, session asked about, claimed, verified)
CASES = [
    ([MARIA_OK], (), 0, {"CUS-1001"}, {"CUS-1001"}),
    ([MARIA_WRONG], (), 0, {"CUS-1001"}, set()),
    ([MARIA_WRONG, MARIA_OK], (), 0, {"CUS-1001"}, {"CUS-1001"}),
    ([MARIA_OK, SAM_OK], (), 0, {"CUS-1001", "CUS-1002"}, {"CUS-1001", "CUS-1002"}),
    # only looked up: nobody's call
    ([LOOKUP_LENA], (), 0, set(), set()),
    # a verification that did not run (unknown id, no field given, a back-end fault)
    ([verify("CUS-9999", dob="1984-06-12")], (), 0, set(), set()),
    ([verify("CUS-1001")], (), 0, set(), set()),
    ([MARIA_OK], ("verify_customer",), 0, set(), set()),
    # per session: the caller ringing back has to be verified again
    ([MARIA_OK, ("session", "2026-03-05T10:00")], (), 1, set(), set()),
    ([MARIA_OK, ("session", "2026-03-05T10:00"), SAM_OK], (), 1, {"CUS-1002"}, {"CUS-1002"}),
    ([MARIA_OK, ("session", "2026-03-05T10:00"), SAM_OK], (), 0, {"CUS-1001"}, {"CUS-1001"}),
]


@pytest.mark.parametrize(("script", "faulted", "session", "claimed", "verified"), CASES)
def test_session_callers(script, faulted, session, claimed, verified):
    world, _ = play(script, faulted=faulted)
    callers = session_callers(world.trace, session)
    assert callers.claimed == frozenset(claimed)
    assert callers.verified == frozenset(verified)


def test_a_verification_that_came_back_unverified_proves_nothing_whatever_it_names():
    # The result of a mismatch names the customer too: only `verified: true` proves it.
    world, _ = play([MARIA_WRONG])
    [call] = world.trace
    assert call.ok and call.result["customer_id"] == "CUS-1001"
    callers = session_callers(world.trace, 0)
    assert not callers.verified_before("CUS-1001", len(world.trace), world.trace)


@pytest.mark.parametrize(
    ("script", "customer", "position", "expected"),
    [
        # verified before the position asked about, not at or after it
        ([LOOKUP_LENA, MARIA_OK, LOOKUP_LENA], "CUS-1001", 2, True),
        ([LOOKUP_LENA, MARIA_OK, LOOKUP_LENA], "CUS-1001", 1, False),
        ([LOOKUP_LENA, MARIA_OK, LOOKUP_LENA], "CUS-1001", 0, False),
        ([LOOKUP_LENA, MARIA_OK, LOOKUP_LENA], "CUS-1002", 3, False),
        ([MARIA_WRONG, LOOKUP_LENA], "CUS-1001", 2, False),
        ([SAM_OK, LOOKUP_LENA], "CUS-1002", 2, True),
    ],
)
def test_verified_before(script, customer, position, expected):
    world, _ = play(script)
    callers = session_callers(world.trace, 0)
    assert callers.verified_before(customer, position, world.trace) is expected


def test_trace_position_finds_the_call_behind_a_ledger_entry():
    note = ("add_note", {"customer_id": "CUS-1001", "body": "Called about the bill."})
    world, _ = play([LOOKUP_LENA, MARIA_OK, note, LOOKUP_LENA, note])
    seqs = [e.seq for e in world.ledger.entries]
    assert [trace_position(world.trace, s) for s in seqs] == [2, 4]
    assert trace_position(world.trace, max(seqs) + 1) is None
