"""The redaction's quick look for key-shaped text skips only texts the full patterns cannot
match: every shape, in every case the patterns accept, is still masked."""

from __future__ import annotations

import pytest

from contract import redact as redaction
from contract.redact import MASK, redact, redact_all


def _full_scan(text: str) -> str:
    """What :func:`redact` did before the quick look: both patterns over every text."""
    text = redaction._URL_PASSWORD.sub(rf"\1:{MASK}@", text)
    return redaction._SHAPES.sub(MASK, text)


TEXTS = [
    "Authorization: Bearer abcdef.123456",
    "BEARER abcdefghijk",
    "header bEaReR zzzzzz99",
    "Basic dXNlcjpwYXNzd29yZA==",
    "a basic haircut and a Basic trim",
    "key sk-abcdef123 and pk-live_123456 and rk-999999x",
    "SK-abcdef123 is not a key shape (the prefix is case-sensitive)",
    "api_key=supersecret1",
    "API-KEY: 'another-secret'",
    "x-api-key=abcdefgh",
    "apikey: 12345678",
    "the therapist said api keys rotate: api key=abcdefgh",
    "APIKEY=abcdefgh and API_Key=abcdefgh",
    "AUTHORIZATION=topsecret99",
    # Letters that IGNORECASE matches to ASCII ones: dotless i, dotted capital I.
    "ap\u0131_key=abcdefgh",
    "AP\u0130_KEY=abcdefgh",
    "author\u0131zation: abcdefgh",
    "https://user:hunter22@example.com/path",
    "HTTPS://u:p4ssword@host",
    "a plain caller line about a 9:00 booking with Luis, $45.00 refunded",
    "",
    '{"text":"I have booked you in for Tuesday at 10:00.","speaker":"assistant"}',
]


@pytest.mark.parametrize("text", TEXTS)
def test_redact_masks_exactly_what_the_full_scan_masks(text: str):
    assert redact(text) == _full_scan(text)


def test_redact_all_is_redact_of_each_text():
    assert redact_all(TEXTS) == [redact(t) for t in TEXTS]


def test_environment_credentials_are_masked_by_redact_all(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("SOME_SERVICE_API_KEY", "value-from-env-123")
    assert redact_all(["the key value-from-env-123 leaked", "clean"]) == [
        f"the key {MASK} leaked",
        "clean",
    ]
