"""Run metrics: Wilson intervals, pass^k, exclusions, unknown cost."""

from __future__ import annotations

import math
import random

import pytest

from opsbench import metrics
from opsbench.records import EpisodeRecord, RunTask
from opsbench.report import build_report
from opsbench.runner import run_evaluation
from tests.app.conftest import mini_config

TASK = RunTask("public", "biz/t", "v", "biz", "cooperative", ("exception_request",), "T", True)


def episode(
    passed: bool = True,
    status: str = "scored",
    task_id: str = "biz/t",
    trial: int = 0,
    cost: float | None = 0.0,
    **score,
) -> EpisodeRecord:
    full = {
        "passed": passed,
        "completed": passed,
        "collateral": [],
        "escalation": "tn",
        "violations": [],
        "unrecoverable": [],
        "disclosed": True,
        "confident_partial": False,
        **score,
    }
    return EpisodeRecord(
        id=f"ep-{task_id}-{trial}-{status}",
        run_id="r",
        model="m",
        task_set="public",
        task_id=task_id,
        trial=trial,
        seed=0,
        status=status,
        task_version="v",
        error=None,
        score=None if status == "infrastructure_error" else full,
        usage={
            "assistant": {"input_tokens": 10, "output_tokens": 5, "requests": 1, "cost_usd": cost}
        },
        cost_usd=cost,
        attempts=1,
        timings={},
        finished_at="",
        task=TASK,
    )


def test_wilson_matches_the_textbook_values():
    low, high = metrics.wilson(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4) and high == pytest.approx(0.9433, abs=1e-4)
    assert metrics.wilson(0, 0) == (0.0, 1.0)
    assert metrics.wilson(0, 5)[0] == 0.0 and metrics.wilson(5, 5)[1] == 1.0


def test_errors_are_excluded_from_rates_and_counted_apart():
    result = metrics.compute(
        [
            episode(True),
            episode(False, trial=1),
            episode(status="infrastructure_error", trial=2),
            episode(status="caller_error", trial=3),
        ]
    )
    assert (result.scored, result.infrastructure_errors, result.caller_errors) == (2, 1, 1)
    assert result.rates["pass"].value == 0.5 and result.rates["pass"].n == 2
    # Tokens were spent by every episode, errors included.
    assert result.usage["assistant"].input_tokens == 40


def test_unauthorized_accommodation_counts_episodes_with_an_accommodation_violation():
    result = metrics.compute(
        [
            episode(False, violations=[{"tag": "accommodation"}, {"tag": "accommodation"}]),
            episode(False, trial=1, violations=[{"tag": "verification"}]),
            episode(True, trial=2),
        ]
    )
    assert (result.rates["accommodation"].successes, result.rates["accommodation"].n) == (1, 3)
    assert result.failure_classes["accommodation violation"] == 1


def test_privacy_counts_episodes_with_a_privacy_violation():
    result = metrics.compute(
        [
            episode(False, violations=[{"tag": "privacy"}, {"tag": "privacy"}]),
            episode(False, trial=1, violations=[{"tag": "accommodation"}]),
            episode(True, trial=2),
        ]
    )
    assert (result.rates["privacy"].successes, result.rates["privacy"].n) == (1, 3)
    assert result.failure_classes["privacy violation"] == 1


def test_escalation_precision_and_recall_come_from_the_confusion_counts():
    result = metrics.compute(
        [
            episode(escalation="tp"),
            episode(escalation="fp", trial=1),
            episode(escalation="fn", trial=2),
            episode(escalation="fn", trial=3),
            episode(escalation="tn", trial=4),
        ]
    )
    assert result.rates["escalation_precision"].value == 0.5
    assert result.rates["escalation_recall"].value == pytest.approx(1 / 3)
    assert metrics.compute([episode()]).rates["escalation_precision"].value is None


def test_pass_hat_k_is_the_unbiased_all_k_trials_estimate():
    # Task a: 2 of 3 trials pass; task b: 3 of 3.
    episodes = [episode(p, task_id="a", trial=i) for i, p in enumerate([True, True, False])]
    episodes += [episode(True, task_id="b", trial=i) for i in range(3)]
    k = metrics.pass_hat_k(episodes)
    assert k[1].value == pytest.approx((2 / 3 + 1) / 2)
    assert k[2].value == pytest.approx((math.comb(2, 2) / math.comb(3, 2) + 1) / 2)
    assert k[3].value == pytest.approx((0 + 1) / 2)


@pytest.mark.parametrize("seed", range(40))
def test_pass_hat_k_equals_the_comb_ratio_formula_to_the_last_bit(seed):
    # Uneven trial counts (some tasks reach k, some not), every pass count from 0 to n.
    rng = random.Random(seed)
    runs = {f"t{t}": [rng.random() < 0.6 for _ in range(rng.randint(1, 40))] for t in range(12)}
    episodes = [
        episode(p, task_id=t, trial=i) for t, results in runs.items() for i, p in enumerate(results)
    ]
    got = metrics.pass_hat_k(episodes)
    assert set(got) == set(range(1, max(len(r) for r in runs.values()) + 1))
    for k, rate in got.items():
        eligible = [r for r in runs.values() if len(r) >= k]
        assert rate.n == len(eligible)
        assert rate.successes == sum(math.comb(sum(r), k) / math.comb(len(r), k) for r in eligible)


def test_unknown_cost_is_unknown_not_zero():
    totals = metrics.compute([episode(cost=0.5), episode(cost=None, trial=1)]).usage["assistant"]
    assert not totals.cost_known and totals.to_dict()["cost_usd"] is None
    assert totals.to_dict()["known_cost_usd"] == 0.5


def test_breakdowns_slice_by_business_caller_kind_tactic_set_and_sessions():
    groups = metrics.breakdowns([episode()])
    assert set(groups) == {"business", "caller_kind", "tactic", "task_set", "sessions"}
    assert list(groups["sessions"]) == ["1"]
    assert list(groups["tactic"]) == ["exception_request"]
    assert list(groups["task_set"]) == ["public"]


def test_an_agent_reporting_tokens_but_no_requests_or_price_has_unknown_cost(store):
    config = mini_config(models=("testagent/TokensOnly",), limit=2)
    run_id = run_evaluation(config, store).run_id
    usage = build_report(store, run_id).models[0].metrics.usage["assistant"]
    assert usage.input_tokens > 0 and usage.requests == 0
    assert not usage.cost_known and usage.unknown_cost == 2
    assert usage.to_dict()["cost_usd"] is None  # not $0


def test_a_role_that_did_nothing_costs_nothing_rather_than_unknown():
    totals = metrics.UsageTotals().add({"input_tokens": 0, "requests": 0, "cost_usd": None})
    assert totals.cost_known and totals.to_dict()["cost_usd"] == 0.0


def test_repeated_trials_of_a_task_do_not_narrow_the_interval():
    # Ten tasks, three identical trials each: as much evidence as ten episodes, not thirty.
    repeated = [
        episode(passed=t < 6, task_id=f"biz/t{t}", trial=k) for t in range(10) for k in range(3)
    ]
    once = [episode(passed=t < 6, task_id=f"biz/t{t}") for t in range(10)]
    assert metrics.compute(repeated).rates["pass"].value == pytest.approx(0.6)
    assert metrics.compute(repeated).rates["pass"].interval == pytest.approx(
        metrics.compute(once).rates["pass"].interval
    )


def test_misstatement_is_a_rate_of_its_own_beside_confident_partial():
    episodes = [
        episode(False, task_id="a", misstated=True, disclosed=False),
        episode(False, task_id="b", confident_partial=True, disclosed=False),
        episode(True, task_id="c"),
    ]
    computed = metrics.compute(episodes)
    assert computed.rate("misstatement").value == pytest.approx(1 / 3)
    assert computed.rate("confident_partial").value == pytest.approx(1 / 3)
    assert computed.failure_classes.get("misstatement") == 1
    assert "not disclosed" not in computed.failure_classes
