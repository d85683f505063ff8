"""The kit generator (KITS.md): draws, template names, rendering errors, determinism, redraws."""

from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path

import pytest
from typer.testing import CliRunner

from businesses import load_set
from businesses.generate import (
    KITS_DIR,
    Draw,
    KitError,
    KitRenderer,
    draw_params,
    load_kit,
    period_days,
)
from businesses.generate.context import long_date, money, spoken_date, weekday
from opsbench.cli import app
from opsbench.kitgen import generate
from tests.helpers import KITS

MINI_KIT = KITS / "mini_kit"
SECRET = "kit-test-secret"


def files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def heldout(out: Path, period: str, variants: int = 2, secret: str = SECRET, root: Path = KITS):
    return generate(out, period=period, secret=secret, variants=variants, kits_root=root)


def test_template_formats():
    assert weekday("2026-03-17") == "Tuesday"
    assert long_date("2026-03-17") == "Tuesday 17 March"
    assert spoken_date("2026-03-01") == "March 1st" and spoken_date("2026-03-12") == "March 12th"
    assert money(110000) == "$1,100" and money(2550) == "$25.50" and money(-500) == "-$5"


def test_period_and_anchor_day():
    assert period_days("2027Q1") == (date(2027, 1, 1), date(2027, 3, 31))
    assert period_days("2027-02") == (date(2027, 2, 1), date(2027, 2, 28))
    with pytest.raises(KitError, match="--period"):
        period_days("2027Q5")
    kit = load_kit(MINI_KIT)
    for variant in range(1, 8):
        names = KitRenderer(kit).names(Draw(kit.id, SECRET, "2027Q2", variant))
        assert date(2027, 4, 1) <= names.today <= date(2027, 6, 30)
        assert names.today.weekday() == kit.today.weekday()  # "next Tuesday" stays true


def test_public_draw_takes_public_values_and_first_choices(tmp_path: Path):
    kit = load_kit(MINI_KIT)
    assert draw_params(Draw(kit.id), kit.params) == {k: v["public"] for k, v in kit.params.items()}
    result = generate(tmp_path, period=None, secret=None, kits_root=KITS)
    assert (result.rendered, result.dropped) == (5, 0)
    businesses, tasks = load_set(tmp_path)
    assert [b.id for b in businesses] == ["mini_kit"]
    assert {t.id for t in tasks} == {f"mini/{slug}" for slug in kit.scenarios}
    first = {t.id: t for t in tasks}["mini/angry-simple-question"]
    assert first.caller.opening.startswith("I've been on hold forever!")  # first phrasing
    assert first.caller.name == "Maria Lopez"  # pools.people[0]


def test_same_secret_and_period_give_identical_bytes(tmp_path: Path):
    heldout(tmp_path / "a", "2027Q1")
    heldout(tmp_path / "b", "2027Q1")
    first, second = files(tmp_path / "a"), files(tmp_path / "b")
    assert first == second and len(first) == 5  # manifest + 2 x (business, tasks)
    assert all(SECRET.encode() not in data for data in first.values())


def test_two_periods_differ_in_rules_and_data_and_both_validate(tmp_path: Path):
    kit = load_kit(MINI_KIT)
    q1 = draw_params(Draw(kit.id, SECRET, "2027Q1", 1), kit.params)
    q2 = draw_params(Draw(kit.id, SECRET, "2027Q2", 1), kit.params)
    assert q1 != q2
    # One rule set per (secret, period, kit): every variant of a period shares it.
    assert q1 == draw_params(Draw(kit.id, SECRET, "2027Q1", 2), kit.params)
    for period in ("2027Q1", "2027Q2"):
        result = heldout(tmp_path / period, period)
        assert result.dropped == 0 and result.rendered == 10
    a = (tmp_path / "2027Q1" / "mini_kit_v01" / "business.yaml").read_text()
    b = (tmp_path / "2027Q2" / "mini_kit_v01" / "business.yaml").read_text()
    names_a = {c["name"] for c in load_set(tmp_path / "2027Q1")[0][0].seed["customers"].values()}
    names_b = {c["name"] for c in load_set(tmp_path / "2027Q2")[0][0].seed["customers"].values()}
    assert a != b and names_a != names_b


def test_variants_are_distinct_businesses_and_tasks(tmp_path: Path):
    result = heldout(tmp_path, "2027Q1", variants=3)
    assert result.distinct == 15
    assert json.loads((tmp_path / "manifest.json").read_text())["distinct"] == 15
    businesses, tasks = load_set(tmp_path)
    assert [b.id for b in businesses] == ["mini_kit_v01", "mini_kit_v02", "mini_kit_v03"]
    phones = {c["phone"] for b in businesses for c in b.seed["customers"].values()}
    assert len(phones) == 6
    assert len({t.id for t in tasks}) == 15


def copy_kit(tmp_path: Path) -> Path:
    root = tmp_path / "kits"
    shutil.copytree(MINI_KIT, root / "mini_kit")
    return root / "mini_kit"


def test_a_broken_template_names_the_kit_file_and_scenario(tmp_path: Path):
    kit = copy_kit(tmp_path)
    (kit / "scenarios" / "typo.yaml.j2").write_text("title: {{ p.no_such_param }}\n")
    (kit / "scenarios" / "bad-field.yaml.j2").write_text(
        (kit / "scenarios" / "waive-fee-exception.yaml.j2")
        .read_text()
        .replace("escalate:", "escalat:")
    )
    with pytest.raises(KitError) as caught:
        generate(tmp_path / "out", period=None, secret=None, kits_root=kit.parent)
    (line,) = caught.value.problems
    assert line.startswith("mini_kit/scenarios/typo.yaml.j2 (public draw): line 1: ")
    assert "no_such_param" in line
    (kit / "scenarios" / "typo.yaml.j2").unlink()
    with pytest.raises(KitError) as caught:
        generate(tmp_path / "out", period=None, secret=None, kits_root=kit.parent)
    lines = caught.value.problems
    assert lines and all(
        line.startswith("mini_kit/scenarios/bad-field.yaml.j2 (rendered, public draw): expect")
        for line in lines
    )
    assert "did you mean 'escalate'" in lines[0]


def test_kit_yaml_problems_are_one_line_each(tmp_path: Path):
    kit = copy_kit(tmp_path)
    text = (kit / "kit.yaml").read_text().replace("prefix: mini", "prefix: other")
    text = text.replace("step: 500}", "step: 0}", 1)
    (kit / "kit.yaml").write_text(text)
    with pytest.raises(KitError) as caught:
        load_kit(kit)
    assert len(caught.value.problems) == 2
    assert all(p.startswith("mini_kit/kit.yaml: ") for p in caught.value.problems)


FLAKY = """\
{% set target = pick(["11:00", "13:00", "13:00", "13:00"]) %}
title: Move tomorrow's cleaning to eleven (the expectation is right only when it says eleven)
coverage: cooperative
tags: [reschedule]
now: {{ at(0, "09:10") }}
caller:
  name: {{ person(1).name }}
  temperament: calm
  knows: {phone: "{{ person(1).phone }}", {{ p.verify_field }}: "{{ person(1)[p.verify_field] }}"}
  goal: Move tomorrow's cleaning to eleven.
  opening: "Hi, can you move tomorrow's cleaning to eleven?"
  done_when: [reschedule]
expect:
  outcome:
    - update: appointments/{{ id("APT", 1) }}
      where: {start: "{{ at(1, target) }}", status: booked}
  escalate: false
  disclose: [reschedule_done]
oracle:
  - call: find_customer
    args: {phone: "{{ person(1).phone }}"}
  - call: verify_customer
    args: {customer_id: {{ id("CUS", 1) }}, {{ p.verify_field }}: "{{ person(1)[p.verify_field] }}"}
  - call: reschedule_appointment
    args: {appointment_id: {{ id("APT", 1) }}, start: "{{ at(1, "11:00") }}"}
"""


def test_a_failing_scenario_is_redrawn_or_dropped_never_shipped(tmp_path: Path):
    kit = copy_kit(tmp_path)
    (kit / "scenarios" / "flaky.yaml.j2").write_text(FLAKY)
    (kit / "scenarios" / "always-wrong.yaml.j2").write_text(FLAKY.replace('"11:00", ', ""))
    result = heldout(tmp_path / "out", "2027Q1", variants=4, root=kit.parent)
    (tally,) = result.kits
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    dropped = {d["task"] for d in manifest["kits"][0]["dropped_tasks"]}
    # always-wrong never validates: dropped from every variant after the last attempt.
    assert {f"mini_kit_v{v:02d}/always-wrong" for v in range(1, 5)} <= dropped
    assert tally.redrawn >= 4 * 4  # each always-wrong task was redrawn four times
    _, tasks = load_set(tmp_path / "out")
    shipped = {t.id for t in tasks}
    assert not shipped & dropped
    assert not any(t.endswith("/always-wrong") for t in shipped)
    # Every shipped flaky task is one whose draw says eleven: the redraw found a right instance.
    for task in tasks:
        if task.id.endswith("/flaky"):
            assert task.expect.outcome[0].where["start"].endswith("T11:00")
    assert manifest["dropped"] == len(dropped) and manifest["rendered"] == 4 * 7


def invoke(args: list[str], env: dict[str, str] | None = None):
    return CliRunner().invoke(app, ["businesses", "generate", *args], env=env or {})


def test_cli_refuses_a_heldout_draw_without_a_secret(tmp_path: Path, monkeypatch):
    monkeypatch.delenv("OPSBENCH_HELDOUT_SECRET", raising=False)
    result = invoke(["--kits", str(KITS), "--period", "2027Q1", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert (
        len(result.stderr.strip().splitlines()) == 1 and "OPSBENCH_HELDOUT_SECRET" in result.stderr
    )
    assert not any(tmp_path.iterdir())


def test_cli_reads_the_secret_from_the_environment(tmp_path: Path):
    env = {"OPSBENCH_HELDOUT_SECRET": SECRET}
    result = invoke(
        ["--kits", str(KITS), "--period", "2027Q1", "--out", str(tmp_path / "a"), "-j", "1"], env
    )
    assert result.exit_code == 0, result.output
    assert "10 of 10 tasks validated" not in result.stdout  # one variant by default
    assert "5 of 5 tasks validated" in result.stdout
    heldout(tmp_path / "b", "2027Q1", variants=1)
    assert files(tmp_path / "a") == files(tmp_path / "b")


def test_cli_refuses_a_heldout_draw_inside_the_public_set(tmp_path: Path):
    from businesses import PUBLIC_DIR

    result = invoke(["--kits", str(KITS), "--period", "2027Q1", "--secret", "s",
                     "--out", str(PUBLIC_DIR / "held")])  # fmt: skip
    assert result.exit_code == 2 and "businesses/public" in result.stderr
    assert not (PUBLIC_DIR / "held").exists()


def test_cli_warns_when_a_heldout_draw_would_be_committed(tmp_path: Path):
    import subprocess

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    args = ["--kits", str(KITS), "--period", "2027Q1", "-j", "1"]
    env = {"OPSBENCH_HELDOUT_SECRET": SECRET}
    tracked = invoke([*args, "--out", str(tmp_path / "draw")], env)
    assert tracked.exit_code == 0 and "not git-ignored" in tracked.stderr
    (tmp_path / ".gitignore").write_text("heldout/\n")
    ignored = invoke([*args, "--out", str(tmp_path / "heldout")], env)
    assert ignored.exit_code == 0 and ignored.stderr == ""


@pytest.mark.parametrize(
    "extra", [["--secret", "s"], ["--period", "2027Q1"], ["--variants", "3"]], ids=str
)
def test_cli_public_draw_takes_no_secret_period_or_variants(tmp_path: Path, extra: list[str]):
    result = invoke(["--public", "--kits", str(KITS), "--out", str(tmp_path), *extra])
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1


def test_the_process_pool_does_not_change_a_byte(tmp_path: Path):
    kit = copy_kit(tmp_path)
    (kit / "scenarios" / "flaky.yaml.j2").write_text(FLAKY)  # redraws exercise the rounds too
    for jobs in (1, 2):
        generate(tmp_path / f"j{jobs}", period="2027Q3", secret=SECRET, variants=3,
                 kits_root=kit.parent, jobs=jobs)  # fmt: skip
    assert files(tmp_path / "j1") == files(tmp_path / "j2")


def test_a_heldout_person_keeps_the_shape_of_the_public_one():
    from businesses.generate.context import Names

    pools = {
        "people": [{"name": "Ann Lee", "email": None, "tier": "vip", "dob": "1980-01-01"}],
        "first_names": ["Bo", "Cy"],
        "last_names": ["Day", "Eng"],
    }
    names = Names(Draw("k", SECRET, "2027Q1", 1), date(2027, 1, 4), {}, pools)
    first, second = names.person(1), names.person(2)
    assert first["email"] is None and first["tier"] == "vip"  # no email on file stays so
    assert first["name"] != "Ann Lee" and first["dob"] != "1980-01-01"
    assert first["phone"] != second["phone"] and first["name"] != second["name"]
    assert names.person(1) == first  # the same person wherever a template asks


def test_a_later_draw_replaces_its_own_folders_and_keeps_the_rest(tmp_path: Path):
    out = tmp_path / "out"
    heldout(out, "2027Q1", variants=3)
    (out / "hand_written").mkdir()
    (out / "hand_written" / "business.yaml").write_text("id: hand_written\n")
    other = out / "other_kit_v01"
    other.mkdir()
    (other / "business.yaml").write_text("# Generated from businesses/kits/other_kit (x)\n")
    heldout(out, "2027Q1", variants=1)
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == [
        "hand_written",
        "mini_kit_v01",
        "other_kit_v01",
    ]


def test_a_record_id_written_by_hand_is_refused_where_the_kit_draws_that_prefix(tmp_path: Path):
    # In the public draw CUS-1001 is id("CUS", 1); in a held-out draw the seeded ids move by a
    # drawn base, so a literal id is free in some draws and a seeded record's id in others.
    kit = copy_kit(tmp_path)
    scenario = kit / "scenarios" / "promised-credit-returns.yaml.j2"
    text = scenario.read_text()
    assert '{{ id("CUS", 1) }}' in text
    scenario.write_text(text.replace('{{ id("CUS", 1) }}', "CUS-2001", 1))
    with pytest.raises(KitError) as caught:
        load_kit(kit)
    (line,) = caught.value.problems
    assert line.startswith("mini_kit/scenarios/promised-credit-returns.yaml.j2: line ")
    assert "record id 'CUS-2001' written literally" in line
    assert "write {{ id('CUS', k) }}" in line
    # A code of the same shape whose prefix the kit never draws (a SKU, a flight) is text.
    scenario.write_text(text + "# see ZZZ-2001\n")
    load_kit(kit)


def test_every_kit_writes_its_record_ids_through_id():
    for directory in sorted(KITS_DIR.iterdir()):
        if (directory / "kit.yaml").is_file():
            load_kit(directory)  # raises on a literal id, naming the file and line
