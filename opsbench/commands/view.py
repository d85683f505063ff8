"""``opsbench view``: serve a run's full episode browser from its store on 127.0.0.1."""

from __future__ import annotations

from typing import Annotated

import typer

from opsbench.commands._common import DEFAULT_STORE_PATH, StoreOption, user_errors


def register(app: typer.Typer) -> None:
    @app.command("view")
    def view(
        run: Annotated[str | None, typer.Argument(help="Run id (default: the latest).")] = None,
        store: StoreOption = DEFAULT_STORE_PATH,
        port: Annotated[
            int,
            typer.Option(min=0, max=65535, help="Port on 127.0.0.1 (0: any free port, printed)."),
        ] = 8765,
    ) -> None:
        """Browse every episode of a run, paged and filtered, in a local web page.

        Filters: business, task, model, metric (episodes counting against it) and flag
        (failure class or status); each episode opens the HTML report's own page for it.
        Stop with Ctrl-C.
        """
        from opsbench.viewer import ViewServer

        with user_errors():
            try:
                server = ViewServer(store, run, port)
            except OSError as exc:
                if exc.filename is not None:
                    raise
                raise OSError(
                    f"--port {port}: cannot listen on 127.0.0.1: {exc.strerror}"
                ) from None
        typer.echo(f"serving run {server.index.run.id} at {server.url} (Ctrl-C stops)")
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
