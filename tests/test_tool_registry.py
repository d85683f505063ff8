"""The tool registry (tools/registry.py): its catalogue, selection, per-business schemas, what
models are shown, and the wording and field of every kind of argument error."""

from __future__ import annotations

from typing import Any

import pytest

from tools import Effect, default_registry
from tools.contract import Tool
from tools.params import integer, obj, ref, text
from tools.registry import ToolRegistry, ToolSpec


def _handler(tx: Any, args: dict[str, Any]) -> dict[str, Any]:
    return {}


def _tool(name: str, parameters: dict[str, Any] | None = None, description: str = "d") -> Tool:
    return Tool(name, description, parameters or obj(), Effect.READ, _handler)


ITEMS = obj(
    ["lines"],
    lines={
        "type": "array",
        "minItems": 1,
        "items": obj(["qty"], qty=integer("How many.", 1, 9), sku=text("SKU.", max_length=5)),
    },
    service_id=ref("services", "Service.", enum_ids=True),
    staff_id=ref("staff", "Staff member.", enum_ids=True),
    room_id=ref("rooms", "Room."),
)


def test_a_registry_keeps_its_tools_in_order_and_refuses_a_name_twice():
    a, b = _tool("a"), _tool("b")
    registry = ToolRegistry([b, a])
    assert registry.names() == ["b", "a"] and list(registry) == [b, a] and len(registry) == 2
    assert "a" in registry and "c" not in registry
    assert registry.get("a") is a and registry.get("c") is None
    with pytest.raises(ValueError) as raised:
        ToolRegistry([a, b, _tool("a")])
    assert str(raised.value) == "tool 'a' is defined twice"


def test_a_selection_keeps_the_catalogues_order_and_refuses_unknown_names():
    registry = ToolRegistry([_tool("a"), _tool("b"), _tool("c")])
    assert registry.select(["c", "a"]).names() == ["a", "c"]
    assert registry.select([]).names() == []
    with pytest.raises(KeyError) as raised:
        registry.select(["b", "x", "y"])
    assert raised.value.args == ("unknown tools ['x', 'y']; known tools are ['a', 'b', 'c']",)


def test_a_specialised_schema_lists_the_businesss_ids_where_a_tool_asks_for_them():
    registry = ToolRegistry([_tool("t", ITEMS)])
    special = registry.specialise({"services": ["SRV-1", "SRV-2"], "staff": [], "rooms": ["R"]})
    properties = special.get("t").parameters["properties"]
    assert properties["service_id"]["enum"] == ["SRV-1", "SRV-2"]
    assert "enum" not in properties["staff_id"]  # no ids: no enum
    assert "enum" not in properties["room_id"]  # not asked for
    assert properties["lines"] == ITEMS["properties"]["lines"]
    # The catalogue's own schema is untouched.
    assert "enum" not in registry.get("t").parameters["properties"]["service_id"]
    assert special.get("t").handler is _handler and special.names() == ["t"]


def test_ids_fill_enums_inside_lists_of_schemas():
    schema = {
        "type": "object",
        "properties": {
            "pick": {"anyOf": [ref("services", "Service.", enum_ids=True), {"type": "null"}]}
        },
    }
    special = ToolRegistry([_tool("t", schema)]).specialise({"services": ["SRV-1"]})
    assert special.get("t").parameters["properties"]["pick"]["anyOf"] == [
        {**ref("services", "Service.", enum_ids=True), "enum": ["SRV-1"]},
        {"type": "null"},
    ]


def test_models_see_the_schema_without_extension_keys_at_any_depth():
    schema = {
        **ITEMS,
        "properties": {
            **ITEMS["properties"],
            "pick": {"anyOf": [ref("services", "Service."), {"type": "null", "x-note": 1}]},
        },
    }
    registry = ToolRegistry([_tool("t", schema, "What t does.")])
    public = registry.public_schema("t")
    assert public["properties"]["service_id"] == {
        "type": "string",
        "minLength": 1,
        "description": "Service.",
    }
    assert public["properties"]["pick"] == {
        "anyOf": [
            {"type": "string", "minLength": 1, "description": "Service."},
            {"type": "null"},
        ]
    }
    assert public["properties"]["lines"] == ITEMS["properties"]["lines"]
    assert registry.specs() == [ToolSpec("t", "What t does.", public)]
    assert registry.specs() is not registry.specs()  # a fresh list each time


def test_valid_arguments_have_no_error_by_either_check():
    plain = ToolRegistry([_tool("t", ITEMS)])
    assert plain.validation_error("t", {"lines": [{"qty": 1, "sku": "AB"}]}) is None
    # A schema the quick check does not read is checked by jsonschema alone.
    loose = ToolRegistry([_tool("u", {"type": "object", "anyOf": [{"required": ["a"]}]})])
    assert loose.validation_error("u", {"a": 1}) is None
    assert loose.validation_error("u", {"a": 2}) is None  # and again, from the cache
    # A schema without a type: the quick check reads the arguments themselves.
    untyped = ToolRegistry([_tool("v", {"properties": {"a": {"type": "integer"}}})])
    assert untyped.validation_error("v", {"a": 1}) is None
    wrong = untyped.validation_error("v", {"a": "1"})
    assert wrong is not None and wrong.payload()["error"]["field"] == "a"
    error = loose.validation_error("u", {"b": 1})
    assert error is not None and error.payload() == {
        "error": {
            "code": "invalid_arguments",
            "message": "Invalid arguments at a: 'a' is a required property",
            "field": "a",
        }
    }


@pytest.mark.parametrize(
    "arguments, field, message",
    [
        ({}, "lines", "Invalid arguments at lines: 'lines' is a required property"),
        (
            {"lines": [{"qty": 1}], "extra": 2},
            "extra",
            "Invalid arguments at extra: Additional properties are not allowed ('extra' was"
            " unexpected)",
        ),
        (
            {"lines": [{"qty": 1}, {"qty": 10}]},
            "lines[1].qty",
            "Invalid arguments at lines[1].qty: 10 is greater than the maximum of 9",
        ),
        (
            {"lines": [{"qty": 1}, {}]},
            "lines[1].qty",
            "Invalid arguments at lines[1].qty: 'qty' is a required property",
        ),
        (
            {"lines": [{"qty": 1, "colour": "red"}]},
            "lines[0].colour",
            "Invalid arguments at lines[0].colour: Additional properties are not allowed"
            " ('colour' was unexpected)",
        ),
        ({"lines": []}, "lines", "Invalid arguments at lines: [] should be non-empty"),
        ([1, 2], None, "Invalid arguments: [1, 2] is not of type 'object'"),
    ],
)
def test_an_argument_error_names_the_field_by_its_path(arguments, field, message):
    registry = ToolRegistry([_tool("t", ITEMS)])
    error = registry.validation_error("t", arguments)
    assert error is not None
    assert error.payload() == {
        "error": {"code": "invalid_arguments", "message": message, "field": field}
    }
    again = registry.validation_error("t", arguments)
    assert again is not None and again.payload() == error.payload()


def test_the_shipped_catalogue_holds_every_modules_tools_once_in_a_stable_order():
    registry = default_registry()
    names = registry.names()
    assert len(names) == len(set(names)) == len(registry)
    assert names[:3] == ["find_customer", "verify_customer", "get_customer"]
    for first, later in [
        ("find_customer", "book_appointment"),
        ("book_appointment", "search_products"),
        ("search_products", "charge"),
        ("charge", "change_plan"),
        ("change_plan", "add_note"),
        ("add_note", "get_customer_history"),
        ("list_freezes", "list_classes"),
        ("list_classes", "search_rooms"),
        ("search_rooms", "refund_stay_deposit"),
    ]:
        assert names.index(first) < names.index(later), (first, later)
    for name in (
        "check_gift_card",
        "list_pets",
        "list_pet_prescriptions",
        "list_prescriptions",
        "list_vehicles",
        "list_service_accounts",
    ):
        assert name in registry, name
