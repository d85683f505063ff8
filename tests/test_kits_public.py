"""The public set is one draw of the kits: regenerating it gives the committed bytes; and every
real kit's held-out draws validate in two periods that differ in rules and data."""

from __future__ import annotations

from pathlib import Path

import pytest

from businesses import PUBLIC_DIR
from businesses.generate import KITS_DIR, Draw, draw_params, kit_dirs, load_kit
from opsbench.kitgen import GENERATED_MARK, generate

KITS = [d.name for d in kit_dirs(KITS_DIR)]
needs_kits = pytest.mark.skipif(not KITS, reason="no kit in businesses/kits yet")


def files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@needs_kits
def test_the_committed_public_set_equals_its_regeneration(tmp_path: Path):
    # Rendering alone: the committed files are validated by the public set's own tests
    # (tests/test_scorer_matrix.py), so equal bytes mean the public draw validates too.
    result = generate(tmp_path, period=None, secret=None, validate=False)
    fresh = files(tmp_path)
    committed = {
        name: data
        for name, data in files(PUBLIC_DIR).items()
        if name == "manifest.json"
        or name.split("/")[0] in {b for k in result.kits for b in k.businesses}
    }
    differ = sorted(n for n in fresh.keys() | committed.keys() if fresh.get(n) != committed.get(n))
    assert not differ, (
        f"businesses/public differs from the public draw of businesses/kits in {differ}: run "
        "`opsbench businesses generate --public --out businesses/public` and commit the result"
    )


def test_every_generated_public_business_has_its_kit():
    for folder in sorted(p for p in PUBLIC_DIR.iterdir() if p.is_dir()):
        business = folder / "business.yaml"
        if business.is_file() and business.read_text("utf-8").startswith(GENERATED_MARK):
            assert folder.name in KITS, f"{folder}: generated from a kit that no longer exists"


@needs_kits
@pytest.mark.parametrize("kit", KITS)
def test_two_periods_of_a_real_kit_differ_and_both_validate(tmp_path: Path, kit: str):
    loaded = load_kit(KITS_DIR / kit)
    drawn = [
        draw_params(Draw(kit, "ci-secret", period, 1), loaded.params)
        for period in ("2027Q1", "2027Q2")
    ]
    if any("range" in s or "choices" in s or "subsets_of" in s for s in loaded.params.values()):
        assert drawn[0] != drawn[1]
    texts = []
    for period in ("2027Q1", "2027Q2"):
        result = generate(tmp_path / period, period=period, secret="ci-secret", kits=[kit], jobs=2)
        assert result.dropped == 0, [d for k in result.kits for d in k.dropped]
        texts.append((tmp_path / period / f"{kit}_v01" / "business.yaml").read_text("utf-8"))
    assert texts[0] != texts[1]
