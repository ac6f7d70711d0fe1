"""Delivers notices to the desktop's notification service, one per conversation.

desktop-notifier speaks the freedesktop `org.freedesktop.Notifications` interface over
D-Bus on Linux (Qt's tray balloons never reach it there), and the native centres on
Windows and macOS; it is asyncio-native, so it runs on Parley's one loop. When it
cannot deliver (no session bus, no notification daemon) Parley says so in the log once
and hands notices to `fallback` (the tray balloon) from then on.

A notice's words are the model's (the start of an answer, a chat title it wrote), so
they go out as text. The freedesktop specification makes the summary plain text
everywhere, but a server that lists "body-markup" among its capabilities (GNOME, KDE,
dunst) reads the body as markup, and one that does not shows it as written. So the body
has & < > escaped exactly when the server reads markup; desktop-notifier passes both
through untouched.
"""

from __future__ import annotations

import asyncio
import html
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from desktop.engine.notices import Notice
from desktop.engine.tasks import KeyedTasks

if TYPE_CHECKING:
    from desktop_notifier import DesktopNotifier

log = logging.getLogger("parley.notify")


def body_text(text: str, *, markup: bool) -> str:
    """`text` as a notification body that shows exactly `text`: a server that reads
    markup gets & < > as entities, one that does not gets the text as it is."""
    return html.escape(text, quote=False) if markup else text


class Notifier:
    def __init__(
        self,
        on_clicked: Callable[[str], None],
        *,
        fallback: Callable[[Notice], bool] | None = None,
        app_name: str = "Parley",
        icon: Path | None = None,
    ) -> None:
        self._on_clicked = on_clicked
        self._fallback = fallback
        self._app_name = app_name
        self._icon = icon
        self._desktop: DesktopNotifier | None = None
        self._desktop_works = True
        self._body_markup: bool | None = None  # None: not asked yet
        self._shown: dict[str, str] = {}  # conversation id -> its notification's id
        self._order = asyncio.Lock()  # a replacement must not overtake what it replaces
        self._tasks = KeyedTasks("notification")

    def show(self, notice: Notice) -> None:
        """Send `notice` soon, replacing the conversation's previous one."""
        self._tasks.start(notice.conversation_id, self._deliver(notice))

    async def _deliver(self, notice: Notice) -> None:
        async with self._order:
            if self._desktop_works and await self._send(notice):
                return
            if self._desktop_works:
                self._desktop_works = False
                log.warning(
                    "desktop notifications are unavailable (no notification service on "
                    "the session bus?); using the tray icon's messages instead"
                )
            if self._fallback is not None:
                self._fallback(notice)

    async def send_now(self, notice: Notice) -> bool:
        """Deliver `notice` and wait until it is shown; False when the desktop has no
        notification service. For a notice sent before Parley's window exists."""
        async with self._order:
            return await self._send(notice)

    def _connect(self) -> DesktopNotifier:
        """Built at the first notice: loading desktop-notifier and its D-Bus library
        costs about 0.1 s, which start-up need not pay."""
        if self._desktop is None:
            from desktop_notifier import DesktopNotifier, Icon

            icon = Icon(path=self._icon) if self._icon is not None else None
            self._desktop = DesktopNotifier(app_name=self._app_name, app_icon=icon)
        return self._desktop

    async def _send(self, notice: Notice) -> bool:
        try:
            from desktop_notifier import Notification

            desktop = self._connect()
        except Exception:  # no backend for this platform
            log.debug("desktop notifications cannot start", exc_info=True)
            return False
        previous = self._shown.pop(notice.conversation_id, None)
        if previous is not None:
            try:
                await desktop.clear(previous)
            except Exception:  # already closed by the person or the daemon
                log.debug("could not withdraw notification %s", previous, exc_info=True)
        markup = await self._reads_markup(desktop)
        if markup is None:
            return False
        delivered: list[bool] = []
        cid = notice.conversation_id
        notification = Notification(
            notice.title,
            body_text(notice.body, markup=markup),
            on_dispatched=lambda: delivered.append(True),
            on_clicked=lambda: self._clicked(cid),
        )
        try:  # desktop-notifier logs and swallows failures; `delivered` tells them apart
            await desktop.send_notification(notification)
        except Exception:
            log.debug("sending a notification failed", exc_info=True)
        if delivered:
            self._shown[cid] = notification.identifier
        return bool(delivered)

    async def _reads_markup(self, desktop: DesktopNotifier) -> bool | None:
        """Whether the notification server reads the body as markup ("body-markup" in
        its GetCapabilities), asked once, as desktop-notifier asks for its own; None
        when no server answers (the send, which asks too, would fail the same way)."""
        if self._body_markup is None:
            try:
                await desktop.get_capabilities()  # on D-Bus, this opens the connection
                # Only the D-Bus backend has this interface; the native centres of
                # Windows and macOS take plain text.
                interface = getattr(getattr(desktop, "_backend", None), "interface", None)
                ask = getattr(interface, "call_get_capabilities", None)
                capabilities = await ask() if ask is not None else []
            except Exception:
                log.debug("the notification server does not answer", exc_info=True)
                return None
            self._body_markup = "body-markup" in capabilities
        return self._body_markup

    def _clicked(self, conversation_id: str) -> None:
        self._shown.pop(conversation_id, None)
        self._on_clicked(conversation_id)

    async def aclose(self) -> None:
        """Stop pending sends and leave the session bus (notifications stay on screen)."""
        await self._tasks.close()
        # desktop-notifier opens its D-Bus connection lazily and offers no way to close
        # it; an open connection would outlive the loop it belongs to.
        bus = getattr(getattr(self._desktop, "_backend", None), "bus", None)
        if bus is not None:
            bus.disconnect()
            try:
                await asyncio.wait_for(bus.wait_for_disconnect(), 1.0)
            except Exception:
                log.debug("leaving the session bus failed", exc_info=True)
