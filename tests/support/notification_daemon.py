"""A private D-Bus session bus with a notification daemon that records what it is told.

`dbus-daemon` runs as a child process (a real bus, as on a desktop); the daemon side is
the freedesktop `org.freedesktop.Notifications` interface implemented with dbus-fast,
on its own thread and asyncio loop, so it answers whatever loop the app runs on. It
records every `Notify` call and can play a click (`ActionInvoked(id, "default")`).

The D-Bus signatures are `Annotated` type hints, which dbus-fast reads.
"""

import asyncio
import os
import shutil
import subprocess
import threading
from dataclasses import dataclass
from typing import Annotated, Any

import pytest
from dbus_fast.aio import MessageBus
from dbus_fast.annotations import DBusInt32, DBusSignature, DBusStr, DBusUInt32
from dbus_fast.service import ServiceInterface, method, signal

from tests.support.waiting import CEILING_S

Strings = Annotated[list[str], DBusSignature("as")]
Hints = Annotated[dict[str, Any], DBusSignature("a{sv}")]
ServerInformation = Annotated[list[str], DBusSignature("ssss")]
IdAndKey = Annotated[list[Any], DBusSignature("us")]
IdAndReason = Annotated[list[int], DBusSignature("uu")]

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"


@dataclass(frozen=True)
class NotifyCall:
    id: int
    app_name: str
    replaces_id: int
    summary: str
    body: str
    actions: list[str]


class _Notifications(ServiceInterface):
    def __init__(self, daemon: "NotificationDaemon") -> None:
        super().__init__(NAME)
        self._daemon = daemon

    @method()
    def Notify(
        self,
        app_name: DBusStr,
        replaces_id: DBusUInt32,
        app_icon: DBusStr,
        summary: DBusStr,
        body: DBusStr,
        actions: Strings,
        hints: Hints,
        expire_timeout: DBusInt32,
    ) -> DBusUInt32:
        return self._daemon._record(app_name, replaces_id, summary, body, actions)

    @method()
    def CloseNotification(self, notification_id: DBusUInt32) -> None:
        self._daemon._close(notification_id)
        self.NotificationClosed(notification_id, 3)

    @method()
    def GetCapabilities(self) -> Strings:
        return list(self._daemon.capabilities)

    @method()
    def GetServerInformation(self) -> ServerInformation:
        return ["parley-test-daemon", "Parley tests", "1.0", "1.2"]

    @signal()
    def ActionInvoked(self, notification_id: int, action_key: str) -> IdAndKey:
        return [notification_id, action_key]

    @signal()
    def NotificationClosed(self, notification_id: int, reason: int) -> IdAndReason:
        return [notification_id, reason]


class NotificationDaemon:
    """Start with `start()`; `address` is the bus the app must use
    (DBUS_SESSION_BUS_ADDRESS). `capabilities` is what GetCapabilities answers: add
    "body-markup" to play GNOME, KDE or dunst, which read the body as markup."""

    def __init__(self, capabilities: tuple[str, ...] = ("body", "actions")) -> None:
        self.capabilities = capabilities
        self.address = ""
        self._process: subprocess.Popen[str] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._interface: _Notifications | None = None
        self._bus: MessageBus | None = None
        self._lock = threading.Condition()
        self._calls: list[NotifyCall] = []
        self._closed: list[int] = []
        self._next_id = 1

    @staticmethod
    def skip_unless_available() -> None:
        """Skip without `dbus-daemon`, unless CI says it must be there
        (PARLEY_REQUIRE_DBUS=1, set by .ci/run, which installs it)."""
        if shutil.which("dbus-daemon") is not None:
            return
        if os.environ.get("PARLEY_REQUIRE_DBUS") == "1":
            pytest.fail("dbus-daemon is missing but PARLEY_REQUIRE_DBUS=1")
        pytest.skip("dbus-daemon is not installed (Debian package dbus-daemon)")

    # --- what the app did -------------------------------------------------------------

    @property
    def calls(self) -> list[NotifyCall]:
        with self._lock:
            return list(self._calls)

    @property
    def closed(self) -> list[int]:
        """Ids the app withdrew (CloseNotification), in order."""
        with self._lock:
            return list(self._closed)

    def wait_for_calls(self, count: int, timeout: float = CEILING_S) -> bool:
        with self._lock:
            return self._lock.wait_for(lambda: len(self._calls) >= count, timeout)

    def click(self, notification_id: int) -> None:
        """The person clicks the notification's body (its "default" action)."""
        assert self._loop is not None and self._interface is not None
        interface = self._interface
        self._loop.call_soon_threadsafe(interface.ActionInvoked, notification_id, "default")

    def _record(
        self, app_name: str, replaces_id: int, summary: str, body: str, actions: Any
    ) -> int:
        with self._lock:
            call_id = self._next_id
            self._next_id += 1
            self._calls.append(NotifyCall(call_id, app_name, replaces_id, summary, body, actions))
            self._lock.notify_all()
            return call_id

    def _close(self, notification_id: int) -> None:
        with self._lock:
            self._closed.append(notification_id)

    # --- lifecycle --------------------------------------------------------------------

    def start(self) -> "NotificationDaemon":
        self._process = subprocess.Popen(
            ["dbus-daemon", "--session", "--print-address=1", "--nofork"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert self._process.stdout is not None
        self.address = self._process.stdout.readline().strip()
        if not self.address:
            self.stop()
            raise RuntimeError("dbus-daemon printed no address")
        ready = threading.Event()
        failure: list[BaseException] = []
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._run, args=(ready, failure), name="notification-daemon", daemon=True
        )
        self._thread.start()
        if not ready.wait(CEILING_S) or failure:
            self.stop()
            raise RuntimeError("the notification daemon did not start") from (
                failure[0] if failure else None
            )
        return self

    def _run(self, ready: threading.Event, failure: list[BaseException]) -> None:
        assert self._loop is not None
        loop = self._loop
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._serve())
        except BaseException as error:
            failure.append(error)
            ready.set()
            loop.close()
            return
        ready.set()
        try:
            loop.run_forever()
        finally:
            if self._bus is not None:
                self._bus.disconnect()
                loop.run_until_complete(self._bus.wait_for_disconnect())
            loop.close()

    async def _serve(self) -> None:
        self._bus = await MessageBus(bus_address=self.address).connect()
        self._interface = _Notifications(self)
        self._bus.export(PATH, self._interface)
        await self._bus.request_name(NAME)

    def stop(self) -> None:
        if self._loop is not None and self._thread is not None and self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
        if self._process is not None:
            self._process.terminate()
            self._process.wait(10)
            if self._process.stdout is not None:
                self._process.stdout.close()
            self._process = None
