"""Readable schema errors (sandbox/schema_errors.py): a bad value quoted at most 80 characters,
an unknown field with a did-you-mean or the fields there are, and keys that are not strings."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from sandbox.schema_errors import MAX_VALUE_CHARS, describe, short_repr


@pytest.mark.parametrize(
    "value, shown",
    [
        ("x" * 78, "'" + "x" * 78 + "'"),  # a repr of exactly 80 characters stays whole
        ("x" * 79, "'" + "x" * 78 + "…"),  # one more is cut to 79 and an ellipsis
        (list(range(40)), repr(list(range(40)))[:79] + "…"),
    ],
)
def test_a_value_is_quoted_whole_up_to_the_limit_and_cut_past_it(value: Any, shown: str) -> None:
    assert short_repr(value) == shown
    assert len(short_repr(value)) <= MAX_VALUE_CHARS


def _described(schema: dict[str, Any], instance: Any) -> list[tuple[list[Any], str]]:
    return [
        found
        for error in Draft202012Validator(schema).iter_errors(instance)
        for found in describe(error)
    ]


CLOSED = {"type": "object", "additionalProperties": False}


@pytest.mark.parametrize(
    "schema, instance, expected",
    [
        (
            {**CLOSED, "properties": {"status": {}, "start": {}}},
            {"statsu": "booked"},
            [(["statsu"], "unknown field 'statsu'; did you mean 'status'?")],
        ),
        (
            {**CLOSED, "properties": {"status": {}, "start": {}}},
            {"colour": "red"},
            [(["colour"], "unknown field 'colour'; known: start, status")],
        ),
        # An object that allows no field at all names the field and nothing to choose from.
        (CLOSED, {"colour": "red"}, [(["colour"], "unknown field 'colour'")]),
        # YAML keys that are numbers: each is named, at the object's own path.
        (
            {**CLOSED, "properties": {"status": {}}},
            {1: "a", 2: "b"},
            [
                ([], "unknown field 1; fields are strings"),
                ([], "unknown field 2; fields are strings"),
            ],
        ),
    ],
)
def test_each_unknown_field_is_named_with_the_fields_there_are(
    schema: dict[str, Any], instance: Any, expected: list[tuple[list[Any], str]]
) -> None:
    assert _described(schema, instance) == expected


def test_a_long_bad_value_is_quoted_short_in_the_message() -> None:
    value = "x" * 100
    assert _described({"type": "integer"}, value) == [
        ([], f"{short_repr(value)} is not of type 'integer'")
    ]
    assert _described({"type": "integer"}, "x") == [([], "'x' is not of type 'integer'")]
