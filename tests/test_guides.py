"""The guides say what is true: their YAML examples load, and the authoring guide's reference
section is what the schemas and rule definitions generate (issue 14)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from businesses import load_set
from businesses.reference import BEGIN, END, GUIDE, reference_markdown, with_reference
from businesses.yamlfile import StrictLoader
from opsbench.validation import validate_task
from sandbox.rules import RULE_TYPES
from sandbox.tables import STANDARD_TABLES

ROOT = Path(__file__).parents[1]
GUIDES = sorted(
    p for p in ROOT.rglob("*.md") if not {".venv", "node_modules", ".git"} & set(p.parts)
)
_YAML_BLOCK = re.compile(r"^```yaml\n(.*?)^```", re.MULTILINE | re.DOTALL)


def yaml_blocks(path: Path) -> list[str]:
    return _YAML_BLOCK.findall(path.read_text("utf-8"))


def test_the_guide_reference_is_what_the_code_generates():
    text = GUIDE.read_text("utf-8")
    assert with_reference(text) == text, (
        "businesses/README.md is out of date: run `opsbench businesses reference --write`"
    )


def test_the_reference_names_every_table_field_and_rule_type():
    section = reference_markdown()
    for spec in STANDARD_TABLES.values():
        assert f"**`{spec.name}`**" in section
        for field in spec.schema["properties"]:
            assert f"| `{field}` |" in section
    for name in RULE_TYPES:
        assert f"- **`{name}`**:" in section
    assert section.startswith(BEGIN) and section.rstrip().endswith(END)


@pytest.mark.parametrize("guide", GUIDES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_yaml_example_parses_strictly(guide: Path):
    for block in yaml_blocks(guide):
        yaml.load(block, Loader=StrictLoader)  # duplicate keys, bad aliases raise


def test_the_authoring_guide_examples_are_a_business_whose_task_passes(tmp_path: Path):
    business, tasks = yaml_blocks(GUIDE)[:2]
    assert "\nid: " in "\n" + business and "\ntasks:" in "\n" + tasks
    directory = tmp_path / yaml.load(business, Loader=StrictLoader)["id"]
    directory.mkdir()
    (directory / "business.yaml").write_text(business, "utf-8")
    (directory / "tasks.yaml").write_text(tasks, "utf-8")
    found, loaded = load_set(tmp_path)
    assert loaded, "the guide's task example holds no task"
    for task in loaded:
        assert validate_task(task) == [], task.id
    # The guide writes dates unquoted, as users do; they are read as the text written.
    assert "dob: 1984-06-12" in business
    assert found[0].seed["customers"]["CUS-1001"]["dob"] == "1984-06-12"
