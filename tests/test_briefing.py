"""Wrapping an assistant factory (sandbox/briefing.py's ``wrapped``): a reference factory stays
briefed, under its name, and every assistant either kind makes goes through the wrapper."""

from __future__ import annotations

from typing import Any

from sandbox.briefing import BriefedFactory, wrapped


def _labelled(assistant: Any) -> tuple[str, Any]:
    return ("wrapped", assistant)


def test_a_briefed_factory_stays_briefed_and_its_assistants_are_wrapped() -> None:
    factory = BriefedFactory(lambda context, brief: ("made", context, brief), "reference/oracle")
    wrapped_factory = wrapped(factory, _labelled)
    assert isinstance(wrapped_factory, BriefedFactory)
    assert repr(wrapped_factory) == "BriefedFactory('reference/oracle')"
    assert wrapped_factory("context", "brief") == ("wrapped", ("made", "context", "brief"))


def test_a_plain_factory_stays_plain_and_its_assistants_are_wrapped() -> None:
    wrapped_factory = wrapped(lambda context: ("made", context), _labelled)
    assert not isinstance(wrapped_factory, BriefedFactory)
    assert wrapped_factory("context") == ("wrapped", ("made", "context"))
