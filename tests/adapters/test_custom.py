"""python:package.module:factory — the README's example agent, run as written, and the errors a
team sees when its factory is wrong."""

from __future__ import annotations

import asyncio
import re
import textwrap
from pathlib import Path

import pytest

from adapters.errors import AdapterError, UnsupportedOptionError
from adapters.reference import reference_factory
from adapters.registry import make_factory
from businesses import PUBLIC_DIR, load_set
from businesses.loader import initial_tables
from callers import scripted_caller_factory
from opsbench.commands.serve import task_assistant
from sandbox.episode import run_episode
from sandbox.scorer import score_episode
from tests.adapters.support import CONTEXT, readme_example


@pytest.fixture
def my_agents(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The README example saved as my_agents.py on the import path."""
    (tmp_path / "my_agents.py").write_text(readme_example(), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(__import__("sys").modules, "my_agents", raising=False)
    return "my_agents"


def test_the_readme_agent_runs_a_full_episode(my_agents, server):
    _businesses, tasks = load_set(PUBLIC_DIR)
    task = next(t for t in tasks if len(t.sessions) == 2)
    tables = initial_tables(task)
    # The model behind the agent is the local server, answering as the oracle would.
    server.reset(task_assistant(task, "reference/oracle"))
    mine = asyncio.run(
        run_episode(
            task,
            tables,
            make_factory(
                f"python:{my_agents}:HouseStyleAgent",
                {"model": "openai/gpt-4.1"},
                server.openai_base_url,
            ),
            scripted_caller_factory,
        )
    )
    oracle = asyncio.run(
        run_episode(task, tables, reference_factory("oracle"), scripted_caller_factory)
    )
    assert not mine.infrastructure_error
    # The house rules change the prompt, not what the model behind it does.
    assert score_episode(task, mine).to_dict() == score_episode(task, oracle).to_dict()


def test_options_reach_the_factory_as_keyword_arguments(my_agents, server, retry):
    from adapters.server import ScriptedAssistant
    from tests.adapters.support import first_request, respond

    server.reset(ScriptedAssistant(["Hello from the model."]))
    agent = make_factory(
        f"python:{my_agents}:HouseStyleAgent",
        {"model": "openai/gpt-4.1"},
        server.openai_base_url,
    )(CONTEXT)
    assert respond(agent, first_request()).text == "Hello from the model."
    system = server.requests[-1].body["messages"][0]["content"]
    assert system.endswith("ask for a yes.")


def test_an_option_the_factory_does_not_declare_is_refused_by_name(my_agents):
    with pytest.raises(UnsupportedOptionError, match="'temperature' is not supported") as caught:
        make_factory(f"python:{my_agents}:HouseStyleAgent", {"temperature": 0})
    assert caught.value.option == "temperature"


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("python:my_agents", "should name a factory as python:package.module:factory"),
        ("python:no_such_module_xyz:make", "cannot import module 'no_such_module_xyz'"),
        ("python:json:no_such_factory", "module 'json' has no attribute 'no_such_factory'"),
        ("python:json:__doc__", "should be callable"),
    ],
)
def test_a_bad_target_says_what_is_wrong(target, message):
    with pytest.raises(AdapterError, match=re.escape(message)):
        make_factory(target)


def test_a_factory_must_return_something_with_async_respond(tmp_path, monkeypatch):
    (tmp_path / "not_an_agent.py").write_text(
        textwrap.dedent(
            """
            class Sync:
                def __init__(self, context):
                    pass

                def respond(self, request):
                    return None
            """
        ),
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    factory = make_factory("python:not_an_agent:Sync")
    with pytest.raises(AdapterError, match="returned Sync, which has no `async def respond"):
        factory(CONTEXT)
