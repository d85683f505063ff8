"""libyaml's strict loader and the pure-Python fallback give the same objects, and the same
one-line error for bad YAML."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from businesses import PUBLIC_DIR, LoadError
from businesses.yamlfile import PureStrictLoader, StrictLoader, read_yaml
from contract.yamldata import load_data

FILES = sorted(Path(PUBLIC_DIR).glob("*/*.yaml")) + sorted(Path(__file__).parent.rglob("*.yaml"))
EDGE_CASES = """
dates: [2026-03-02, 2026-03-02 09:30:00]
numbers: [1, -2, 3.5, 1e3, 0x1F, 0o17, .inf, -.inf]
flags: [yes, no, on, off, true, false, ~, null]
text: "quoted \\u00e9 \\t tab"
folded: >
  one
  two
literal: |
  keep
    indent
anchor: &a {x: 1, y: [1, 2]}
alias: *a
merged: {<<: *a, z: 3}
unicode: "Zoë — naïve ☎"
empty: {}
"""


def test_libyaml_is_used_where_pyyaml_has_it():
    if getattr(yaml, "__with_libyaml__", False):
        assert issubclass(StrictLoader, yaml.CSafeLoader)
        assert StrictLoader is not PureStrictLoader
    else:
        assert StrictLoader is PureStrictLoader
    assert issubclass(PureStrictLoader, yaml.SafeLoader)
    assert not issubclass(PureStrictLoader, getattr(yaml, "CParser", ()))


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(p.parents[2])))
def test_both_loaders_give_the_same_objects_on_every_yaml_file(path: Path):
    try:
        fast = read_yaml(path)
    except LoadError as exc:  # a test fixture that is meant to be refused: refused by both
        with pytest.raises(LoadError) as info:
            read_yaml(path, PureStrictLoader)
        assert info.value.problems == exc.problems
        return
    assert read_yaml(path, PureStrictLoader) == fast


def test_both_loaders_agree_on_edge_cases():
    fast = yaml.load(EDGE_CASES, Loader=StrictLoader)
    pure = yaml.load(EDGE_CASES, Loader=PureStrictLoader)
    assert fast == pure
    assert fast["dates"] == ["2026-03-02", "2026-03-02 09:30:00"]  # text, not datetimes
    assert fast["alias"] == fast["anchor"] and fast["merged"]["z"] == 3
    assert repr(fast["numbers"][-1]) == repr(pure["numbers"][-1])


@pytest.mark.parametrize("loader", [PureStrictLoader, StrictLoader])
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("id: x\nname: [unclosed\n", "invalid YAML"),
        ("a: 1\na: 2\n", "duplicate key 'a' (first at line 1)"),
    ],
)
def test_bad_yaml_is_one_line_naming_the_place_with_either_loader(
    tmp_path: Path, loader: type[yaml.SafeLoader], text: str, expected: str
):
    path = tmp_path / "business.yaml"
    path.write_text(text, "utf-8")
    with pytest.raises(LoadError) as info:
        read_yaml(path, loader)
    [line] = info.value.problems
    assert line.startswith("business.yaml: line ") and expected in line


def test_alias_bombs_are_refused_by_both(tmp_path: Path):
    rows = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    rows += [
        f"{n}: &{n} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]"
        for p, n in zip("abcde", "bcdef", strict=True)
    ]
    path = tmp_path / "tasks.yaml"
    path.write_text("\n".join(rows) + "\n", "utf-8")
    for loader in (PureStrictLoader, StrictLoader):
        with pytest.raises(LoadError, match="aliases expand"):
            read_yaml(path, loader)


def test_unsafe_tags_are_refused_by_both():
    for loader in (PureStrictLoader, StrictLoader):
        with pytest.raises(yaml.YAMLError):
            yaml.load("x: !!python/object/apply:os.system ['true']", Loader=loader)


DATA_FILES = sorted(
    p
    for package in ("adapters", "callers", "sandbox", "opsbench", "tools", "contract")
    for p in (Path(PUBLIC_DIR).parents[1] / package).rglob("*.yaml")
)


def test_packaged_data_files_exist():
    assert DATA_FILES  # the lexicons and plans the callers and assistants read at start


@pytest.mark.parametrize("path", DATA_FILES, ids=lambda p: str(p.relative_to(p.parents[1])))
def test_packaged_data_gives_the_same_objects_with_either_parser(path: Path):
    text = path.read_text("utf-8")
    assert load_data(text) == yaml.load(text, Loader=yaml.SafeLoader)  # as yaml.safe_load
