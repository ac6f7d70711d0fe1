"""One running Parley per user and data folder.

Why: two processes on one database would each treat the other's streaming replies as
interrupted, and a file double-clicked in the file manager belongs in the window that is
already open. So a second launch hands its files to the running Parley over a local
socket and exits before it opens the database or shows a window.

Why a lock file around the claim: "nobody answers, so I listen" is a check-then-act. Two
launches at the same moment could both find no server, and with a stale socket file both
would remove it and listen, each on a socket the other unlinked (on Windows two servers
may even share one pipe name). The lock (in the data folder, so it is keyed like the
socket) serialises the claim; it is released once the winner listens, so the loser then
finds a server and hands over. A lock left by a crashed process is recognised as stale
by `QLockFile` (its owner is gone). `AddressInUse` is still handled by connecting again,
for whoever claims without the lock.

Why the message is validated: any local process of the same user can write to the
socket, so a message is a size-capped line of JSON of one known shape, and only paths of
existing regular files are passed on to the composer.
"""

from __future__ import annotations

import enum
import getpass
import hashlib
import json
import logging
import os
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QLockFile, QObject, Qt, QTimer
from PySide6.QtNetwork import QAbstractSocket, QLocalServer, QLocalSocket
from PySide6.QtWidgets import QWidget

log = logging.getLogger("parley.instance")

ACK = b"ok\n"
CONNECT_TIMEOUT_MS = 1_000
# The running Parley answers as soon as its event loop turns; one that won the claim a
# moment ago may still be opening its database, so the wait for the answer is longer.
ACK_TIMEOUT_MS = 10_000
READ_TIMEOUT_MS = 5_000  # a connection that has not sent its message by then is dropped
LOCK_TIMEOUT_MS = 15_000  # past this, start anyway: a stuck lock must not block start-up
CLAIM_ATTEMPTS = 3
MAX_FILES = 64
MAX_PATH_CHARS = 4_096
MAX_MESSAGE_BYTES = MAX_FILES * (MAX_PATH_CHARS + 8) + 1_024
LOCK_FILE = "instance.lock"
_MAX_SOCKET_PATH_BYTES = 100  # sockaddr_un holds 104-108 bytes, depending on the OS


class NotAnswering(RuntimeError):
    """A Parley holds this data folder but did not take the hand-over."""


@dataclass(frozen=True, slots=True)
class Handover:
    """What a second launch asks of the running Parley."""

    files: tuple[Path, ...] = ()
    activate: bool = True


def _user() -> str:
    try:
        user = getpass.getuser()
    except (OSError, KeyError):
        user = str(os.getuid()) if hasattr(os, "getuid") else "user"
    return re.sub(r"[^A-Za-z0-9_.-]", "_", user)[:32] or "user"


def server_name(data_dir: Path) -> str:
    """The socket (Unix) or pipe (Windows) name for one user and one data folder.

    On Unix an absolute path in the user's private runtime folder, when there is one;
    otherwise a plain name, which QLocalServer turns into a file in the temp folder.
    """
    digest = hashlib.sha256(os.fsencode(data_dir.resolve())).hexdigest()[:16]
    name = f"parley-{_user()}-{digest}"
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    if sys.platform != "win32" and runtime and os.path.isdir(runtime):
        path = os.path.join(runtime, name)
        if len(os.fsencode(path)) <= _MAX_SOCKET_PATH_BYTES:
            return path
    return name


def encode_message(handover: Handover) -> bytes:
    """One line of JSON; files beyond `MAX_FILES` are left behind."""
    files = [str(path) for path in handover.files[:MAX_FILES]]
    body = json.dumps({"files": files, "activate": handover.activate}, ensure_ascii=True)
    return body.encode("ascii") + b"\n"


def parse_message(line: bytes) -> Handover:
    """A received line as a `Handover`, keeping only existing regular files.

    Raises ValueError when the line is not a message of the expected shape.
    """
    if len(line) > MAX_MESSAGE_BYTES:
        raise ValueError("message too long")
    try:
        data = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError("not JSON") from error
    if not isinstance(data, dict) or set(data) - {"files", "activate"}:
        raise ValueError("not a hand-over message")
    files = data.get("files", [])
    activate = data.get("activate", True)
    if not isinstance(files, list) or len(files) > MAX_FILES or not isinstance(activate, bool):
        raise ValueError("not a hand-over message")
    if not all(isinstance(f, str) and 0 < len(f) <= MAX_PATH_CHARS for f in files):
        raise ValueError("not a list of paths")
    return Handover(tuple(p for p in map(Path, files) if _is_regular_file(p)), activate)


def _is_regular_file(path: Path) -> bool:
    if "\0" in str(path) or not path.is_absolute():
        return False
    try:
        return path.is_file()  # follows links: a link to a file is that file
    except (OSError, ValueError):
        return False


class _Outcome(enum.Enum):
    HANDED = enum.auto()  # a running Parley took the message
    ABSENT = enum.auto()  # nobody listens (no socket, or a stale one)
    SILENT = enum.auto()  # something listens but did not answer in time


def _send(name: str, message: bytes) -> _Outcome:
    """Blocking on purpose: this runs before the event loop, and the second launch has
    nothing else to do meanwhile."""
    socket = QLocalSocket()
    socket.connectToServer(name)
    if not socket.waitForConnected(CONNECT_TIMEOUT_MS):
        absent = socket.error() in (
            QLocalSocket.LocalSocketError.ServerNotFoundError,
            QLocalSocket.LocalSocketError.ConnectionRefusedError,
        )
        socket.abort()
        return _Outcome.ABSENT if absent else _Outcome.SILENT
    socket.write(message)
    socket.waitForBytesWritten(ACK_TIMEOUT_MS)
    reply = b""
    while ACK not in reply and socket.waitForReadyRead(ACK_TIMEOUT_MS):
        reply += socket.readAll().data()
    reply += socket.readAll().data()  # an answer that came with the disconnect
    socket.abort()
    return _Outcome.HANDED if ACK in reply else _Outcome.SILENT


class _Connection(QObject):
    """One incoming connection: reads one line, delivers it, acknowledges, hangs up."""

    def __init__(
        self, socket: QLocalSocket, deliver: Callable[[Handover], None], parent: QObject
    ) -> None:
        super().__init__(parent)
        self._socket = socket
        self._deliver = deliver
        self._buffer = b""
        self._done = False
        self._timer = QTimer(self, singleShot=True, interval=READ_TIMEOUT_MS)
        self._timer.timeout.connect(self._drop)
        socket.readyRead.connect(self._read)
        socket.disconnected.connect(self._finish)
        self._timer.start()
        self._read()  # bytes that arrived before the signals were connected

    def _read(self) -> None:
        if self._done:
            return
        self._buffer += self._socket.readAll().data()
        line, newline, _ = self._buffer.partition(b"\n")
        if not newline:
            if len(self._buffer) > MAX_MESSAGE_BYTES:
                log.warning("hand-over rejected: message too long")
                self._drop()
            return
        self._done = True
        try:
            handover = parse_message(line)
        except ValueError as error:
            log.warning("hand-over rejected: %s", error)
            self._drop()
            return
        self._socket.write(ACK)
        self._socket.flush()
        self._socket.disconnectFromServer()
        self._deliver(handover)

    def _drop(self) -> None:
        self._done = True
        self._socket.abort()
        self._finish()

    def _finish(self) -> None:
        self._timer.stop()
        self._socket.deleteLater()
        self.deleteLater()


class InstanceServer(QObject):
    """Listens for later launches on the same data folder.

    Hand-overs that arrive before `serve` (while the window is still being built) are
    kept and delivered then.
    """

    def __init__(self, server: QLocalServer | None) -> None:
        super().__init__()
        self._server = server
        self._handler: Callable[[Handover], None] | None = None
        self._pending: list[Handover] = []
        if server is not None:
            server.setParent(self)
            server.newConnection.connect(self._accept)

    @property
    def listening(self) -> bool:
        return self._server is not None and self._server.isListening()

    def serve(self, window: QWidget, attach: Callable[[Sequence[Path]], None]) -> None:
        """Hand-overs bring `window` forward and give their files to `attach`."""

        def handle(handover: Handover) -> None:
            if handover.activate:
                bring_forward(window)
            if handover.files:
                attach(handover.files)

        self._handler = handle
        pending, self._pending = self._pending, []
        for handover in pending:
            self._deliver(handover)

    def close(self) -> None:
        """Stop listening (on Unix this removes the socket file)."""
        if self._server is not None:
            self._server.close()

    def _accept(self) -> None:
        assert self._server is not None
        while self._server.hasPendingConnections():
            socket = self._server.nextPendingConnection()
            if socket is not None:
                _Connection(socket, self._deliver, self)

    def _deliver(self, handover: Handover) -> None:
        log.info(
            "hand-over received: %d file(s), activate=%s", len(handover.files), handover.activate
        )
        if self._handler is None:
            self._pending.append(handover)
            return
        try:
            self._handler(handover)
        except Exception:
            log.exception("hand-over failed")


def bring_forward(window: QWidget) -> None:
    """Un-minimise (keeping maximised), show if hidden, raise and ask for focus."""
    state = window.windowState() & ~Qt.WindowState.WindowMinimized
    window.setWindowState(state | Qt.WindowState.WindowActive)
    window.show()
    window.raise_()
    window.activateWindow()


def claim(
    data_dir: Path, files: Sequence[Path] = (), *, activate: bool = True
) -> InstanceServer | None:
    """Become the Parley for `data_dir`, or hand `files` to the one that already is.

    Returns None when a running Parley took the hand-over (the caller exits), else the
    listening server. Raises NotAnswering when a Parley holds the folder but does not
    answer. A server that cannot listen for another reason is returned not listening:
    start-up goes on without single-instance rather than not at all.
    """
    name = server_name(data_dir)
    message = encode_message(Handover(tuple(files), activate))
    lock = QLockFile(str(data_dir / LOCK_FILE))
    locked = lock.tryLock(LOCK_TIMEOUT_MS)
    if not locked:
        log.warning("instance lock not taken (%s); claiming without it", lock.error().name)
    try:
        for _ in range(CLAIM_ATTEMPTS):
            outcome = _send(name, message)
            if outcome is _Outcome.HANDED:
                return None
            if outcome is _Outcome.SILENT:
                raise NotAnswering(
                    f"a Parley using the data folder {data_dir} is running but does not answer"
                )
            QLocalServer.removeServer(name)  # a socket file left by a crash, if any
            server = QLocalServer()
            server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
            if server.listen(name):
                log.info("listening for later launches on %s", name)
                return InstanceServer(server)
            error = server.serverError()
            if error is not QAbstractSocket.SocketError.AddressInUseError:
                log.warning("cannot listen for later launches: %s", server.errorString())
                return InstanceServer(None)
            # another launch got there between our connect and listen: ask it again
        log.warning("cannot listen for later launches: the name stays in use")
        return InstanceServer(None)
    finally:
        if locked:
            lock.unlock()
