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

A second signal ends Parley at once: a person who presses Ctrl+C again means it. Once
the first one is taken, both signals go back to the system's default action, so the
kernel ends the process itself, even while the shutdown waits inside a call that does
not return to Python (a file lock another program holds, a thread being joined), where
no handler of ours could run.
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
        self._installed = False
        self.received: signal.Signals | None = None

    def install(self) -> None:
        self._installed = True
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
        """Our handlers go; after a quit signal the system's default action stays."""
        if not self._installed:
            return
        self._installed = False
        for signum in EXIT_STATUS:
            if signum in self._fallback:
                signal.signal(signum, signal.SIG_DFL)
            else:
                self._loop.remove_signal_handler(signum)
                if self.received is not None:  # not Python's KeyboardInterrupt again
                    signal.signal(signum, signal.SIG_DFL)
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
        if self.received is not None:  # only before the defaults were back (a race)
            log.info("%s received again while quitting: ending at once", received.name)
            signal.signal(received, signal.SIG_DFL)
            signal.raise_signal(received)
            return
        self.received = received
        # The defaults go back before anything else (even the log line): a second signal
        # arriving in between would reach our handler only to be dropped with it.
        self.uninstall()  # the next one gets the system's default action: the end
        log.info("%s received: quitting (a second one ends Parley at once)", received.name)
        if self._quit is not None:
            self._quit()
