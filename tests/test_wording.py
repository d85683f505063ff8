"""Every sentence that phrases a tool call can be filled: the reference recaps and the
ledger-summary lines use only placeholders :func:`adapters.wording.action_fields` gives, for
every tool, whether or not the call had the argument."""

from __future__ import annotations

import pytest

from adapters.mitigations.conversation import data
from adapters.reference.summary import _SENTENCES
from adapters.wording import action_fields

RECAPS = [
    (tool, template) for tool, (done, failed) in _SENTENCES.items() for template in (*done, *failed)
]
LEDGER = [
    (tool, outcome, template)
    for tool, entry in data("ledger_summary")["tools"].items()
    for outcome, template in entry.items()
]


@pytest.mark.parametrize(("tool", "template"), RECAPS)
def test_every_recap_sentence_fills_with_or_without_arguments(tool, template):
    assert template.format(**action_fields({}))
    assert template.format(**action_fields({"amount_cents": 1250, "channel": "sms"}))


@pytest.mark.parametrize(("tool", "outcome", "template"), LEDGER)
def test_every_ledger_summary_line_fills(tool, outcome, template):
    assert str(template).format(**action_fields({}), error="it returned an error")
