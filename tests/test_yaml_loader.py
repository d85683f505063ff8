"""libyaml's safe loader and the pure-Python fallback give the same objects, and the same
one-line error for bad YAML."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from businesses import PUBLIC_DIR, LoadError, load_business
from businesses import loader as loader_module
from businesses.loader import SAFE_LOADER, parse_yaml

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
        assert SAFE_LOADER is yaml.CSafeLoader
    else:
        assert SAFE_LOADER is yaml.SafeLoader


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(p.parents[2])))
def test_both_loaders_give_the_same_objects_on_every_yaml_file(path: Path):
    text = path.read_text("utf-8")
    assert parse_yaml(text, yaml.SafeLoader) == parse_yaml(text)


def test_both_loaders_agree_on_edge_cases():
    fast, pure = parse_yaml(EDGE_CASES), parse_yaml(EDGE_CASES, yaml.SafeLoader)
    assert fast == pure
    assert fast["alias"] == fast["anchor"] and fast["merged"]["z"] == 3
    assert repr(fast["numbers"][-1]) == repr(pure["numbers"][-1])


@pytest.mark.parametrize("loader", [yaml.SafeLoader, SAFE_LOADER])
def test_bad_yaml_is_one_line_naming_the_place_with_either_loader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, loader
):
    monkeypatch.setattr(loader_module, "SAFE_LOADER", loader)
    (tmp_path / "business.yaml").write_text("id: x\nname: [unclosed\n", "utf-8")
    (tmp_path / "tasks.yaml").write_text("tasks: []\n", "utf-8")
    with pytest.raises(LoadError) as info:
        load_business(tmp_path)
    [line] = info.value.problems
    assert line.startswith("business.yaml: line ") and "invalid YAML" in line


def test_unsafe_tags_are_refused_by_both():
    for loader in (yaml.SafeLoader, SAFE_LOADER):
        with pytest.raises(yaml.YAMLError):
            parse_yaml("x: !!python/object/apply:os.system ['true']", loader)
