"""A minimal HTTP/1.1 server on asyncio streams, bound to loopback only.

Just enough HTTP for SDK clients: keep-alive, ``Content-Length`` bodies, JSON replies. It
exists (rather than ``http.server``) so that a reply can be delayed or withheld without
blocking a thread, which is how slow responses and hangs are injected.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

LOOPBACK = "127.0.0.1"
MAX_HEADER_BYTES = 64 * 1024
MAX_BODY_BYTES = 32 * 1024 * 1024


@dataclass(frozen=True)
class HttpRequest:
    """One request as received. Header names are lower-case."""

    method: str
    path: str
    headers: Mapping[str, str]
    body: bytes


@dataclass(frozen=True)
class HttpResponse:
    """A reply. ``delay`` seconds pass before it is sent; ``hang`` means it never is (the
    connection is held open until the client gives up or the server stops); ``trickle``
    sends the body one byte every that many seconds."""

    status: int
    body: bytes = b""
    headers: Mapping[str, str] = field(default_factory=dict)
    delay: float = 0.0
    hang: bool = False
    trickle: float = 0.0

    @classmethod
    def json(cls, status: int, data: Any, headers: Mapping[str, str] | None = None) -> HttpResponse:
        body = json.dumps(data, ensure_ascii=False).encode()
        return cls(status, body, {"content-type": "application/json", **(headers or {})})


Handler = Callable[[HttpRequest], Awaitable[HttpResponse]]


class HttpServer:
    """Serves ``handler`` on ``127.0.0.1:port`` (0 = any free port) inside the running loop."""

    def __init__(self, handler: Handler, port: int = 0) -> None:
        self._handler = handler
        self._port = port
        self._server: asyncio.Server | None = None
        self._stopping = asyncio.Event()
        self._connections: dict[asyncio.Task[None], asyncio.StreamWriter] = {}

    @property
    def address(self) -> tuple[str, int]:
        """(host, port) of the listening socket."""
        if self._server is None:
            raise RuntimeError("the server is not started")
        host, port = self._server.sockets[0].getsockname()[:2]
        return str(host), int(port)

    @property
    def port(self) -> int:
        return self.address[1]

    async def start(self) -> None:
        # Loopback only: the server has no authentication and must not be reachable from outside.
        self._server = await asyncio.start_server(self._accept, LOOPBACK, self._port)

    async def stop(self, grace: float = 2.0) -> None:
        """Stop accepting, drop idle and held connections, give busy ones ``grace`` seconds."""
        self._stopping.set()
        if self._server is not None:
            self._server.close()
        for writer in list(self._connections.values()):
            writer.close()  # an idle keep-alive read ends at once
        tasks = list(self._connections)
        if tasks:
            _done, pending = await asyncio.wait(tasks, timeout=grace)
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
        if self._server is not None:
            await self._server.wait_closed()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._connections[task] = writer
        try:
            await self._serve(reader, writer)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass
        except asyncio.CancelledError:
            # Only stop() cancels a connection; end it quietly (asyncio's stream callback
            # would otherwise report the cancellation as an error).
            pass
        finally:
            self._connections.pop(task, None)
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while not self._stopping.is_set():
            request = await _read_request(reader)
            if request is None:
                return
            if isinstance(request, HttpResponse):  # malformed: answer and hang up
                await _write(writer, request, keep_alive=False)
                return
            response = await self._handler(request)
            if response.hang:
                await self._hold(reader)
                return
            if response.delay > 0:
                await asyncio.sleep(response.delay)
            keep_alive = request.headers.get("connection", "").lower() != "close"
            await _write(writer, response, keep_alive=keep_alive)
            if not keep_alive:
                return

    async def _hold(self, reader: asyncio.StreamReader) -> None:
        """Wait until the client closes the connection or the server stops."""
        eof = asyncio.ensure_future(reader.read())
        stop = asyncio.ensure_future(self._stopping.wait())
        try:
            await asyncio.wait({eof, stop}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiter in (eof, stop):
                waiter.cancel()


async def _read_request(reader: asyncio.StreamReader) -> HttpRequest | HttpResponse | None:
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError as exc:
        return None if not exc.partial.strip() else _bad("incomplete request head")
    if len(head) > MAX_HEADER_BYTES:
        return _bad("request head too large")
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3:
        return _bad(f"malformed request line {lines[0]!r}")
    method, path, _version = parts
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if line:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding", "").lower() == "chunked":
        return HttpResponse.json(411, {"error": {"message": "send a Content-Length body"}})
    try:
        length = int(headers.get("content-length", "0"))
    except ValueError:
        return _bad("Content-Length is not a number")
    if length > MAX_BODY_BYTES:
        return _bad("request body too large")
    body = await reader.readexactly(length) if length else b""
    return HttpRequest(method.upper(), path, headers, body)


def _bad(message: str) -> HttpResponse:
    return HttpResponse.json(400, {"error": {"message": message, "type": "invalid_request_error"}})


async def _write(writer: asyncio.StreamWriter, response: HttpResponse, *, keep_alive: bool) -> None:
    try:
        reason = HTTPStatus(response.status).phrase
    except ValueError:  # a status HTTP does not name, such as Anthropic's 529
        reason = "Status"
    head = [f"HTTP/1.1 {response.status} {reason}"]
    headers = {
        "content-length": str(len(response.body)),
        "connection": "keep-alive" if keep_alive else "close",
        **{k.lower(): v for k, v in response.headers.items()},
    }
    head.extend(f"{name}: {value}" for name, value in headers.items())
    writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1"))
    if response.trickle > 0:
        for i in range(len(response.body)):
            await writer.drain()
            await asyncio.sleep(response.trickle)
            if writer.is_closing():  # the client gave up
                return
            writer.write(response.body[i : i + 1])
    else:
        writer.write(response.body)
    await writer.drain()
