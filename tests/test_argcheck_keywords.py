"""The quick argument check (tools/argcheck.py) keyword by keyword, at each boundary: it says yes
exactly to the instances jsonschema (Draft 2020-12) finds valid, but for the few it leaves to
jsonschema on purpose (3.0 as an integer, 1.0 in an enum of 1), and it declines (``None``) a
schema with a keyword it does not read.

``tests/test_argcheck.py`` checks the same over every tool's schema with random inputs; this
table is the fast, exact one."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from tools.argcheck import compile_check

OBJECT = {
    "type": "object",
    "properties": {"a": {"type": "integer"}, "b": {"type": "string", "maxLength": 2}},
    "required": ["a"],
    "additionalProperties": False,
}

CASES: list[tuple[Any, Any, bool]] = [
    # No constraint at all, or only annotations and extensions.
    (True, None, True),
    ({}, [1, "x"], True),
    ({"description": "d", "title": "t", "examples": [1], "default": 2, "x-table": "t"}, 5, True),
    ({"type": "string", "description": "d"}, 5, False),
    # Each type, and what it is not.
    ({"type": "string"}, "", True),
    ({"type": "string"}, 1, False),
    ({"type": "integer"}, -3, True),
    ({"type": "integer"}, True, False),
    ({"type": "integer"}, 2.5, False),
    ({"type": "number"}, 2.5, True),
    ({"type": "number"}, 2, True),
    ({"type": "number"}, False, False),
    ({"type": "number"}, "2", False),
    ({"type": "boolean"}, False, True),
    ({"type": "boolean"}, 0, False),
    ({"type": "object"}, {}, True),
    ({"type": "object"}, [], False),
    ({"type": "array"}, [], True),
    ({"type": "array"}, (), False),
    ({"type": "array"}, {}, False),
    ({"type": "null"}, None, True),
    ({"type": "null"}, 0, False),
    # Enums compare type and value.
    ({"enum": ["a", 1, None, 2.5, False]}, "a", True),
    ({"enum": ["a", 1, None, 2.5, False]}, 1, True),
    ({"enum": ["a", 1, None, 2.5, False]}, None, True),
    ({"enum": ["a", 1, None, 2.5, False]}, 2.5, True),
    ({"enum": ["a", 1, None, 2.5, False]}, False, True),
    ({"enum": ["a", 1, None, 2.5, False]}, True, False),
    ({"enum": ["a", 1, None, 2.5, False]}, 0, False),
    ({"enum": ["a", 1, None, 2.5, False]}, "b", False),
    ({"enum": [1]}, True, False),
    ({"type": "string", "enum": ["a", "b"]}, "b", True),
    ({"type": "string", "enum": ["a", "b"]}, "c", False),
    # String lengths, inclusive, and only for strings.
    ({"minLength": 2}, "ab", True),
    ({"minLength": 2}, "a", False),
    ({"minLength": 2}, 5, True),
    ({"maxLength": 2}, "ab", True),
    ({"maxLength": 2}, "abc", False),
    ({"maxLength": 2}, "", True),
    ({"maxLength": 2}, ["a", "b", "c"], True),
    ({"minLength": 1, "maxLength": 3}, "abc", True),
    ({"minLength": 1, "maxLength": 3}, "abcd", False),
    ({"minLength": 1, "maxLength": 3}, "", False),
    # A pattern is searched for anywhere, and only in strings.
    ({"pattern": "b"}, "abc", True),
    ({"pattern": "^b"}, "abc", False),
    ({"pattern": "^b"}, 7, True),
    ({"type": "string", "pattern": r"^\d{2}$", "minLength": 2}, "12", True),
    ({"type": "string", "pattern": r"^\d{2}$", "minLength": 2}, "1a", False),
    # Numbers, inclusive, and only for numbers.
    ({"minimum": 1}, 1, True),
    ({"minimum": 1}, 0.5, False),
    ({"minimum": 1}, "0", True),
    ({"minimum": 1}, True, True),
    ({"maximum": 3}, 3, True),
    ({"maximum": 3}, 3.5, False),
    ({"maximum": 3}, -10, True),
    ({"minimum": 0}, 0, True),
    ({"minimum": 0}, -1, False),
    ({"maximum": 0}, 0, True),
    ({"maximum": 0}, 1, False),
    ({"type": "integer", "minimum": 1, "maximum": 3}, 2, True),
    ({"type": "integer", "minimum": 1, "maximum": 3}, 0, False),
    ({"type": "integer", "minimum": 1, "maximum": 3}, 4, False),
    # Arrays: their length, inclusive, and each item; only for lists.
    ({"minItems": 1}, [0], True),
    ({"minItems": 1}, [], False),
    ({"minItems": 1}, "", True),
    ({"maxItems": 2}, [0, 0], True),
    ({"maxItems": 2}, [0, 0, 0], False),
    ({"maxItems": 2}, [], True),
    ({"minItems": 0}, [], True),
    ({"maxItems": 0}, [], True),
    ({"maxItems": 0}, [1], False),
    ({"items": {"type": "string"}}, ["a", "b"], True),
    ({"items": {"type": "string"}}, ["a", 2], False),
    ({"items": {"type": "string"}}, [], True),
    ({"items": {"type": "string"}}, "ab", True),
    ({"type": "array", "items": {"type": "integer"}, "minItems": 1}, [1], True),
    # Objects: required names, each property, closed or open; only for dicts.
    (OBJECT, {"a": 1}, True),
    (OBJECT, {"a": 1, "b": "xy"}, True),
    (OBJECT, {"b": "xy"}, False),
    (OBJECT, {"a": "1"}, False),
    (OBJECT, {"a": 1, "b": "xyz"}, False),
    (OBJECT, {"a": 1, "c": 1}, False),
    (OBJECT, {}, False),
    ({"required": ["a", "b"]}, {"a": 1, "b": 2}, True),
    ({"required": ["a", "b"]}, {"b": 2}, False),
    ({"required": ["a", "b"]}, {"a": 1}, False),
    ({"required": ["a"]}, ["a"], True),
    ({"required": []}, {}, True),
    ({"properties": {"a": {"type": "integer"}}}, {"a": 1, "z": "extra"}, True),
    ({"properties": {"a": {"type": "integer"}}}, {"z": 1, "a": "no"}, False),
    ({"properties": {"a": {"type": "integer"}}}, "not a dict", True),
    ({"properties": {"a": {"type": "integer"}}, "additionalProperties": True}, {"z": 1}, True),
    ({"additionalProperties": False}, {}, True),
    ({"additionalProperties": False}, {"z": 1}, False),
    ({"additionalProperties": False}, [1], True),
    ({"type": "object", "properties": {}, "additionalProperties": False}, {"z": None}, False),
    (
        {"type": "object", "properties": {"n": {"type": "object", "properties": {"m": {}}}}},
        {"n": {"m": [1]}},
        True,
    ),
    (
        {"properties": {"n": {"properties": {"m": {"type": "null"}}}}},
        {"n": {"m": 1}},
        False,
    ),
]


@pytest.mark.parametrize("schema, instance, valid", CASES)
def test_the_quick_check_says_yes_exactly_when_jsonschema_does(schema, instance, valid):
    check = compile_check(schema)
    assert check is not None
    assert check(instance) is valid
    assert jsonschema.Draft202012Validator(schema).is_valid(instance) is valid


@pytest.mark.parametrize(
    "schema, instance",
    [
        ({"type": "integer"}, 3.0),  # an integer to jsonschema, not certain here
        ({"enum": [1]}, 1.0),
    ],
)
def test_values_jsonschema_reads_loosely_are_left_to_it(schema, instance):
    check = compile_check(schema)
    assert check is not None and check(instance) is False
    assert jsonschema.Draft202012Validator(schema).is_valid(instance)


@pytest.mark.parametrize(
    "schema",
    [
        False,
        [{"type": "string"}],
        "string",
        {"const": 1},
        {"description": "read past", "const": 1},  # after an annotation, still read
        {"type": ["string", "null"]},
        {"type": "decimal"},
        {"enum": [[1]]},
        {"enum": [{"a": 1}]},
        {"enum": ["a", (1,)]},
        {"additionalProperties": {"type": "string"}},
        {"additionalProperties": None},
        {"type": "array", "items": {"oneOf": [{"type": "string"}]}},
        {"type": "object", "properties": {"a": {"format": "date"}}},
        {"type": "object", "properties": {"a": {"type": "string"}}, "minProperties": 1},
    ],
)
def test_a_schema_with_a_keyword_it_does_not_read_gets_no_quick_check(schema):
    assert compile_check(schema) is None
