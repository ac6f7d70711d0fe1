"""Quitting on SIGINT and SIGTERM the way File → Quit does.

Ctrl+C in the terminal that started Parley sends SIGINT; `kill`, a logout and service
managers send SIGTERM. Left to Python, SIGINT raises KeyboardInterrupt inside whichever
Qt callback runs next (a traceback, and Parley carries on) and SIGTERM ends the process
on the spot (the answer streaming at that moment loses its last second of text and
reopens as interrupted). Both now take the orderly way out: generations stop and keep
what they received, the database is closed, "Parley stopped" is logged.

The handlers run on the event loop (asyncio's `add_signal_handler`, which wakes Qt's
loop through the signal's wake-up descriptor), never in the middle of other code.
Exit status: 130 after SIGINT, as shells expect of a program interrupted from the
keyboard; 0 after SIGTERM, an ordinary request to quit that service managers and
session logouts count as a clean exit.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Callable

log = logging.getLogger(__name__)

EXIT_STATUS = {signal.SIGINT: 130, signal.SIGTERM: 0}


class QuitSignals:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._quit: Callable[[], None] | None = None
        self._fallback: list[signal.Signals] = []
        self.received: signal.Signals | None = None

    def install(self) -> None:
        for signum in EXIT_STATUS:
            try:
                self._loop.add_signal_handler(signum, self._on_signal, signum)
            except (NotImplementedError, RuntimeError):
                # Windows: no wake-up descriptor; Python runs the handler at the next
                # bytecode it executes, which hands it to the loop.
                signal.signal(
                    signum, lambda s, _frame: self._loop.call_soon_threadsafe(self._on_signal, s)
                )
                self._fallback.append(signum)

    def uninstall(self) -> None:
        for signum in EXIT_STATUS:
            if signum in self._fallback:
                signal.signal(signum, signal.SIG_DFL)
            else:
                self._loop.remove_signal_handler(signum)
        self._fallback.clear()

    def quit_with(self, quit: Callable[[], None]) -> None:
        """`quit()` starts the orderly shutdown; a signal that came before the window
        existed is acted on now."""
        self._quit = quit
        if self.received is not None:
            quit()

    @property
    def exit_status(self) -> int | None:
        """What the process should exit with, when a signal asked it to quit."""
        return None if self.received is None else EXIT_STATUS[self.received]

    def _on_signal(self, signum: int) -> None:
        received = signal.Signals(signum)
        if self.received is not None:
            log.info("%s received while quitting", received.name)
            return
        self.received = received
        log.info("%s received: quitting", received.name)
        if self._quit is not None:
            self._quit()
