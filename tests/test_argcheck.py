"""The quick argument check never calls invalid arguments valid: wherever it says yes,
jsonschema (Draft 2020-12) says yes too, over every tool's schema and many wrong inputs, and it
says yes to plainly valid arguments (so the slow path is the exception)."""

from __future__ import annotations

import copy
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tools.argcheck import compile_check
from tools.registry import default_registry

# The registry as shipped, and as a business sees it (its ids filled in as enums).
TOOLS = [
    *default_registry(),
    *default_registry().specialise({"services": ["SVC-1001", "SVC-1002"], "staff": ["STF-1001"]}),
]


def _valid(schema: dict[str, Any]) -> Any:
    """A minimal instance of ``schema`` (one of the tools' simple schemas)."""
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object":
        return {name: _valid(schema["properties"][name]) for name in schema.get("required", [])}
    if kind == "array":
        return [_valid(schema["items"])] * schema.get("minItems", 0) if "items" in schema else []
    if kind == "integer":
        return schema.get("minimum", 0)
    if kind == "boolean":
        return True
    if kind == "string":
        for candidate in ("CUS-1001", "2026-01-05", "2026-01-05T09:00", "09:00", "a" * 8, "x"):
            if jsonschema.Draft202012Validator(schema).is_valid(candidate):
                return candidate
        return "x" * schema.get("minLength", 1)
    return None


def _mutations(schema: dict[str, Any], value: dict[str, Any]) -> list[Any]:
    """Near misses of a valid instance: every kind of mistake a model makes."""
    out: list[Any] = [None, [], "text", 3, {**value, "unexpected": 1}]
    for name in schema.get("required", []):
        out.append({k: v for k, v in value.items() if k != name})
    for name, sub in schema.get("properties", {}).items():
        for wrong in (None, True, 1, 1.0, 2.5, "", "z" * 500, "not an id", [], {}, -1, 10**9):
            out.append({**value, name: wrong})
        if sub.get("type") == "array":
            out.append({**value, name: [None]})
            out.append({**value, name: ["x"] * 50})
    return out


@pytest.mark.parametrize("tool", TOOLS)
def test_the_quick_check_agrees_with_jsonschema_on_every_tool(tool):
    schema = tool.parameters
    check = compile_check(schema)
    assert check is not None, f"{tool.name}: schema uses a keyword the quick check skips"
    validator = jsonschema.Draft202012Validator(schema)
    value = _valid(schema)
    assert validator.is_valid(value), f"{tool.name}: the test's instance {value} is invalid"
    assert check(value), f"{tool.name}: a valid instance {value} was not recognised"
    for candidate in _mutations(schema, value):
        if check(candidate):
            assert validator.is_valid(candidate), f"{tool.name}: {candidate!r} called valid"


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.floats(-5, 5) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(tool=st.sampled_from(TOOLS), field=st.integers(0, 20), value=JSON)
def test_no_random_value_is_called_valid_that_jsonschema_refuses(tool, field, value):
    schema = tool.parameters
    check = compile_check(schema)
    assert check is not None
    arguments = copy.deepcopy(_valid(schema))
    names = list(schema.get("properties", {})) or ["x"]
    arguments[names[field % len(names)]] = value
    if check(arguments):
        assert jsonschema.Draft202012Validator(schema).is_valid(arguments)


@pytest.mark.parametrize(
    ("schema", "instance", "valid"),
    [
        ({"type": "integer"}, True, False),
        ({"type": "integer"}, 3, True),
        ({"enum": [1, "a"]}, True, False),
        ({"enum": [1, "a"]}, "a", True),
        ({"type": "string", "pattern": "^A"}, "AB", True),
        ({"type": "string", "pattern": "^A"}, "BA", False),
        ({"type": "array", "items": {"type": "string"}, "maxItems": 1}, ["a", "b"], False),
        ({"type": "object", "additionalProperties": False}, {"a": 1}, False),
        ({"type": "integer", "minimum": 1, "maximum": 3}, 4, False),
    ],
)
def test_the_quick_check_reads_each_keyword_as_jsonschema_does(schema, instance, valid):
    check = compile_check(schema)
    assert check is not None
    assert check(instance) is valid
    assert jsonschema.Draft202012Validator(schema).is_valid(instance) is valid


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "patternProperties": {"^x": {}}},
        {"$ref": "#/$defs/a"},
        {"anyOf": [{"type": "string"}]},
        {"enum": [[1]]},
        {"type": ["string", "null"]},
        {"type": "object", "additionalProperties": {"type": "string"}},
    ],
)
def test_a_schema_beyond_the_quick_check_gets_none_and_goes_to_jsonschema(schema):
    assert compile_check(schema) is None
