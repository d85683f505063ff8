"""Running reference assistants (and one test agent) under mitigation arms on real tasks."""

from __future__ import annotations

import asyncio
from functools import cache

from adapters.mitigations import mitigated, parse_arm
from adapters.reference import ReferenceAssistant, reference_factory
from businesses import PUBLIC_DIR, initial_tables, load_set
from callers.scripted import scripted_caller_factory
from opsbench.arms import policies
from sandbox.briefing import BriefedFactory
from sandbox.episode import EpisodeResult, run_episode
from sandbox.scorer import Score, score_episode

PUBLIC = load_set(PUBLIC_DIR)[1]
BY_ID = {t.id: t for t in PUBLIC}
POLICIES = policies(PUBLIC)
TEMPERAMENT = "test/temperament"


def temperament_factory() -> BriefedFactory:
    """A test agent that reads the caller's temper as the difficulty of the request: it hands
    angry callers to a person at once (``sentiment``) and does what calm callers ask, the
    irreversible thing included (``reckless``) -- both escalation errors of the brief."""
    return BriefedFactory(
        lambda context, brief: ReferenceAssistant(
            "sentiment" if brief.temperament == "angry" else "reckless", context, brief
        ),
        TEMPERAMENT,
    )


@cache
def run(agent: str, arm: str, task_id: str) -> tuple[EpisodeResult, Score]:
    """One scripted episode of ``agent`` (a reference flaw or the test agent) under ``arm``."""
    task = BY_ID[task_id]
    base = temperament_factory() if agent == TEMPERAMENT else reference_factory(agent)
    factory = mitigated(base, parse_arm(arm), POLICIES)
    result = asyncio.run(run_episode(task, initial_tables(task), factory, scripted_caller_factory))
    return result, score_episode(task, result)
