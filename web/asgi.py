"""The site as an ASGI application, served by uvicorn: live streams on the event loop, every
other request in a pool of worker threads.

Why (issue 11): under a thread-per-request server each open live stream held a worker, so a
crowd of table screens (anyone on the network may open them) left none to answer orders. Here
the Flask app runs unchanged through a2wsgi's WSGI-to-ASGI bridge in its own thread pool, and
a live stream, once Flask has checked and counted it (:func:`web.live._stream`), is a
coroutine on uvicorn's event loop: thousands of idle connections cost memory, not workers.
Rendering a stream's panel happens in a separate small pool, so a burst of renders never takes
the workers that answer POSTs either.

One thread (:class:`EventBridge`) reads the table service's events and hands them to the loop,
which fans them out to the open streams (:class:`LiveHub`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import socket
import sys
import threading
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

import uvicorn
from a2wsgi import WSGIMiddleware
from flask import Flask

from companion.service import Event, TableService
from web import live
from web.errors import PageError

Step = tuple[list[str], bool]
"""What a stream's step gives: the messages to send, and whether the stream is over."""
Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

RENDER_THREADS = 2
"""Threads that render live panels (and check a stream's request); never the POST workers."""
QUEUE_SIZE = 1000
"""Events a stream may fall behind by before its oldest are dropped (as the service's bus)."""
MAX_CONNECTIONS = 1000
"""Open connections and requests beyond which uvicorn answers 503 at once."""


class LiveHub:
    """The open streams of the event loop, each with its queue of its table's events."""

    def __init__(self) -> None:
        self.queues: dict[str, set[asyncio.Queue[Event]]] = {}
        self.stopping = asyncio.Event()

    def dispatch(self, event: Event) -> None:
        for queue in self.queues.get(event.table, ()):
            if queue.full():
                queue.get_nowait()  # a stream that fell far behind loses its oldest event
            queue.put_nowait(event)

    def subscribe(self, table_id: str) -> asyncio.Queue[Event]:
        queue: asyncio.Queue[Event] = asyncio.Queue(QUEUE_SIZE)
        self.queues.setdefault(table_id, set()).add(queue)
        return queue

    def unsubscribe(self, table_id: str, queue: asyncio.Queue[Event]) -> None:
        queues = self.queues.get(table_id)
        if queues is not None:
            queues.discard(queue)
            if not queues:
                del self.queues[table_id]

    @property
    def open(self) -> int:
        return sum(len(queues) for queues in self.queues.values())


class EventBridge:
    """A thread that reads every table's events and hands them to the loop's hub."""

    def __init__(self, service: TableService, loop: asyncio.AbstractEventLoop, hub: LiveHub):
        self.subscription = service.subscribe(None)
        self.loop = loop
        self.hub = hub
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, name="live-events", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.done.is_set():
            event = self.subscription.get(timeout=live.POLL)
            if event is None:
                continue
            with contextlib.suppress(RuntimeError):  # the loop closed under us
                self.loop.call_soon_threadsafe(self.hub.dispatch, event)

    def close(self) -> None:
        self.done.set()
        self.subscription.close()
        self.thread.join(timeout=2)


class Site:
    """The ASGI application: ``GET .../events`` streams on the loop, the rest through a2wsgi."""

    def __init__(self, app: Flask, *, workers: int) -> None:
        self.app = app
        self.wsgi = WSGIMiddleware(app, workers=workers)  # type: ignore[arg-type]
        self.renders = ThreadPoolExecutor(RENDER_THREADS, thread_name_prefix="live-render")
        self.batches: dict[str, list[tuple[Callable[[], Step], asyncio.Future[Step]]]] = {}
        self.hub: LiveHub | None = None
        self.bridge: EventBridge | None = None
        self.loop: asyncio.AbstractEventLoop | None = None

    @property
    def service(self) -> TableService:
        return cast(TableService, self.app.extensions["companion"])

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        elif (
            scope["type"] == "http"
            and scope["method"] == "GET"
            and scope["path"].endswith("/events")
        ):
            await self._stream(scope, receive, send)
        else:
            await self.wsgi(scope, receive, send)  # type: ignore[arg-type]

    # Life cycle ------------------------------------------------------------------------------

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self.start()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.close()
                await send({"type": "lifespan.shutdown.complete"})
                return

    def start(self) -> None:
        """Start fanning out the service's events (on the running loop)."""
        self.loop = asyncio.get_running_loop()
        self.hub = LiveHub()
        self.bridge = EventBridge(self.service, self.loop, self.hub)

    def stop_streams(self) -> None:
        """End every open stream (any thread): the server is stopping."""
        self.app.extensions["companion_stop"].set()
        loop, hub = self.loop, self.hub
        if loop is not None and hub is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(hub.stopping.set)

    def close(self) -> None:
        if self.bridge is not None:
            self.bridge.close()
            self.bridge = None
        self.renders.shutdown(wait=False, cancel_futures=True)

    # Streams ---------------------------------------------------------------------------------

    async def _stream(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Let Flask check the stream (the table, the seat, the bounds); then run it here."""
        loop = asyncio.get_running_loop()
        streams: live.OpenStreams = self.app.extensions["companion_streams"]
        refused = self.stream_refusal((scope.get("client") or ("unknown", 0))[0])
        if refused is not None:
            # Refused before any Flask work (most are refused earlier still, by the protocol:
            # web.stream_guard); a client that asks again and again costs little.
            await _refuse(scope, send, refused)
            return
        environ = wsgi_environ(scope)
        environ[live.ASYNC_STREAM] = None
        status, headers, body = await loop.run_in_executor(self.renders, self._call, environ)
        plan = environ.get(live.ASYNC_STREAM)
        if not isinstance(plan, live.AsyncPlan):
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        headers = [(k, v) for k, v in headers if k != b"content-length"]  # it streams on
        await send({"type": "http.response.start", "status": status, "headers": headers})
        try:
            await self._run(plan, environ, receive, send)
        finally:
            streams.release(plan.client)
            await send({"type": "http.response.body", "body": b"", "more_body": False})

    def stream_refusal(self, client: str) -> PageError | None:
        """Why a new live stream from ``client`` would be refused now (None: it would not)."""
        streams: live.OpenStreams = self.app.extensions["companion_streams"]
        return streams.refusal(
            client,
            per_client=int(self.app.config["STREAMS_PER_CLIENT"]),
            total=int(self.app.config["STREAMS_TOTAL"]),
        )

    def _call(self, environ: dict[str, Any]) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        """Run the Flask app for one request in this thread; its status, headers and body."""
        started: list[Any] = []

        def start_response(status: str, headers: list[tuple[str, str]], exc: Any = None) -> Any:
            started[:] = [status, headers]
            return lambda data: None

        result = self.app(environ, start_response)
        try:
            body = b"".join(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        status, headers = started
        encoded = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers]
        return int(status.split(" ", 1)[0]), encoded, body

    def _render_shared(
        self, table_id: str, environ: dict[str, Any], step: Callable[[], Step]
    ) -> asyncio.Future[Step]:
        """Run a table screen's step with the other table screens' of its table that are due
        now, in one trip to a render thread and one request context (the panel they render is
        the same for every viewer): 28 screens after a change cost one request context, not 28."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Step] = loop.create_future()
        batch = self.batches.get(table_id)
        if batch is None:
            batch = self.batches[table_id] = []
            # Started after this turn of the loop, so that the screens woken with this one
            # (by the same event, or the same coalescing timer) join it.
            loop.call_soon(self._start_batch, table_id, environ)
        batch.append((step, future))
        return future

    def _start_batch(self, table_id: str, environ: dict[str, Any]) -> None:
        batch = self.batches.pop(table_id, [])
        loop = asyncio.get_running_loop()
        futures = [future for _, future in batch]
        try:
            done = loop.run_in_executor(
                self.renders, self._steps_in_request, environ, [step for step, _ in batch]
            )
        except RuntimeError as err:  # the render threads are shut down: the server is stopping
            done = loop.create_future()
            done.set_exception(err)
        done.add_done_callback(functools.partial(_settle_batch, futures))

    def _steps_in_request(
        self, environ: dict[str, Any], steps: list[Callable[[], Step]]
    ) -> list[Step | BaseException]:
        results: list[Step | BaseException] = []
        with self.app.request_context(environ):
            for step in steps:
                try:
                    results.append(step())
                except Exception as err:  # that stream's own failure, not its neighbours'
                    results.append(err)
        return results

    def _in_request(self, environ: dict[str, Any], action: Callable[[], Any]) -> Any:
        with self.app.request_context(environ):
            return action()

    async def _run(
        self, plan: live.AsyncPlan, environ: dict[str, Any], receive: Receive, send: Send
    ) -> None:
        hub = self.hub
        if hub is None:
            return
        loop = asyncio.get_running_loop()

        async def deliver(messages: list[str]) -> None:
            for message in messages:
                await send(
                    {"type": "http.response.body", "body": message.encode(), "more_body": True}
                )

        async def render(step: Callable[[], tuple[list[str], bool]]) -> bool:
            if plan.shared:
                messages, done = await self._render_shared(plan.table_id, environ, step)
            else:
                messages, done = await loop.run_in_executor(
                    self.renders, self._in_request, environ, step
                )
            await deliver(messages)
            return bool(done)

        queue = hub.subscribe(plan.table_id)
        gone = asyncio.ensure_future(_disconnected(receive))
        stopping = asyncio.ensure_future(hub.stopping.wait())
        try:
            if await render(plan.core.opening):
                return
            while not gone.done() and not stopping.done() and not self.service.closed:
                getting = asyncio.ensure_future(queue.get())
                finished, _ = await asyncio.wait(
                    {getting, gone, stopping},
                    timeout=plan.keepalive,
                    return_when=asyncio.FIRST_COMPLETED,
                )
                if getting not in finished:
                    getting.cancel()
                    if not finished:
                        await send(
                            {
                                "type": "http.response.body",
                                "body": live.KEEPALIVE.encode(),
                                "more_body": True,
                            }
                        )
                    continue
                pending = [getting.result(), *_drain(queue)]
                if not plan.core.changed(pending):
                    # Only the clock moved: a tick renders no panel, so it is sent from here,
                    # without a trip to a render thread (every open stream, once a second).
                    messages, done = plan.core.after(pending)
                    await deliver(messages)
                    if done:
                        return
                    continue
                if plan.coalesce > 0:
                    # A burst of changes (everybody submitting at once) is sent as one.
                    await asyncio.sleep(plan.coalesce)
                    pending += _drain(queue)
                if await render(functools.partial(plan.core.after, pending)):
                    return
        finally:
            hub.unsubscribe(plan.table_id, queue)
            gone.cancel()
            stopping.cancel()


def _settle_batch(
    futures: list[asyncio.Future[Step]], done: asyncio.Future[list[Step | BaseException]]
) -> None:
    """Hand each stream of a batch its own result (or error)."""
    if done.cancelled():
        for future in futures:
            future.cancel()
        return
    error = done.exception()
    results: list[Step | BaseException] = (
        [error] * len(futures) if error is not None else done.result()
    )
    for future, result in zip(futures, results, strict=True):
        if future.done():
            continue  # its stream ended meanwhile
        if isinstance(result, BaseException):
            future.set_exception(result)
        else:
            future.set_result(result)


async def _refuse(scope: Scope, send: Send, refused: PageError) -> None:
    """The refusal as the asker reads it: JSON for a script, else the sentence as text."""
    accept = dict(scope.get("headers", [])).get(b"accept", b"")
    if b"application/json" in accept:
        body = json.dumps({"ok": False, "error": refused.message, "reasons": []}).encode()
        kind = b"application/json"
    else:
        body, kind = refused.message.encode(), b"text/plain; charset=utf-8"
    headers = [(b"content-type", kind), (b"content-length", str(len(body)).encode())]
    headers += [(k.lower().encode(), v.encode()) for k, v in refused.headers.items()]
    await send({"type": "http.response.start", "status": refused.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _disconnected(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


def _drain(queue: asyncio.Queue[Event]) -> list[Event]:
    found = []
    while not queue.empty():
        found.append(queue.get_nowait())
    return found


def wsgi_environ(scope: Scope) -> dict[str, Any]:
    """The WSGI environ of a bodiless ASGI request (a stream's GET), as PEP 3333 has it."""
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": scope.get("root_path", "").encode().decode("latin-1"),
        "PATH_INFO": scope["path"].encode().decode("latin-1"),
        "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": _EmptyInput(),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
    }
    server = scope.get("server") or ("localhost", 80)
    environ["SERVER_NAME"], environ["SERVER_PORT"] = server[0], str(server[1] or 0)
    client = scope.get("client")
    if client:
        environ["REMOTE_ADDR"], environ["REMOTE_PORT"] = client[0], str(client[1])
    for raw_name, raw_value in scope.get("headers", []):
        name, value = raw_name.decode("latin-1"), raw_value.decode("latin-1")
        key = {"content-length": "CONTENT_LENGTH", "content-type": "CONTENT_TYPE"}.get(
            name, "HTTP_" + name.upper().replace("-", "_")
        )
        environ[key] = f"{environ[key]},{value}" if key in environ else value
    return environ


class _EmptyInput:
    def read(self, size: int = -1) -> bytes:
        return b""

    def readline(self, size: int = -1) -> bytes:
        return b""


class Server(uvicorn.Server):
    """uvicorn's server, which also ends the live streams when asked to stop (SIGTERM,
    Ctrl+C), so its graceful shutdown does not wait on them."""

    def __init__(self, config: uvicorn.Config, site: Site) -> None:
        super().__init__(config)
        self.site = site

    def handle_exit(self, sig: int, frame: Any) -> None:
        self.site.stop_streams()
        super().handle_exit(sig, frame)

    def stop(self) -> None:
        """Stop from another thread (tests, benchmarks)."""
        self.site.stop_streams()
        self.should_exit = True


def http_protocol() -> type[asyncio.Protocol] | str:
    """uvicorn's httptools protocol with the stream guard (web.stream_guard) where httptools is
    installed (Linux x86_64 and aarch64); elsewhere uvicorn's choice, whose requests the app
    bounds itself (:meth:`Site._stream`)."""
    try:
        from web.stream_guard import GuardedHttpToolsProtocol
    except ImportError:
        return "auto"
    return GuardedHttpToolsProtocol


def make_server(site: Site, *, host: str, port: int) -> tuple[Server, socket.socket]:
    """A uvicorn server for ``site`` and its listening socket (``port`` 0: a free one)."""
    sock = socket.create_server((host, port), reuse_port=False)
    config = uvicorn.Config(
        site,
        http=http_protocol(),
        lifespan="on",
        log_level="warning",
        access_log=False,  # no request line (or its query string) lands in a log
        timeout_graceful_shutdown=5,
        timeout_keep_alive=30,
        limit_concurrency=MAX_CONNECTIONS,
        server_header=False,
    )
    return Server(config, site), sock
