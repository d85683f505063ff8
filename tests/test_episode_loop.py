"""What one episode records, turn by turn: the transcript, what the assistant is shown, the
usage, the endings and the stored record (the loop of ``sandbox/episode.py``, exactly)."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace

import pytest

from businesses import initial_tables
from contract.assistant import EpisodeContext
from contract.messages import AssistantTurn, Message, ToolCall, TurnRequest, Usage
from sandbox.briefing import BriefedFactory
from sandbox.episode import (
    CallerTurn,
    CallerView,
    EpisodeResult,
    Limits,
    Utterance,
    run_episode,
)
from sandbox.prompt import system_prompt
from tests.helpers import FailingAssistant, ScriptedAssistant, call, mini_tasks
from tools import Effect

TASKS = mini_tasks()
RESCHEDULE = TASKS["mini_clinic/reschedule-reminder-fails"]
TWO_CALLS = TASKS["mini_clinic/promised-credit-returns"]
NOTE = '{"customer_id": "CUS-1001", "body": "Café noté"}'


class LineCaller:
    """Says its lines in order (a line of ``None`` hangs up after it), then hangs up."""

    def __init__(self, lines: list[CallerTurn]) -> None:
        self.lines = list(lines)
        self.views: list[CallerView] = []

    async def speak(self, view: CallerView) -> CallerTurn:
        self.views.append(view)
        return self.lines.pop(0) if self.lines else CallerTurn("Bye.", hang_up=True)


class Closing(ScriptedAssistant):
    """A scripted assistant with work in flight: it is told when its session is over."""

    def __init__(self, turns: list[AssistantTurn], closed: list[str]) -> None:
        super().__init__(turns)
        self.closed = closed

    async def aclose(self) -> None:
        self.closed.append(f"closed after {len(self.requests)} requests")


def _run(task, make_assistant, make_caller, **kwargs) -> EpisodeResult:
    return asyncio.run(
        run_episode(task, initial_tables(task), make_assistant, make_caller, **kwargs)
    )


# -- the transcript and what the assistant is shown --------------------------------------------


def test_a_turn_is_recorded_as_heard_and_the_assistant_is_shown_the_whole_conversation():
    caller = LineCaller(
        [
            CallerTurn(
                "Hello", usage=Usage(input_tokens=3, requests=1, cost_usd=0.25), flags=("a",)
            ),
            CallerTurn("", flags=("b", "c")),  # says nothing: not a line of the transcript
            CallerTurn("Bye then", True, Usage(output_tokens=5, requests=1, cost_usd=0.5)),
        ]
    )
    assistant = ScriptedAssistant(
        [
            AssistantTurn(
                text="Let me note that.",
                tool_calls=(call("add_note", NOTE, "n1"),),
                usage=Usage(input_tokens=10, requests=1, cost_usd=0.5),
            ),
            AssistantTurn(
                text="Done.", original_text="Done, I think.", usage=Usage(requests=1, cost_usd=0.25)
            ),
            AssistantTurn(usage=Usage(output_tokens=1, cost_usd=0.25)),  # says nothing at all
        ]
    )
    result = _run(RESCHEDULE, lambda ctx: assistant, lambda task, i: caller)

    assert [u.to_dict() for u in result.transcript] == [
        {"session": 0, "speaker": "assistant", "text": RESCHEDULE.business.greeting},
        {"session": 0, "speaker": "caller", "text": "Hello"},
        {
            "session": 0,
            "speaker": "assistant",
            "text": "Let me note that.",
            "tool_calls": [{"id": "n1", "name": "add_note", "arguments": NOTE}],
        },
        {
            "session": 0,
            "speaker": "assistant",
            "text": "Done.",
            "original_text": "Done, I think.",
        },
        {"session": 0, "speaker": "caller", "text": "Bye then"},
    ]
    assert result.endings == ["caller_hung_up"]
    assert result.caller_flags == ["a", "b", "c"]
    assert result.caller_usage.to_dict() == {
        "input_tokens": 3,
        "output_tokens": 5,
        "cached_tokens": 0,
        "reasoning_tokens": 0,
        "requests": 2,
        "cost_usd": 0.75,
    }
    assert result.usage.to_dict() == {
        "input_tokens": 10,
        "output_tokens": 1,
        "cached_tokens": 0,
        "reasoning_tokens": 0,
        "requests": 2,
        "cost_usd": 1.0,
    }

    # The caller sees the spoken lines of its session so far, never a tool call's result.
    assert [[u.text for u in v.lines] for v in caller.views] == [
        [RESCHEDULE.business.greeting],
        [RESCHEDULE.business.greeting, "Hello", "Let me note that.", "Done."],
        [RESCHEDULE.business.greeting, "Hello", "Let me note that.", "Done."],
    ]
    assert [v.session for v in caller.views] == [0, 0, 0]

    # Three requests: after "Hello", after the tool round, after the silent caller turn.
    system = system_prompt(RESCHEDULE.business, RESCHEDULE.now)
    assert [r.system for r in assistant.requests] == [system] * 3
    assert all(r.tools == assistant.requests[0].tools for r in assistant.requests)
    first, second, third = (r.messages for r in assistant.requests)
    assert first == (Message("user", "Hello"),)
    assert second[:2] == (
        Message("user", "Hello"),
        Message("assistant", "Let me note that.", tool_calls=(call("add_note", NOTE, "n1"),)),
    )
    (fed_back,) = second[2].tool_results
    assert second[2].role == "tool" and len(second) == 3
    assert (fed_back.call_id, fed_back.name, fed_back.is_error) == ("n1", "add_note", False)
    # The result is shown as the tool returned it, non-ASCII words as they are.
    assert '"body": "Café noté"' in fed_back.content
    assert json.loads(fed_back.content) == result.trace[0].result
    assert third == (*second, Message("assistant", "Done."))


def test_a_refused_call_is_shown_as_an_error():
    assistant = ScriptedAssistant(
        [AssistantTurn(tool_calls=(call("add_note", '{"customer_id": "CUS-9", "body": "x"}'),))]
    )
    _run(RESCHEDULE, lambda ctx: assistant, lambda task, i: LineCaller([CallerTurn("Hi")]))
    (shown,) = assistant.requests[1].messages[-1].tool_results
    assert shown.is_error
    assert json.loads(shown.content)["error"] == {
        "code": "not_found",
        "message": "No customer with id 'CUS-9'.",
        "field": "customer_id",
    }


def test_a_caller_who_hangs_up_with_words_is_heard_but_not_answered():
    assistant = ScriptedAssistant([])
    result = _run(
        RESCHEDULE,
        lambda ctx: assistant,
        lambda task, i: LineCaller([CallerTurn("No thanks, bye.", hang_up=True)]),
    )
    assert [u.text for u in result.transcript] == [RESCHEDULE.business.greeting, "No thanks, bye."]
    assert assistant.requests == [] and result.endings == ["caller_hung_up"]


def test_the_turn_limit_counts_the_callers_turns_exactly():
    def endless(task, i):
        return LineCaller([CallerTurn(f"line {n}") for n in range(50)])

    result = _run(RESCHEDULE, lambda ctx: ScriptedAssistant([]), endless, limits=Limits(3, 12))
    assert result.endings == ["turn_limit"]
    assert [u.text for u in result.transcript if u.speaker == "caller"] == [
        "line 0",
        "line 1",
        "line 2",
    ]
    default = _run(RESCHEDULE, lambda ctx: ScriptedAssistant([]), endless)
    assert default.endings == ["turn_limit"]
    assert sum(u.speaker == "caller" for u in default.transcript) == Limits().max_turns == 30


@pytest.mark.parametrize("rounds", [1, 2, 12])
def test_the_tool_round_limit_counts_the_rounds_of_one_turn_exactly(rounds):
    def looping(ctx):
        lookup = AssistantTurn(tool_calls=(call("find_customer", '{"name": "Maria"}'),))
        return ScriptedAssistant([lookup] * 40)

    limits = Limits(max_tool_rounds=rounds) if rounds != 12 else Limits()
    result = _run(
        RESCHEDULE, looping, lambda task, i: LineCaller([CallerTurn("Hi")]), limits=limits
    )
    assert result.endings == ["tool_round_limit"]
    assert len(result.trace) == rounds


def test_a_transfer_ends_the_session_after_its_round():
    assistant = ScriptedAssistant(
        [
            AssistantTurn(
                text="Transferring you.",
                tool_calls=(
                    call("transfer_to_human", '{"reason": "billing", "summary": "x"}', "t"),
                    call("find_customer", '{"name": "Maria"}', "f"),
                ),
            )
        ]
    )
    result = _run(TWO_CALLS, lambda ctx: assistant, lambda task, i: LineCaller([CallerTurn("Hi")]))
    # Both sessions ran (a transfer ends one session, not the task), one request each after
    # the transfer's round.
    assert result.endings == ["transferred", "caller_hung_up"]
    assert [(r.session, r.tool, r.outcome, r.error_code) for r in result.trace] == [
        (0, "transfer_to_human", "ok", None),
        (0, "find_customer", "rejected", "call_ended"),
    ]
    assert len(assistant.requests) == 2
    shown = [r.is_error for r in assistant.requests[1].messages[0].tool_results]
    assert assistant.requests[1].messages[0].role == "user"  # the second session is a new call
    assert shown == []


# -- sessions ------------------------------------------------------------------------------------


def test_each_session_has_its_own_assistant_caller_clock_and_greeting():
    contexts: list[EpisodeContext] = []
    assistants: list[ScriptedAssistant] = []
    callers: list[tuple[str, int]] = []
    note = AssistantTurn(tool_calls=(call("add_note", NOTE, "n"),))

    def make_assistant(ctx):
        contexts.append(ctx)
        assistants.append(ScriptedAssistant([note]))
        return assistants[-1]

    def make_caller(task, index):
        callers.append((task.id, index))
        return LineCaller([CallerTurn(f"session {index}")])

    result = _run(TWO_CALLS, make_assistant, make_caller, seed=7, trial=2)
    assert contexts == [EpisodeContext("mini_clinic", 7, 2)] * 2
    assert callers == [(TWO_CALLS.id, 0), (TWO_CALLS.id, 1)]
    greeting = TWO_CALLS.business.greeting
    assert [(u.session, u.speaker, u.text) for u in result.transcript] == [
        (0, "assistant", greeting),
        (0, "caller", "session 0"),
        (0, "assistant", ""),
        (0, "assistant", "Anything else?"),
        (0, "caller", "Bye."),
        (1, "assistant", greeting),
        (1, "caller", "session 1"),
        (1, "assistant", ""),
        (1, "assistant", "Anything else?"),
        (1, "caller", "Bye."),
    ]
    assert [a.requests[0].system for a in assistants] == [
        system_prompt(TWO_CALLS.business, s.at) for s in TWO_CALLS.sessions
    ]
    assert [(r.session, r.time, r.ledger_seq) for r in result.trace] == [
        (0, "2026-03-02T09:10", 1),
        (1, "2026-03-06T11:00", 2),
    ]
    assert result.endings == ["caller_hung_up", "caller_hung_up"]
    assert (result.seed, result.trial, result.task_id) == (7, 2, TWO_CALLS.id)


def test_a_briefed_factory_is_told_each_sessions_plan():
    briefs = []

    def make(ctx, brief):
        briefs.append((ctx, brief.session, brief.sessions, brief.task_id))
        return ScriptedAssistant([])

    _run(TWO_CALLS, BriefedFactory(make, "test"), lambda task, i: LineCaller([]), seed=1)
    assert briefs == [
        (EpisodeContext("mini_clinic", 1, 0), 0, 2, TWO_CALLS.id),
        (EpisodeContext("mini_clinic", 1, 0), 1, 2, TWO_CALLS.id),
    ]


def test_the_state_after_a_session_leaves_out_the_later_sessions_writes():
    notes = (
        '{"customer_id": "CUS-1001", "body": "first"}',
        '{"customer_id": "CUS-1001", "body": "second"}',
    )
    made = iter(notes)

    def make_assistant(ctx):
        return ScriptedAssistant([AssistantTurn(tool_calls=(call("add_note", next(made)),))])

    result = _run(TWO_CALLS, make_assistant, lambda task, i: LineCaller([CallerTurn("Hi")]))

    def bodies(state):
        return [n["body"] for n in state.rows("notes") if n["customer_id"] == "CUS-1001"]

    before = bodies(result.initial)
    assert bodies(result.state_after(0)) == [*before, "first"]
    assert bodies(result.state_after(1)) == [*before, "first", "second"]
    assert result.state_after(1) is result.final  # nothing written after the last session
    assert result.state_after(0) is not result.final
    assert bodies(result.initial) == before  # replaying changes no stored state


def test_a_session_with_no_later_writes_is_the_final_state():
    assistant_turns = iter(
        [[AssistantTurn(tool_calls=(call("add_note", NOTE),))], []]  # writes in session 0 only
    )
    result = _run(
        TWO_CALLS,
        lambda ctx: ScriptedAssistant(next(assistant_turns)),
        lambda task, i: LineCaller([CallerTurn("Hi")]),
    )
    assert result.state_after(0) is result.final


# -- endings by error ------------------------------------------------------------------------------


def test_a_provider_error_ends_the_episode_and_no_later_session_runs():
    closed: list[str] = []
    made: list[int] = []

    def make_assistant(ctx):
        made.append(len(made))
        return FailingAssistant()

    result = _run(TWO_CALLS, make_assistant, lambda task, i: LineCaller([CallerTurn("Hi")]))
    assert result.endings == ["infrastructure_error"] and result.infrastructure_error
    assert result.error == "ProviderError: 503 from provider after 4 attempts"
    assert result.error_status == 503
    assert made == [0]
    assert [u.session for u in result.transcript] == [0, 0]
    assert closed == []


def test_every_sessions_assistant_is_closed_however_it_ended():
    closed: list[str] = []
    transfer = AssistantTurn(
        tool_calls=(call("transfer_to_human", '{"reason": "r", "summary": "s"}'),)
    )
    turns = iter([[transfer], []])
    _run(
        TWO_CALLS,
        lambda ctx: Closing(next(turns), closed),
        lambda task, i: LineCaller([CallerTurn("Hi"), CallerTurn("And?")]),
    )
    assert closed == ["closed after 1 requests", "closed after 2 requests"]

    class FailsThenCloses(FailingAssistant):
        async def aclose(self) -> None:
            closed.append("closed after a provider error")

    closed.clear()
    result = _run(
        RESCHEDULE, lambda ctx: FailsThenCloses(), lambda t, i: LineCaller([CallerTurn("Hi")])
    )
    assert closed == ["closed after a provider error"] and result.infrastructure_error


def test_a_normal_episode_is_no_infrastructure_error():
    result = _run(RESCHEDULE, lambda ctx: ScriptedAssistant([]), lambda task, i: LineCaller([]))
    assert not result.infrastructure_error
    assert (result.error, result.error_status) == (None, None)


# -- the stored record ---------------------------------------------------------------------------


def test_the_record_of_an_episode_holds_everything_but_the_timings():
    assistant = ScriptedAssistant(
        [AssistantTurn(text="Noted.", tool_calls=(call("add_note", NOTE, "n1"),))]
    )
    caller = LineCaller([CallerTurn("Hi", flags=("odd",))])
    result = _run(RESCHEDULE, lambda ctx: assistant, lambda task, i: caller, seed=4, trial=1)
    record = result.to_dict()
    assert record == {
        "task_id": RESCHEDULE.id,
        "task_version": RESCHEDULE.version(),
        "seed": 4,
        "trial": 1,
        "endings": ["caller_hung_up"],
        "error": None,
        "error_status": None,
        "transcript": [u.to_dict() for u in result.transcript],
        "trace": [t.to_dict() for t in result.trace],
        "ledger": [e.to_dict() for e in result.ledger],
        "usage": result.usage.to_dict(),
        "caller_usage": result.caller_usage.to_dict(),
        "caller_flags": ["odd"],
    }
    assert len(record["transcript"]) == 5 and len(record["trace"]) == len(record["ledger"]) == 1
    assert record["usage"]["requests"] == 1  # the one "Anything else?" carries a request
    failed = _run(
        RESCHEDULE, lambda ctx: FailingAssistant(), lambda task, i: LineCaller([CallerTurn("Hi")])
    )
    assert (failed.to_dict()["error"], failed.to_dict()["error_status"]) == (
        "ProviderError: 503 from provider after 4 attempts",
        503,
    )
    assert sorted(result.timings) == ["harness_s", "model_s", "total_s"]


def test_the_timings_split_the_episode_into_model_and_harness_time(monkeypatch):
    """Wall-clock time, on a clock the test moves: the assistant's turns take 2 s each."""
    clock = {"now": 100.0}
    monkeypatch.setattr("sandbox.episode.time.perf_counter", lambda: clock["now"])

    class Slow(ScriptedAssistant):
        async def respond(self, request: TurnRequest) -> AssistantTurn:
            clock["now"] += 2.0
            return await super().respond(request)

    class SlowCaller(LineCaller):
        async def speak(self, view: CallerView) -> CallerTurn:
            clock["now"] += 0.5
            return await super().speak(view)

    lookup = AssistantTurn(tool_calls=(call("find_customer", '{"name": "Maria"}'),))
    result = _run(
        RESCHEDULE, lambda ctx: Slow([lookup]), lambda t, i: SlowCaller([CallerTurn("Hi")])
    )
    # Two caller turns (0.5 s each), two assistant turns (2 s each).
    assert result.timings == {"total_s": 5.0, "model_s": 4.0, "harness_s": 1.0}

    class SlowFailure(FailingAssistant):
        async def respond(self, request: TurnRequest) -> AssistantTurn:
            clock["now"] += 3.0
            return await super().respond(request)

    failed = _run(
        RESCHEDULE, lambda ctx: SlowFailure(), lambda t, i: SlowCaller([CallerTurn("Hi")])
    )
    # The retries that ended in the provider error are model time too.
    assert failed.timings == {"total_s": 3.5, "model_s": 3.0, "harness_s": 0.5}


@pytest.mark.parametrize(
    ("utterance", "expected"),
    [
        (Utterance(1, "caller", "hi"), {"session": 1, "speaker": "caller", "text": "hi"}),
        (
            Utterance(0, "assistant", "", ({"id": "a"},)),
            {"session": 0, "speaker": "assistant", "text": "", "tool_calls": [{"id": "a"}]},
        ),
        (
            Utterance(0, "assistant", "said", original_text=""),
            {"session": 0, "speaker": "assistant", "text": "said", "original_text": ""},
        ),
    ],
)
def test_an_utterance_records_only_the_fields_it_has(utterance, expected):
    assert utterance.to_dict() == expected


@pytest.mark.parametrize(
    ("lines", "last"),
    [
        ((), ""),
        ((Utterance(0, "caller", "hello"),), ""),
        (
            (
                Utterance(0, "assistant", "first"),
                Utterance(0, "assistant", "second"),
                Utterance(0, "caller", "and?"),
            ),
            "second",
        ),
    ],
)
def test_the_caller_sees_the_assistants_last_words(lines, last):
    assert CallerView(0, lines).last_assistant == last


# -- the world of a task ---------------------------------------------------------------------------


def test_faults_of_a_task_fail_the_same_calls_for_the_same_seed():
    """The draws are keyed on the task and the seed, so a stored run's failures are replayed."""
    flaky = replace(RESCHEDULE, faults=({"tool": "find_customer", "when": {"probability": 0.5}},))
    lookups = AssistantTurn(
        tool_calls=tuple(call("find_customer", '{"name": "Maria"}', f"c{n}") for n in range(12))
    )

    def outcomes(task, seed):
        result = _run(
            task,
            lambda ctx: ScriptedAssistant([lookups]),
            lambda t, i: LineCaller([CallerTurn("Hi")]),
            seed=seed,
        )
        return "".join("x" if r.outcome == "failed" else "." for r in result.trace)

    # Pinned: changing how the draws are seeded would change every stored run's failures.
    assert outcomes(flaky, 0) == outcomes(flaky, 0) == "xxx........x"
    assert outcomes(flaky, 1) == "x.x...xx.xxx"
    assert outcomes(replace(flaky, id="mini_clinic/another"), 0) == "xx.xx...xx.x"


def test_the_default_seed_and_trial_are_zero():
    result = _run(RESCHEDULE, lambda ctx: ScriptedAssistant([]), lambda task, i: LineCaller([]))
    assert (result.seed, result.trial) == (0, 0)


def test_the_tools_list_the_services_and_staff_of_the_tables_the_episode_starts_from():
    tables = initial_tables(RESCHEDULE)
    tables["services"]["SRV-1009"] = {**tables["services"]["SRV-1001"], "id": "SRV-1009"}
    tables["staff"]["STF-1009"] = {**tables["staff"]["STF-1001"], "id": "STF-1009"}
    assistant = ScriptedAssistant([])
    asyncio.run(
        run_episode(
            RESCHEDULE, tables, lambda ctx: assistant, lambda t, i: LineCaller([CallerTurn("Hi")])
        )
    )
    tools = {t.name: t for t in assistant.requests[0].tools}
    service = tools["list_availability"].parameters["properties"]["service_id"]
    assert service["enum"] == ["SRV-1001", "SRV-1002", "SRV-1009"]
    staff = tools["reschedule_appointment"].parameters["properties"]["staff_id"]
    assert staff["enum"] == ["STF-1001", "STF-1009"]


# -- a gate that refuses calls before they run ---------------------------------------------------


class Gatekeeper(ScriptedAssistant):
    """A real assistant that is its own gate: it refuses every add_note, and notes what it saw."""

    def __init__(self, turns: list[AssistantTurn]) -> None:
        super().__init__(turns)
        self.asked: list[tuple[ToolCall, TurnRequest, Effect | None]] = []

    def gate_tool_call(self, call: ToolCall, request: TurnRequest, preview):
        self.asked.append((call, request, preview(call.name, call.arguments)))
        if call.name != "add_note":
            return None
        return {"error": {"code": "not_allowed", "message": "no notes", "field": None}}


def test_the_gate_is_asked_before_each_call_with_the_conversation_so_far():
    lookup = call("find_customer", '{"name": "Maria"}', "a")
    note = call("add_note", NOTE, "b")
    gate = Gatekeeper([AssistantTurn(text="One moment.", tool_calls=(lookup, note))])
    result = _run(RESCHEDULE, lambda ctx: gate, lambda task, i: LineCaller([CallerTurn("Hi")]))

    first_request = gate.requests[0]
    said = Message("assistant", "One moment.", tool_calls=(lookup, note))
    (seen_a, asked_a, preview_a), (seen_b, asked_b, preview_b) = gate.asked
    assert (seen_a, preview_a) == (lookup, Effect.READ)
    assert asked_a == TurnRequest(
        first_request.system, first_request.tools, (*first_request.messages, said)
    )
    # The second call's gate sees the first call's result.
    fed_back = gate.requests[1].messages[-1]
    assert (seen_b, preview_b) == (note, Effect.REVERSIBLE)
    (lookup_result,) = asked_b.messages[-1].tool_results
    assert asked_b == TurnRequest(
        first_request.system,
        first_request.tools,
        (*first_request.messages, said, Message("tool", tool_results=(lookup_result,))),
    )
    assert lookup_result == fed_back.tool_results[0]

    refused = {"error": {"code": "not_allowed", "message": "no notes", "field": None}}
    assert [(r.call_id, r.tool, r.outcome, r.arguments, r.result) for r in result.trace] == [
        ("a", "find_customer", "ok", {"name": "Maria"}, result.trace[0].result),
        ("b", "add_note", "rejected", json.loads(NOTE), refused),
    ]
    assert [(e.call_id, e.outcome, e.changes) for e in result.ledger] == [("b", "rejected", ())]
    assert [(r.call_id, r.is_error, json.loads(r.content)) for r in fed_back.tool_results] == [
        ("a", False, result.trace[0].result),
        ("b", True, refused),
    ]
    assert result.final.to_dict() == result.initial.to_dict()


# -- the episode's deadline ------------------------------------------------------------------------


class Hangs(LineCaller):
    """A caller who, after its lines, never says anything again."""

    async def speak(self, view: CallerView) -> CallerTurn:
        if self.lines:
            return await super().speak(view)
        await asyncio.sleep(5)  # long past the deadline, short enough to fail when none holds
        raise AssertionError("the deadline should have cut the call off")


class Thinks(ScriptedAssistant):
    """An assistant that yields to the loop before each answer."""

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        await asyncio.sleep(0)
        return await super().respond(request)


def test_an_episode_past_its_deadline_ends_as_an_infrastructure_error_saying_so():
    result = _run(
        TWO_CALLS,
        lambda ctx: Thinks([]),
        lambda task, i: Hangs([CallerTurn("Hi")]),
        deadline_s=1,
    )
    assert result.endings == ["infrastructure_error"]
    assert result.error == (
        "EpisodeDeadlineError: the episode ran past its deadline of 1 s (--episode-timeout)"
    )
    assert result.error_status is None
    assert [u.text for u in result.transcript] == [
        TWO_CALLS.business.greeting,
        "Hi",
        "Anything else?",
    ]


class Stalls(ScriptedAssistant):
    """An assistant whose answer never comes in time."""

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        await asyncio.sleep(5)  # long past the deadline, short enough to fail when none holds
        raise AssertionError("the deadline should have cut the assistant off")


def test_the_deadline_cuts_off_the_assistant_too():
    result = _run(
        RESCHEDULE,
        lambda ctx: Stalls([]),
        lambda task, i: LineCaller([CallerTurn("Hi")]),
        deadline_s=1,
    )
    assert result.endings == ["infrastructure_error"]
    assert result.error == (
        "EpisodeDeadlineError: the episode ran past its deadline of 1 s (--episode-timeout)"
    )
    assert [u.text for u in result.transcript] == [RESCHEDULE.business.greeting, "Hi"]


def test_an_episode_within_its_deadline_runs_to_its_end():
    result = _run(
        TWO_CALLS,
        lambda ctx: Thinks([]),
        lambda task, i: LineCaller([CallerTurn("Hi")]),
        deadline_s=3600,
    )
    assert result.endings == ["caller_hung_up", "caller_hung_up"] and result.error is None


class OwnTimeout(LineCaller):
    async def speak(self, view: CallerView) -> CallerTurn:
        raise TimeoutError("the caller's own timeout")


@pytest.mark.parametrize("deadline_s", [None, 3600])
def test_a_steps_own_timeout_is_not_the_episodes_deadline(deadline_s):
    with pytest.raises(TimeoutError, match="the caller's own timeout"):
        _run(
            RESCHEDULE,
            lambda ctx: ScriptedAssistant([]),
            lambda task, i: OwnTimeout([]),
            deadline_s=deadline_s,
        )
