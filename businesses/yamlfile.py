"""Reading a business or task file: bounded, strict YAML, every problem one line naming the file.

What a plain ``yaml.safe_load`` lets through and this refuses:

- a file larger than :data:`MAX_FILE_BYTES` (no task file is near it; a huge one is a mistake);
- bytes that are not UTF-8 text (a binary file, a Latin-1 or UTF-16 export);
- a key given twice in one mapping (YAML keeps the last one silently);
- aliases that expand to more than :data:`MAX_ALIAS_NODES` extra nodes (an "alias bomb" of a
  few hundred bytes would otherwise expand to gigabytes downstream).

Dates and times stay the strings they were written as: ``dob: 1984-06-12`` means the text
``"1984-06-12"``, as the authoring guide writes it, not a Python ``date``; the schemas then check
that it is a real date.
"""

from __future__ import annotations

import codecs
from pathlib import Path
from typing import Any

import yaml

from businesses.errors import LoadError
from businesses.smallfile import MAX_FILE_BYTES

# Extra nodes aliases may add when expanded (merge keys over a shared block are fine).
MAX_ALIAS_NODES = 10_000


class _Refused(yaml.YAMLError):
    def __init__(self, problem: str, mark: yaml.Mark | None) -> None:
        super().__init__(problem)
        self.problem = problem
        self.problem_mark = mark


class _Strict:
    """The strict checks, mixed into a safe loader (libyaml's or the pure-Python one)."""

    def get_single_node(self) -> yaml.Node | None:
        node = super().get_single_node()  # type: ignore[misc]
        _check_expansion(node)
        return node

    def construct_mapping(self, node: yaml.Node, deep: bool = False) -> dict[Any, Any]:
        if isinstance(node, yaml.MappingNode):
            seen: dict[Any, yaml.Mark] = {}
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                key = self.construct_object(key_node, deep=True)  # type: ignore[attr-defined]
                try:
                    first = seen.get(key)
                except TypeError:  # an unhashable key: the base class names it
                    continue
                if first is not None:
                    raise _Refused(
                        f"duplicate key {_short(key)!r} (first at line {first.line + 1})",
                        key_node.start_mark,
                    )
                seen[key] = key_node.start_mark
        return super().construct_mapping(node, deep=deep)  # type: ignore[misc,no-any-return]


def _strict_loader(base: type[Any], name: str) -> type[yaml.SafeLoader]:
    loader: Any = type(name, (_Strict, base), {})
    # Dates and times are text in our files (see the module docstring).
    loader.yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
        for first, resolvers in base.yaml_implicit_resolvers.items()
    }
    return loader  # type: ignore[no-any-return]


#: The pure-Python strict loader: what :data:`StrictLoader` falls back to without libyaml.
PureStrictLoader = _strict_loader(yaml.SafeLoader, "PureStrictLoader")
#: A safe loader without timestamp parsing, refusing duplicate keys and alias bombs. libyaml's
#: parser where PyYAML was built with it (several times faster); construction stays in Python
#: either way, so both give the same objects.
StrictLoader = (
    _strict_loader(yaml.CSafeLoader, "StrictLoader")
    if getattr(yaml, "__with_libyaml__", False)
    else PureStrictLoader
)


def _check_expansion(root: yaml.Node | None) -> None:
    """Refuse a document whose aliases expand to more than MAX_ALIAS_NODES extra nodes."""
    if root is None:
        return
    sizes: dict[int, int] = {}
    distinct = 0
    # Post-order walk without recursion: a deeply nested document must not overflow the stack.
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, expanded = stack.pop()
        if id(node) in sizes:
            continue
        children = _children(node)
        if not expanded:
            stack.append((node, True))
            stack.extend((c, False) for c in children if id(c) not in sizes)
            continue
        distinct += 1
        sizes[id(node)] = 1 + sum(sizes[id(c)] for c in children)
        if sizes[id(node)] - distinct > MAX_ALIAS_NODES:
            raise _Refused(
                f"aliases expand to more than {MAX_ALIAS_NODES} extra nodes; write the "
                "repeated parts out, or share less",
                node.start_mark,
            )


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def _short(value: Any, limit: int = 60) -> str:
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _decode(data: bytes, name: str) -> str:
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, codecs.BOM_UTF32_LE)):
        raise LoadError([f"{name}: is UTF-16 or UTF-32 text; save it as UTF-8"])
    nul = data.find(b"\x00")
    if nul != -1:
        raise LoadError(
            [f"{name}: is a binary file (NUL byte at offset {nul}); expected UTF-8 YAML text"]
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise LoadError(
            [
                f"{name}: line {line}, column {column}: not UTF-8 (byte "
                f"0x{data[exc.start]:02x}); save the file as UTF-8"
            ]
        ) from None


def read_yaml(path: Path, loader: type[yaml.SafeLoader] | None = None) -> Any:
    """Parse one YAML file strictly (with :data:`StrictLoader` unless ``loader`` is given).

    Raises :class:`LoadError` with one line naming the file."""
    try:
        size = path.stat().st_size
        if not path.is_file():
            raise LoadError([f"{path}: is not a file"])
        if size > MAX_FILE_BYTES:
            raise LoadError(
                [
                    f"{path.name}: {size / 1e6:.1f} MB is over the {MAX_FILE_BYTES // 2**20} MB "
                    "limit for a business or task file"
                ]
            )
        data = path.read_bytes()
    except OSError as exc:
        raise LoadError([f"{path}: cannot read: {exc.strerror}"]) from None
    return decode_yaml(data, path.name, loader)


def decode_yaml(data: bytes, name: str, loader: type[yaml.SafeLoader] | None = None) -> Any:
    """Parse the bytes of file ``name`` as :func:`read_yaml` does (UTF-8 checks included)."""
    return parse_yaml(_decode(data, name), name, loader)


def parse_yaml(text: str, name: str, loader: type[yaml.SafeLoader] | None = None) -> Any:
    """Parse YAML text strictly (as :func:`read_yaml`); problems name ``name`` and the line."""
    try:
        return yaml.load(text, Loader=loader or StrictLoader)  # a SafeLoader either way
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "?"
        problem = getattr(exc, "problem", None) or str(exc)
        raise LoadError([f"{name}: {where}: invalid YAML: {problem}"]) from None
    except RecursionError:
        raise LoadError([f"{name}: nested too deeply to be a business or task file"]) from None
