"""The retry budget and the timeout are checked when the factory is made, for every provider
adapter: a budget of no request or a negative timeout is refused by name, in one line, instead of
failing later (a ValueError traceback, or every episode an infrastructure error)."""

from __future__ import annotations

import pytest

from adapters.errors import UnsupportedOptionError
from adapters.registry import make_factory

LOCAL = "http://127.0.0.1:9/v1"  # never contacted: options are checked first
MODELS = ("openai/gpt-4.1", "anthropic/claude-sonnet-4-5", "litellm/openai/gpt-4.1")


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize(
    ("options", "option", "expected"),
    [
        ({"max_attempts": 0}, "max_attempts", "an integer of at least 1, got 0"),
        ({"max_attempts": -3}, "max_attempts", "an integer of at least 1, got -3"),
        ({"timeout": -1}, "timeout", "a number greater than 0, got -1.0"),
        ({"timeout": 0}, "timeout", "a number greater than 0, got 0.0"),
        ({"timeout": "nan"}, "timeout", "a number greater than 0, got nan"),
    ],
)
def test_a_retry_budget_or_timeout_out_of_range_is_refused_by_name(
    model: str, options: dict, option: str, expected: str
):
    with pytest.raises(UnsupportedOptionError) as info:
        make_factory(model, options, LOCAL)
    assert info.value.option == option
    assert str(info.value) == f"option {option!r} for {model} expects {expected}"


@pytest.mark.parametrize("model", MODELS)
def test_a_positive_timeout_and_a_budget_of_one_request_are_accepted(model: str):
    assert callable(make_factory(model, {"timeout": 0.5, "max_attempts": 1}, LOCAL))
