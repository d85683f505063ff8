"""The on-disk cache of compiled regular expressions (sandbox/regex_cache.py): a pattern built
from what an earlier process kept is the pattern ``re.compile`` gives, and a broken or absent
cache changes nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sandbox import regex_cache
from sandbox.claims.guard import _compile
from tests.test_claims_prefilter import lexicon_patterns


def _new_process() -> None:
    """Forget what this process generated or read, as a fresh process would start."""
    regex_cache.ENTRIES.forget()


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("OPSBENCH_CACHE_DIR", str(tmp_path / "cache"))
    _new_process()
    yield tmp_path / "cache" / "regex"
    monkeypatch.setenv("OPSBENCH_CACHE_DIR", "off")
    _new_process()


SAMPLES = [
    (r"(?P<when>\d{1,2}(?::\d\d)?\s*(?:am|pm))|(?P<who>Dr\.? [A-Z]\w+)", re.IGNORECASE),
    (r"\b(?:booked|cancel+ed)\b(?:[^,.;]|[.,](?=\d)){0,60}?\b(done|set)\b", 0),
    (r"(?i)refund(?:ed)? (?P<amount>\$\d+(?:\.\d\d)?)", 0),
    (r"^\s*(?:-|\*)\s+(.+)$", re.MULTILINE),
]
TEXTS = ["Booked, 10:30 am with Dr. Raman", "cancelled it. all done", "REFUNDED $12.50", "- a\n* b"]


def _same(built: re.Pattern[str], expected: re.Pattern[str]) -> None:
    assert built == expected  # pattern, flags and code
    assert (built.groups, built.groupindex) == (expected.groups, expected.groupindex)
    for text in TEXTS:
        found = [(m.span(), m.groups(), m.lastgroup) for m in built.finditer(text)]
        assert found == [(m.span(), m.groups(), m.lastgroup) for m in expected.finditer(text)]


def test_a_later_process_builds_what_re_compile_gives(cache: Path) -> None:
    for pattern, flags in SAMPLES:
        _same(regex_cache.compile_cached(pattern, flags), re.compile(pattern, flags))
    regex_cache.save()
    assert len(json.loads(next(cache.iterdir()).read_bytes())) == len(SAMPLES)
    _new_process()
    for pattern, flags in SAMPLES:
        built = regex_cache.compile_cached(pattern, flags)
        assert built is not re.compile(pattern, flags)  # read back, not re's own cache
        _same(built, re.compile(pattern, flags))
    assert not regex_cache.ENTRIES.new  # every one was read, none generated again


def test_every_lexicon_pattern_reads_back_as_compiled(cache: Path) -> None:
    # The claim checker's patterns as guard._compile rewrites them: the ones this cache serves.
    patterns = [(p.pattern, p.flags) for p in lexicon_patterns()]
    first = [_compile(p, f) for p, f in patterns]
    regex_cache.save()
    _new_process()
    for (pattern, flags), expected in zip(patterns, first, strict=True):
        again = _compile(pattern, flags)
        assert again == expected and again.groupindex == expected.groupindex
    assert not regex_cache.ENTRIES.new


def test_a_broken_entry_or_file_is_compiled_as_usual(cache: Path) -> None:
    pattern, flags = SAMPLES[0]
    regex_cache.compile_cached(pattern, flags)
    regex_cache.save()
    path = next(cache.iterdir())
    data = json.loads(path.read_bytes())
    for entry in data.values():
        entry[1] = "AAAA"  # code the engine rejects
    path.write_text(json.dumps(data))
    _new_process()
    _same(regex_cache.compile_cached(pattern, flags), re.compile(pattern, flags))
    path.write_text("not json")
    _new_process()
    _same(regex_cache.compile_cached(pattern, flags), re.compile(pattern, flags))


def test_off_means_re_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPSBENCH_CACHE_DIR", "off")
    _new_process()
    pattern, flags = SAMPLES[1]
    assert regex_cache.compile_cached(pattern, flags) is re.compile(pattern, flags)
    assert not regex_cache.ENTRIES.new


# A verbose pattern parses differently for its flag; a lone surrogate is text re accepts that
# UTF-8 alone cannot encode.
@pytest.mark.parametrize(
    "pattern, flags, text",
    [(r"\d+ \s* (am|pm)", re.VERBOSE, "at 10am"), ("\ud800+", 0, "x\ud800\ud800")],
    # Ids of ASCII: the mutation runs keep ids unescaped, and an id with a lone surrogate
    # cannot go into PYTEST_CURRENT_TEST.
    ids=["verbose", "lone-surrogate"],
)
def test_flagged_and_surrogate_patterns_are_kept_and_read_back(
    cache: Path, pattern: str, flags: int, text: str
) -> None:
    expected = re.compile(pattern, flags)
    first = regex_cache.compile_cached(pattern, flags)
    assert first.search(text).group() == expected.search(text).group()  # type: ignore[union-attr]
    assert len(regex_cache.ENTRIES.new) == 1  # faithful, so kept
    regex_cache.save()
    _new_process()
    built = regex_cache.compile_cached(pattern, flags)
    assert not regex_cache.ENTRIES.new
    assert built == expected


def test_one_pattern_under_two_flags_is_two_entries(cache: Path) -> None:
    plain = regex_cache.compile_cached("refund")
    assert plain == re.compile("refund")  # no flags unless given
    regex_cache.compile_cached("refund", re.IGNORECASE)
    regex_cache.save()
    _new_process()
    assert regex_cache.compile_cached("refund", re.IGNORECASE).search("REFUND")
    assert not regex_cache.compile_cached("refund").search("REFUND")
    assert not regex_cache.ENTRIES.new


def test_a_debug_pattern_is_compiled_by_re_every_time(
    cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for _ in range(2):
        regex_cache.compile_cached("ab+", re.DEBUG)
        regex_cache.save()
        _new_process()
        assert "LITERAL 97" in capsys.readouterr().out  # re prints the parse each time
    assert not regex_cache.ENTRIES.new
