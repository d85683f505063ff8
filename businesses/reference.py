"""The authoring guide's reference section, generated from the table schemas and rule types.

``businesses/README.md`` holds the output between :data:`BEGIN` and :data:`END`; a test fails
when they drift, and ``opsbench businesses reference --write`` brings the guide up to date.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sandbox.rules import RULE_TYPES
from sandbox.tables import STANDARD_TABLES
from tools.timefmt import DATE_PATTERN, TIME_PATTERN

GUIDE = Path(__file__).parent / "README.md"
BEGIN = "<!-- BEGIN GENERATED REFERENCE (opsbench businesses reference --write) -->"
END = "<!-- END GENERATED REFERENCE -->"


class GuideError(Exception):
    """The guide lacks the markers the reference goes between."""


def describe_type(schema: dict[str, Any]) -> str:
    """A JSON Schema as a few words: ``time YYYY-MM-DDTHH:MM or null``, ``integer ≥ 0``."""
    if "enum" in schema:
        return "one of " + ", ".join(f"`{v}`" for v in schema["enum"])
    types = schema.get("type", "any")
    types = types if isinstance(types, list) else [types]
    nullable = "null" in types
    main = [t for t in types if t != "null"] or ["null"]
    words = []
    for kind in main:
        if kind == "string" and schema.get("pattern") == TIME_PATTERN:
            words.append("time `YYYY-MM-DDTHH:MM`")
        elif kind == "string" and schema.get("pattern") == DATE_PATTERN:
            words.append("date `YYYY-MM-DD`")
        elif kind == "string":
            words.append("text" + (" (not empty)" if schema.get("minLength") else ""))
        elif kind == "integer" and "minimum" in schema:
            words.append(f"integer ≥ {schema['minimum']}")
        elif kind == "array":
            words.append("list of " + describe_type(schema.get("items", {})))
        elif kind == "object" and isinstance(schema.get("additionalProperties"), dict):
            words.append("map of " + describe_type(schema["additionalProperties"]))
        elif kind == "object" and schema.get("properties"):
            inner = ", ".join(
                f"{name}{'' if name in schema.get('required', []) else '?'}"
                for name in schema["properties"]
            )
            words.append(f"object {{{inner}}}")
        else:
            words.append({"boolean": "true/false", "integer": "integer"}.get(kind, kind))
    return " or ".join(words) + (" or null" if nullable else "")


def tables_section() -> list[str]:
    lines = [
        "### Tables and their fields",
        "",
        "Records are closed: a field not listed here is an error (with a did-you-mean), so a",
        "misspelt field cannot silently change what a task measures. Domain detail beyond these",
        "fields goes in a table the business declares under `tables:`.",
        "",
    ]
    for spec in STANDARD_TABLES.values():
        required = set(spec.schema.get("required", []))
        lines += [
            f"**`{spec.name}`** (ids `{spec.prefix}-1001`, `{spec.prefix}-1002`, …)",
            "",
            "| field | type | |",
            "|---|---|---|",
        ]
        for name, field in spec.schema["properties"].items():
            mark = "required" if name in required else ""
            lines.append(f"| `{name}` | {describe_type(field)} | {mark} |")
        lines.append("")
    return lines


def rules_section() -> list[str]:
    lines = [
        "### Rule types and what each checks",
        "",
        "Set under `rules:` as `- rule: NAME` with `params: {...}`; unknown parameters are errors.",
        "",
    ]
    for rule in sorted(RULE_TYPES.values(), key=lambda r: r.name):
        schema = rule.params_schema
        required = set(schema.get("required", []))
        params = [
            f"`{name}` ({describe_type(field)}{'' if name in required else ', optional'})"
            for name, field in schema.get("properties", {}).items()
        ]
        checks = " ".join((rule.check.__doc__ or "").split())
        lines.append(f"- **`{rule.name}`**: {rule.description}")
        lines.append(f"  Parameters: {'; '.join(params) if params else 'none'}.")
        if checks:
            lines.append(f"  Checks: {checks}")
    lines.append("")
    return lines


def reference_markdown() -> str:
    """The generated section, markers included."""
    body = [BEGIN, "", *tables_section(), *rules_section(), END]
    return "\n".join(body) + "\n"


def with_reference(text: str) -> str:
    """``text`` (the guide) with its generated section replaced by the current one."""
    start, end = text.find(BEGIN), text.find(END)
    if start == -1 or end == -1 or end < start:
        raise GuideError(f"the guide has no {BEGIN!r} … {END!r} section to fill")
    after = text[end + len(END) :].removeprefix("\n")
    return text[:start] + reference_markdown() + after
