"""The on-disk cache of the claim patterns' analysis (sandbox/claims/pattern_cache.py): what a
later process reads is exactly what working it out again gives, and a broken cache changes
nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sandbox.claims import pattern_cache
from sandbox.claims.guard import compile_guarded, factored, first_characters
from sandbox.claims.prefilter import Gated, necessary_literals
from tests.test_claims_prefilter import lexicon_patterns


def _new_process() -> None:
    """Forget what this process worked out or read, as a fresh process would start."""
    pattern_cache.ENTRIES.forget()


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("OPSBENCH_CACHE_DIR", str(tmp_path / "cache"))
    _new_process()
    yield tmp_path / "cache" / "claims"
    monkeypatch.setenv("OPSBENCH_CACHE_DIR", "off")
    _new_process()


def _analyses(pattern: str, flags: int) -> dict[str, object]:
    rewritten = factored(pattern, bool(flags & re.IGNORECASE))
    literals = necessary_literals(pattern, flags)
    return {
        "factored": rewritten,
        "first": first_characters(rewritten, flags),
        "literals": None if literals is None else sorted(literals),
    }


def _remembered(pattern: str, flags: int, work_out: dict[str, object]) -> dict[str, object]:
    rewritten = pattern_cache.remembered("factored", pattern, flags, lambda: work_out["factored"])
    return {
        "factored": rewritten,
        "first": pattern_cache.remembered(
            "first", str(rewritten), flags, lambda: work_out["first"]
        ),
        "literals": pattern_cache.remembered(
            "literals", pattern, flags, lambda: work_out["literals"]
        ),
    }


def test_every_lexicon_pattern_reads_back_what_working_it_out_gives(cache: Path) -> None:
    patterns = lexicon_patterns()
    assert len(patterns) > 150
    expected = {(p.pattern, p.flags): _analyses(p.pattern, p.flags) for p in patterns}
    for (pattern, flags), values in expected.items():
        assert _remembered(pattern, flags, values) == values
    pattern_cache.save()
    [file] = cache.glob("patterns-*.json")

    _new_process()
    calls: list[str] = []
    for (pattern, flags), values in expected.items():

        def counted(name: str, value: object = None) -> object:
            calls.append(name)
            return value

        got = {
            "factored": pattern_cache.remembered(
                "factored", pattern, flags, lambda: counted("factored")
            ),
            "first": pattern_cache.remembered(
                "first", str(values["factored"]), flags, lambda: counted("first")
            ),
            "literals": pattern_cache.remembered(
                "literals", pattern, flags, lambda: counted("literals")
            ),
        }
        assert got == values, pattern
    assert calls == []
    assert file.stat().st_size > 0


def test_a_pattern_compiled_from_the_cache_matches_as_one_compiled_without_it(
    cache: Path,
) -> None:
    texts = [
        "I've moved your cleaning to Thursday at 9:00 with Luis.",
        "I couldn\u2019t cancel the order, sorry \u2014 it had already shipped.",
        "You were told the fee would be waived; I've put in a request.",
        "ok so i resheduled ur filling, refnd is thru too",
        "Nothing has been charged and no reminder was set.",
    ]
    patterns = [(p.pattern, p.flags) for p in lexicon_patterns()]
    for pattern, flags in patterns:  # warm the cache
        _ = _fresh(pattern, flags).compiled
    pattern_cache.save()
    _new_process()
    for pattern, flags in patterns:
        warm = _fresh(pattern, flags)
        plain = re.compile(pattern, flags)
        for text in texts:
            assert [m.span() for m in warm.finditer(text)] == [
                m.span() for m in plain.finditer(text)
            ], pattern


def _fresh(pattern: str, flags: int) -> Gated:
    return compile_guarded(pattern, flags)


@pytest.mark.parametrize(
    "content",
    [b"{not json", b"[1, 2, 3]", b"", b"\xff\xfe"],
    ids=["truncated", "not an object", "empty", "not utf-8"],
)
def test_a_corrupt_cache_file_is_worked_out_again(cache: Path, content: bytes) -> None:
    pattern, flags = r"\b(?:full |partial )?refund(?:ed)?\b", re.IGNORECASE
    values = _analyses(pattern, flags)
    assert _remembered(pattern, flags, values) == values
    pattern_cache.save()
    [file] = cache.glob("patterns-*.json")
    file.write_bytes(content)
    _new_process()
    assert _remembered(pattern, flags, values) == values
    pattern_cache.save()  # and the file is whole again
    _new_process()
    assert pattern_cache.remembered("literals", pattern, flags, lambda: None) == ["refund"]


def test_an_unwritable_cache_folder_is_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", "utf-8")
    monkeypatch.setenv("OPSBENCH_CACHE_DIR", str(blocker / "cache"))
    _new_process()
    try:
        pattern = r"\bno (?:[\w-]+ ){0,2}(?:fee|charge)s?\b"
        values = _analyses(pattern, 0)
        assert _remembered(pattern, 0, values) == values
        pattern_cache.save()
        assert not (blocker / "cache").exists()
    finally:
        monkeypatch.setenv("OPSBENCH_CACHE_DIR", "off")
        _new_process()


def test_with_the_cache_off_nothing_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPSBENCH_CACHE_DIR", "off")
    _new_process()
    calls = []
    for _ in range(2):
        pattern_cache.remembered("literals", "abc", 0, lambda: calls.append(1))
    assert calls == [1, 1]
    assert pattern_cache.ENTRIES.new == {}


def test_the_same_pattern_under_other_flags_is_another_entry(cache: Path) -> None:
    pattern = r"Dr\.? (?:Lee|Patel)"
    folded, exact = _analyses(pattern, re.IGNORECASE), _analyses(pattern, 0)
    assert folded["literals"] != exact["literals"]
    _remembered(pattern, re.IGNORECASE, folded)
    _remembered(pattern, 0, exact)
    pattern_cache.save()
    _new_process()
    assert pattern_cache.remembered("literals", pattern, 0, lambda: None) == exact["literals"]
    assert (
        pattern_cache.remembered("first", pattern, re.IGNORECASE, lambda: None) == (folded["first"])
    )
