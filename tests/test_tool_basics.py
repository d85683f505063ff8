"""The pieces every tool is built from: its error, the shared helpers, its effect class and the
provider formats of its spec."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from sandbox import State
from sandbox.ledger import Transaction
from tools import Effect, default_registry
from tools.common import arg_date, arg_time, money, need_table, now, public, require
from tools.errors import ToolError, conflict, invalid, not_found
from tools.formats import to_anthropic, to_json, to_openai
from tools.registry import ToolSpec


def _raised(call) -> ToolError:
    with pytest.raises(ToolError) as caught:
        call()
    return caught.value


def test_a_tool_error_carries_its_code_words_and_field_and_shows_them_as_json():
    error = ToolError("unavailable", "The booking system is down.", "start")
    assert (error.code, error.message, error.field, str(error)) == (
        "unavailable",
        "The booking system is down.",
        "start",
        "The booking system is down.",
    )
    assert error.payload() == {
        "error": {"code": "unavailable", "message": "The booking system is down.", "field": "start"}
    }
    assert ToolError("call_ended", "Gone.").payload() == {
        "error": {"code": "call_ended", "message": "Gone.", "field": None}
    }


@pytest.mark.parametrize(
    "error, payload",
    [
        (
            not_found("customer", "CUS-9", "customer_id"),
            ("not_found", "No customer with id 'CUS-9'.", "customer_id"),
        ),
        (not_found("order", 7, "order_id"), ("not_found", "No order with id 7.", "order_id")),
        (conflict("Double booked.", "start"), ("conflict", "Double booked.", "start")),
        (conflict("Double booked."), ("conflict", "Double booked.", None)),
        (invalid("Bad.", "date"), ("invalid_arguments", "Bad.", "date")),
        (invalid("Bad."), ("invalid_arguments", "Bad.", None)),
    ],
)
def test_each_kind_of_refusal_has_its_code(error, payload):
    code, message, field = payload
    assert error.payload() == {"error": {"code": code, "message": message, "field": field}}


def _tx(tables: dict | None = None, specs: dict | None = None) -> Transaction:
    return Transaction(State(tables or {}, specs), "2026-03-02T09:10", Effect.READ)


def test_require_returns_the_record_or_names_the_argument_and_the_kind_of_record():
    row = {"id": "APT-1001", "customer_id": "CUS-1001"}
    tx = _tx({"appointments": {"APT-1001": row}})
    assert require(tx, "appointments", "APT-1001", "appointment_id") == row
    missing = _raised(lambda: require(tx, "appointments", "APT-1002", "appointment_id"))
    assert missing.payload()["error"] == {
        "code": "not_found",
        "message": "No appointment with id 'APT-1002'.",
        "field": "appointment_id",
    }
    # A table the business does not keep holds nothing; a table with no label is named as is.
    for table, label in (("stays", "stay"), ("loaners", "loaners")):
        error = _raised(lambda t=table: require(tx, t, "X-1", "id"))
        assert error.payload()["error"]["message"] == f"No {label} with id 'X-1'."


def test_need_table_refuses_only_a_table_the_business_does_not_keep():
    tx = _tx()
    assert need_table(tx, "notes", "customer_id", "No notes here.") is None
    error = _raised(lambda: need_table(tx, "pets", "pet_id", "No pets here."))
    assert error.payload()["error"] == {
        "code": "invalid_arguments",
        "message": "No pets here.",
        "field": "pet_id",
    }


def test_public_leaves_out_every_verification_answer_and_nothing_else():
    record = {"id": "CUS-1", "name": "Ann", "dob": "1990-01-01", "postcode": "1000", "pin": "1234"}
    record["security_answer"] = "Rex"
    assert public(record) == {"id": "CUS-1", "name": "Ann"}


def test_times_and_dates_in_arguments_are_read_or_refused_naming_the_field():
    assert arg_time("2026-03-02T09:10", "start") == datetime(2026, 3, 2, 9, 10)
    assert arg_date("2026-03-02", "until") == date(2026, 3, 2)
    assert _raised(lambda: arg_time("2026-03-32T09:10", "start")).payload()["error"] == {
        "code": "invalid_arguments",
        "message": "'2026-03-32T09:10' is not a valid time; expected YYYY-MM-DDTHH:MM.",
        "field": "start",
    }
    assert _raised(lambda: arg_date("2026-02-30", "until")).payload()["error"] == {
        "code": "invalid_arguments",
        "message": "'2026-02-30' is not a valid date; expected YYYY-MM-DD.",
        "field": "until",
    }
    assert now(_tx()) == datetime(2026, 3, 2, 9, 10)


@pytest.mark.parametrize(
    "cents, text",
    [
        (0, "$0.00"),
        (5, "$0.05"),
        (99, "$0.99"),
        (100, "$1.00"),
        (2550, "$25.50"),
        (123456, "$1,234.56"),
    ],
)
def test_money_is_dollars_with_thousands_separated_and_two_cent_digits(cents, text):
    assert money(cents) == text


def test_effects_rank_from_read_to_irreversible_and_only_reads_write_nothing():
    ranks = [
        e.rank for e in (Effect.READ, Effect.REVERSIBLE, Effect.COMPENSABLE, Effect.IRREVERSIBLE)
    ]
    assert ranks == [0, 1, 2, 3]
    registry = default_registry()
    assert registry.get("get_customer").writes is False
    assert registry.get("add_note").writes is True
    assert registry.get("send_sms").writes is True


SPECS = [
    ToolSpec("a", "First.", {"type": "object", "properties": {}}),
    ToolSpec("b", "Second.", {"type": "object", "required": ["x"]}),
]


def test_the_provider_formats_carry_name_description_and_schema():
    assert to_openai(SPECS) == [
        {
            "type": "function",
            "function": {"name": s.name, "description": s.description, "parameters": s.parameters},
        }
        for s in SPECS
    ]
    assert to_anthropic(SPECS) == [
        {"name": s.name, "description": s.description, "input_schema": s.parameters} for s in SPECS
    ]
    assert to_json(SPECS) == [
        {"name": s.name, "description": s.description, "parameters": s.parameters} for s in SPECS
    ]
