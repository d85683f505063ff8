"""A quick yes for tool arguments that are plainly valid, before any JSON Schema machinery.

Every tool call's arguments are checked against the tool's JSON Schema (Draft 2020-12). Nearly
all of them are valid, and jsonschema's full check (plus ``best_match`` over its errors) costs
about a tenth of a millisecond per call, and its import a fifth of a second at start-up. The
tools' schemas use a small set of keywords; :func:`compile_check` turns a schema made only of
those into a predicate that says ``True`` only when the arguments are valid under the same
rules. Anything else (``False``: invalid or not certain) goes to jsonschema, which alone words
the error, so messages are unchanged. A schema with a keyword outside the set gets no
predicate at all (``None``): jsonschema checks every call of that tool.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

Check = Callable[[Any], bool]

# Keywords that only annotate (they never make an instance invalid).
_ANNOTATIONS = frozenset({"description", "title", "examples", "default"})
_SUPPORTED = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "minLength",
        "maxLength",
        "pattern",
        "minimum",
        "maximum",
        "enum",
        "items",
        "minItems",
        "maxItems",
    }
)


class _Unsupported(Exception):
    pass


def compile_check(schema: Mapping[str, Any]) -> Check | None:
    """A predicate that is ``True`` only for instances valid under ``schema``; ``None`` when
    ``schema`` uses a keyword this module does not read."""
    try:
        return _compile(schema)
    except _Unsupported:
        return None


def _is_int(value: Any) -> bool:
    # Draft 2020-12 also counts 3.0 as an integer; such values go to jsonschema.
    return type(value) is int


def _is_number(value: Any) -> bool:
    return type(value) is int or type(value) is float


_TYPES: dict[str, Check] = {
    "string": lambda v: type(v) is str,
    "integer": _is_int,
    "number": _is_number,
    "boolean": lambda v: type(v) is bool,
    "object": lambda v: type(v) is dict,
    "array": lambda v: type(v) is list,
    "null": lambda v: v is None,
}


def _compile(schema: Any) -> Check:
    if schema is True:
        return lambda _v: True
    if not isinstance(schema, Mapping):
        raise _Unsupported
    checks: list[Check] = []
    for key in schema:
        if key in _ANNOTATIONS or key.startswith("x-"):
            continue
        if key not in _SUPPORTED:
            raise _Unsupported
    kind = schema.get("type")
    if kind is not None:
        if not isinstance(kind, str) or kind not in _TYPES:
            raise _Unsupported
        checks.append(_TYPES[kind])
    if "enum" in schema:
        # Same type and equal: jsonschema tells 1 from True, which plain == does not. Only
        # scalar options: containers would need jsonschema's deep comparison.
        if not all(o is None or type(o) in (str, int, float, bool) for o in schema["enum"]):
            raise _Unsupported
        options = [(type(o), o) for o in schema["enum"]]
        checks.append(lambda v: any(type(v) is t and v == o for t, o in options))
    checks.extend(_string_checks(schema))
    checks.extend(_number_checks(schema))
    checks.extend(_array_checks(schema))
    checks.extend(_object_checks(schema))
    if not checks:
        return lambda _v: True
    if len(checks) == 1:
        return checks[0]
    return lambda v: all(check(v) for check in checks)


def _string_checks(schema: Mapping[str, Any]) -> list[Check]:
    out: list[Check] = []
    low, high = schema.get("minLength"), schema.get("maxLength")
    if low is not None or high is not None:
        lo = 0 if low is None else int(low)
        hi = None if high is None else int(high)
        out.append(lambda v: type(v) is not str or (len(v) >= lo and (hi is None or len(v) <= hi)))
    if "pattern" in schema:
        pattern = re.compile(schema["pattern"])
        out.append(lambda v: type(v) is not str or pattern.search(v) is not None)
    return out


def _number_checks(schema: Mapping[str, Any]) -> list[Check]:
    out: list[Check] = []
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is not None or high is not None:
        out.append(
            lambda v: (
                not _is_number(v) or ((low is None or v >= low) and (high is None or v <= high))
            )
        )
    return out


def _array_checks(schema: Mapping[str, Any]) -> list[Check]:
    out: list[Check] = []
    low, high = schema.get("minItems"), schema.get("maxItems")
    if low is not None or high is not None:
        out.append(
            lambda v: (
                type(v) is not list
                or ((low is None or len(v) >= low) and (high is None or len(v) <= high))
            )
        )
    if "items" in schema:
        item = _compile(schema["items"])
        out.append(lambda v: type(v) is not list or all(item(x) for x in v))
    return out


def _object_checks(schema: Mapping[str, Any]) -> list[Check]:
    out: list[Check] = []
    required = tuple(schema.get("required", ()))
    if required:
        out.append(lambda v: type(v) is not dict or all(k in v for k in required))
    properties = {name: _compile(sub) for name, sub in schema.get("properties", {}).items()}
    extra = schema.get("additionalProperties", True)
    if extra is not True and extra is not False:
        raise _Unsupported
    closed = extra is False
    if properties or closed:

        def check_properties(v: Any) -> bool:
            if type(v) is not dict:
                return True
            for name, value in v.items():
                check = properties.get(name)
                if check is None:
                    if closed:
                        return False
                elif not check(value):
                    return False
            return True

        out.append(check_properties)
    return out


__all__ = ["Check", "compile_check"]
