"""Running the local provider server: in a background thread (tests, notebooks) or in the
foreground (``opsbench serve``)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from types import TracebackType

from adapters.server.app import ProviderApp, RecordedRequest
from adapters.server.faults import Fault, FaultQueue
from adapters.server.script import EchoAssistant
from adapters.server.transport import LOOPBACK, HttpServer
from contract.assistant import Assistant


class LocalServer:
    """An OpenAI- and Anthropic-compatible server on ``127.0.0.1`` answered by ``assistant``.

    Use as a context manager, or :meth:`start` / :meth:`stop`. Point clients at
    :attr:`openai_base_url` (``…/v1``) or :attr:`anthropic_base_url`; any API key is accepted.
    The assistant can be swapped between requests (:attr:`assistant`), faults queued with
    :meth:`inject`, and what was received read from :attr:`requests`.
    """

    def __init__(self, assistant: Assistant | None = None, *, port: int = 0) -> None:
        self.faults = FaultQueue()
        self.app = ProviderApp(assistant or EchoAssistant(), self.faults)
        self._port = port
        self._http: HttpServer | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._failure: BaseException | None = None
        self._stopped: asyncio.Event | None = None

    # ------------------------------------------------------------------------ settings

    @property
    def assistant(self) -> Assistant:
        return self.app.assistant

    @assistant.setter
    def assistant(self, value: Assistant) -> None:
        self.app.assistant = value

    def inject(self, *faults: Fault) -> None:
        """Queue faults for the next requests (see :mod:`adapters.server.faults`)."""
        self.faults.add(*faults)

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every request received so far, in order."""
        return list(self.app.requests)

    def reset(self, assistant: Assistant | None = None) -> None:
        """Forget requests, faults and the prompt cache; optionally swap the assistant."""
        self.faults.clear()
        self.app.requests.clear()
        self.app.forget_cache()
        if assistant is not None:
            self.app.assistant = assistant

    # ------------------------------------------------------------------------ addresses

    @property
    def port(self) -> int:
        if self._http is None:
            raise RuntimeError("the server is not running; call start() first")
        return self._http.port

    @property
    def address(self) -> tuple[str, int]:
        """The (host, port) the server's socket is bound to."""
        if self._http is None:
            raise RuntimeError("the server is not running; call start() first")
        return self._http.address

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    @property
    def openai_base_url(self) -> str:
        return f"{self.url}/v1"

    @property
    def anthropic_base_url(self) -> str:
        return self.url

    # ------------------------------------------------------------------------ lifecycle

    def start(self) -> LocalServer:
        """Serve from a daemon thread; returns once the port is bound."""
        if self._thread is not None:
            raise RuntimeError("the server is already running")
        self._thread = threading.Thread(target=self._run, name="opsbench-local-server", daemon=True)
        self._thread.start()
        self._ready.wait()
        if self._failure is not None:
            raise RuntimeError(
                f"the local server could not start: {self._failure}"
            ) from self._failure
        return self

    def stop(self) -> None:
        """Stop serving (held connections are dropped) and join the thread."""
        if self._loop is not None and self._stopped is not None:
            self._loop.call_soon_threadsafe(self._stopped.set)
        if self._thread is not None:
            self._thread.join(timeout=10)
        self._thread = None

    def __enter__(self) -> LocalServer:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    def _run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopped = asyncio.Event()
        try:
            await self.serve(ready=self._ready.set, until=self._stopped)
        except BaseException as exc:
            self._failure = exc
            self._ready.set()

    async def serve(
        self, *, ready: Callable[[], None] | None = None, until: asyncio.Event | None = None
    ) -> None:
        """Serve in the running loop until ``until`` is set (forever if not given)."""
        self._http = HttpServer(self.app.handle, self._port)
        await self._http.start()
        if ready is not None:
            ready()
        try:
            await (until or asyncio.Event()).wait()
        finally:
            await self._http.stop()
