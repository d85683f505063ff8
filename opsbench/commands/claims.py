"""``opsbench claims agreement``: how well a claim reader agrees with a labelled set.

``--judge lexicon`` (the default) measures the deterministic checker; any model string
(``openai/gpt-4.1``, ``python:pkg.mod:factory``, with ``--base-url`` for a compatible server)
measures that model as the ``--judge`` of a run would use it. A team with a key can so publish
its judge's precision and recall beside the checker's.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from opsbench.commands._common import user_errors


def register(app: typer.Typer) -> None:
    claims_app = typer.Typer(help="The claim checker and LLM judges against labelled sets.")
    app.add_typer(claims_app, name="claims")

    @claims_app.command("agreement")
    def agreement(
        labelled: Annotated[
            Path,
            typer.Option("--set", help="Labelled set (YAML), e.g. tests/data/claims_hosted.yaml."),
        ],
        judge: Annotated[
            str,
            typer.Option("--judge", help="lexicon (the deterministic checker) or a model string."),
        ] = "lexicon",
        split: Annotated[
            str | None, typer.Option("--split", help="Only messages with this split (dev, test).")
        ] = None,
        base_url: Annotated[
            str | None, typer.Option("--base-url", help="OpenAI-compatible endpoint for --judge.")
        ] = None,
        as_json: Annotated[
            bool, typer.Option("--json", help="Print JSON instead of tables.")
        ] = False,
    ) -> None:
        """Precision and recall of a claim reader on a labelled set: overall, per kind, per style."""
        from opsbench.agreement import load_set, render

        with user_errors():
            items = load_set(labelled, split)
            result = _measure(judge, items, base_url)
        if as_json:
            typer.echo(json.dumps({"judge": judge, "set": str(labelled), **result.to_dict()}))
        else:
            typer.echo(render(f"{judge} on {labelled}" + (f" ({split})" if split else ""), result))


def _measure(judge: str, items: list, base_url: str | None):  # type: ignore[no-untyped-def]
    import asyncio

    from opsbench.agreement import measure, measure_async
    from opsbench.errors import OpsbenchError
    from sandbox.claims import LexiconClaimChecker

    if judge == "lexicon":
        if base_url is not None:
            raise OpsbenchError("--base-url applies to a model --judge, not to the lexicon checker")
        return measure(items, LexiconClaimChecker().extract)

    from contract.assistant import EpisodeContext
    from opsbench.judge import JudgeError, judge_text
    from opsbench.runner import resolve_assistant

    factory = resolve_assistant(judge, {}, base_url)
    reader = factory(EpisodeContext("claims-agreement"))  # type: ignore[call-arg]

    async def read(text: str) -> list:  # type: ignore[type-arg]
        claims, _ = await judge_text(reader, text)
        return list(claims)

    try:
        return asyncio.run(measure_async(items, read))
    except JudgeError as exc:
        raise OpsbenchError(f"--judge {judge}: {exc}") from None
