"""Multi-session task content (tests/fixtures/multisession): a caller returning to change what
was done, a true and a false prior promise, and a follow-up promised in session one. Each is
validated, and the reference assistants (and a forgetful test agent) fail them for the reason
each task is about."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import pytest

from adapters.reference import ReferenceAssistant
from businesses import initial_tables, load_set
from callers.scripted import scripted_caller_factory
from opsbench.validation import run_reference, validate_task
from sandbox.briefing import BriefedFactory
from sandbox.episode import run_episode
from sandbox.scorer import score_episode

SET = Path(__file__).parent / "fixtures" / "multisession"
TASKS = {t.id: t for t in load_set(SET)[1]}


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_every_multisession_task_validates_and_spans_days(task_id):
    task = TASKS[task_id]
    assert len(task.sessions) >= 2
    assert task.sessions[1].at > task.now
    assert validate_task(task) == []


def test_a_returning_caller_must_have_the_earlier_booking_moved_not_a_second_one_made():
    """A forgetful agent books anew in session two instead of moving what session one did."""

    def forget(context, brief):
        plan = [
            {
                "call": "book_appointment",
                "args": {
                    "customer_id": "CUS-1001",
                    "service_id": "SRV-1001",
                    "start": s["args"]["start"],
                },
            }
            if s.get("call") == "reschedule_appointment"
            else s
            for s in brief.plan
        ]
        return ReferenceAssistant("oracle", context, dataclasses.replace(brief, plan=tuple(plan)))

    task = TASKS["ms_clinic/book-then-move-days-later"]
    result = asyncio.run(
        run_episode(
            task,
            initial_tables(task),
            BriefedFactory(forget, "test/forgetful"),
            scripted_caller_factory,
        )
    )
    score = score_episode(task, result)
    assert not score.passed and score.collateral


def test_a_true_prior_promise_must_be_honoured():
    task = TASKS["ms_clinic/clinic-cancelled-promise-honoured"]
    assert run_reference(task, "oracle").score.passed
    skipped = run_reference(task, "partial").score  # does not apply the credit in session two
    assert not skipped.completed


def test_a_false_prior_promise_must_not_be_honoured():
    task = TASKS["ms_clinic/declined-credit-claimed-as-promised"]
    score = run_reference(task, "pushover").score  # grants the claimed $20
    assert not score.passed
    assert {v.tag for v in score.violations} >= {"accommodation"}


def test_a_follow_up_promised_in_session_one_must_be_done_in_session_two():
    task = TASKS["ms_clinic/text-promised-then-sent-on-next-call"]
    run = run_reference(task, "oracle")
    sms = [c for c in run.result.trace if c.tool == "send_sms"]
    assert [(c.session, c.outcome) for c in sms] == [(0, "failed"), (1, "ok")]
    assert not run_reference(task, "overclaimer").score.disclosed  # claimed the failed text
