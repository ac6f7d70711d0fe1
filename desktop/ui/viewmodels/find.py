"""In-chat find: which messages of the open chat's active branch hold the query, how many
times, and which match is the current one.

A long chat has thousands of messages, most not laid out and some not even read yet, so
the search runs on their text (`find_text.plain_text`), read from the chat and searched
in steps of a few milliseconds on the GUI thread's idle turns: typing stays smooth
whatever the chat's length. It starts where the person is looking (the `anchor`) and goes
down to the end, then up from the anchor to the start; the first match below the anchor
(else the nearest above it) becomes the current one as soon as it is certain.

A message that is laid out is counted on what it shows: the view reports its rendered
count (`note_shown`), which replaces the estimate from the source. So the "3 of 12" always
agrees with the highlights on screen; a count may change as messages get laid out.

The current match is a message and the how-many-th match in it (`Match`); moving past a
message's last match goes to the next message that has one, wrapping at the ends.
"""

from __future__ import annotations

import bisect
import time
from dataclasses import dataclass

from PySide6.QtCore import QLocale, QObject, QTimer, Signal

from desktop.core.i18n import tr  # lupdate files a count's plural only from tr()
from desktop.core.models import Role, TextPart
from desktop.ui.viewmodels.find_text import count, needle, plain_text
from desktop.ui.viewmodels.message_item import MessageItem
from desktop.ui.viewmodels.transcript import TranscriptModel

DEBOUNCE_MS = 150  # a search starts once typing pauses this long
STEP_BUDGET_S = 0.008  # GUI-thread time a search step takes before yielding
READ_BATCH = 50  # messages read from the chat at a time


@dataclass(frozen=True, slots=True)
class Match:
    message_id: str
    occurrence: int  # 0-based, among the message's matches in reading order


class FindModel(QObject):
    changed = Signal()  # the count, the position or the searching state changed
    matchesChanged = Signal()  # a new query, case setting or chat: highlight everything again
    currentChanged = Signal()  # the current match moved: show it

    def __init__(self, transcript: TranscriptModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._transcript = transcript
        self._query = ""
        self._needle = ""  # "" while closed or the query is empty
        self._case_sensitive = False
        self._anchor_id = ""
        # The chat searched: its active branch, and the plain text of its messages read so far.
        self._conversation_id = ""
        self._path: list[str] = []
        self._index: dict[str, int] = {}
        self._texts: dict[str, str] = {}
        # Read but not yet made plain (`plain_text` of a long answer is the costly part,
        # so it is done one message at a time, within a step's budget): id -> (text, md)
        self._read: dict[str, tuple[str, bool]] = {}
        # What was found, by position on the branch.
        self._source: dict[int, int] = {}  # counted in the message's text
        self._shown: dict[int, int] = {}  # counted in what a laid-out message shows
        self._hits: list[int] = []  # positions with a match, ascending
        self._current: tuple[int, int] | None = None  # (position, occurrence)
        self._dirty: set[int] = set()  # changed since they were searched
        # The scan: positions anchor..end, then anchor-1 down to 0.
        self._anchor = 0
        self._scanned = 0
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(DEBOUNCE_MS)
        self._debounce.timeout.connect(self._start)
        self._stepper = QTimer(self)
        self._stepper.setSingleShot(True)
        self._stepper.setInterval(0)
        self._stepper.timeout.connect(self._step)
        transcript.messagesReset.connect(self._on_reset)
        transcript.messageAdded.connect(self._on_changed)
        transcript.messageUpdated.connect(self._on_changed)

    # --- what the bar shows --------------------------------------------------------

    @property
    def active(self) -> bool:
        """A query is being searched (the bar is open and not empty)."""
        return bool(self._needle)

    @property
    def needle(self) -> str:
        """The query as searched (white space folded); "" when nothing is searched."""
        return self._needle

    @property
    def case_sensitive(self) -> bool:
        return self._case_sensitive

    @property
    def searching(self) -> bool:
        return self._stepper.isActive() or self._debounce.isActive()

    @property
    def total(self) -> int:
        return sum(self._count(position) for position in self._hits)

    @property
    def position(self) -> int:
        """The current match's number, 1-based (0: none)."""
        if self._current is None:
            return 0
        at, occurrence = self._current
        before = bisect.bisect_left(self._hits, at)
        return sum(self._count(p) for p in self._hits[:before]) + occurrence + 1

    @property
    def current(self) -> Match | None:
        if self._current is None:
            return None
        return Match(self._path[self._current[0]], self._current[1])

    def label(self) -> str:
        """E.g. "3 of 12", "No matches", "Searching…" ("" when nothing is searched)."""
        if not self._needle:
            return ""
        total = self.total
        if total == 0:
            if self.searching:
                return self.tr("Searching…")
            return self.tr("No matches")
        if self._current is None:
            return tr("%Ln match(es)", "", total)
        return (
            self.tr("%1 of %2")
            .replace("%1", QLocale().toString(self.position))
            .replace("%2", QLocale().toString(total))
        )

    # --- what the person does ------------------------------------------------------

    def set_query(self, query: str, anchor_id: str = "") -> None:
        """Search for `query` once typing pauses; the first match at or below the message
        `anchor_id` (the first one on screen) becomes the current one."""
        self._query = query
        self._anchor_id = anchor_id
        if not needle(query):
            self._stop()
            return
        self._debounce.start()
        self.changed.emit()

    def set_case_sensitive(self, case_sensitive: bool) -> None:
        if case_sensitive != self._case_sensitive:
            self._case_sensitive = case_sensitive
            if self._needle or self._debounce.isActive():
                self._start()

    def search_now(self) -> bool:
        """Start a pending search at once (Enter pressed before the pause ended); True
        when one was pending."""
        if not self._debounce.isActive():
            return False
        self._start()
        return True

    def close(self) -> None:
        """Nothing is searched any more: highlights go."""
        self._stop()

    def next(self) -> None:
        self._move(+1)

    def previous(self) -> None:
        self._move(-1)

    def reveal(self, message_id: str) -> None:
        """Read the chat as far back as `message_id` if it is not read yet."""
        self._transcript.reveal(message_id)

    def note_shown(self, message_id: str, shown: int) -> None:
        """A laid-out message shows `shown` matches (the view counts them on its
        rendered text): that count is the one that holds from now on."""
        position = self._index.get(message_id)
        if not self._needle or position is None or self._shown.get(position) == shown:
            return
        self._shown[position] = shown
        self._place(position)
        if self._current is not None and self._current[0] == position:
            if shown > 0:
                self._current = (position, min(self._current[1], shown - 1))
            else:  # nothing of it shows after all: the next match instead
                self._current = None
                if self._hits:
                    following = bisect.bisect_left(self._hits, position) % len(self._hits)
                    self._current = (self._hits[following], 0)
                self.currentChanged.emit()
        elif self._current is None:
            self._choose_current()
        self.changed.emit()

    # --- the search ----------------------------------------------------------------

    def _stop(self) -> None:
        self._debounce.stop()
        self._stepper.stop()
        had = bool(self._needle)
        self._needle = ""
        self._clear_results()
        if had:
            self.matchesChanged.emit()
        self.changed.emit()

    def _clear_results(self) -> None:
        self._source.clear()
        self._shown.clear()
        self._hits.clear()
        self._dirty.clear()
        self._current = None

    def _start(self, anchor: int | None = None) -> None:
        """Search the query in the whole branch, from the anchor (the current match, else
        the message given with the query, else the end: a chat opens at its end)."""
        self._debounce.stop()
        self._stepper.stop()
        self._needle = needle(self._query)
        current = self._path[self._current[0]] if self._current is not None else ""
        self._read_branch()
        if anchor is None:
            anchor = self._index.get(current, self._index.get(self._anchor_id, len(self._path)))
        self._clear_results()
        self._anchor = max(0, min(anchor, len(self._path) - 1))
        self._scanned = 0
        self.matchesChanged.emit()
        self._step()

    def _read_branch(self) -> None:
        conversation_id = self._transcript.conversation_id
        if conversation_id != self._conversation_id:
            self._texts.clear()
            self._read.clear()
            self._conversation_id = conversation_id
        self._path = self._transcript.path_ids()
        self._index = {message_id: i for i, message_id in enumerate(self._path)}

    def _step(self) -> None:
        """Search messages until the step's time is used up, then yield to the event loop."""
        if not self._needle:
            return
        deadline = time.perf_counter() + STEP_BUDGET_S
        total = len(self._path)
        while self._scanned < total:
            position = self._position_at(self._scanned)
            if not self._known(self._path[position]):  # the next batch, in one read
                last = min(total, self._scanned + READ_BATCH)
                self._read_texts([self._position_at(scan) for scan in range(self._scanned, last)])
            self._search(position)
            self._scanned += 1
            if time.perf_counter() > deadline:
                break
        if self._current is None:
            self._choose_current()
        if self._scanned < total:
            self._stepper.start()
        self.changed.emit()

    def _position_at(self, scan: int) -> int:
        below = len(self._path) - self._anchor
        return self._anchor + scan if scan < below else self._anchor - 1 - (scan - below)

    def _known(self, message_id: str) -> bool:
        return message_id in self._texts or message_id in self._read

    def _read_texts(self, positions: list[int]) -> None:
        wanted = [self._path[p] for p in positions if not self._known(self._path[p])]
        if not wanted:
            return
        for message in self._transcript.read_messages(wanted):
            # Text before and after a tool call shows as separate paragraphs.
            text = "\n\n".join(p.text for p in message.parts if isinstance(p, TextPart))
            self._read[message.id] = (text, message.role is not Role.USER)
        for message_id in wanted:
            if not self._known(message_id):
                self._texts[message_id] = ""  # deleted meanwhile

    def _plain(self, message_id: str) -> str:
        """The message's text as `plain_text` gives it (made from what was read, once)."""
        read = self._read.pop(message_id, None)
        if read is not None:
            self._texts[message_id] = plain_text(read[0], markdown=read[1])
        return self._texts.get(message_id, "")

    def _search(self, position: int) -> None:
        text = self._plain(self._path[position])
        found = count(text, self._needle, case_sensitive=self._case_sensitive)
        if found:
            self._source[position] = found
        else:
            self._source.pop(position, None)
        self._place(position)

    def _count(self, position: int) -> int:
        shown = self._shown.get(position)
        return shown if shown is not None else self._source.get(position, 0)

    def _place(self, position: int) -> None:
        """Keep `_hits` in step with the position's count."""
        at = bisect.bisect_left(self._hits, position)
        listed = at < len(self._hits) and self._hits[at] == position
        if self._count(position) > 0 and not listed:
            self._hits.insert(at, position)
        elif self._count(position) == 0 and listed:
            del self._hits[at]

    def _choose_current(self) -> None:
        """The first match at or below the anchor, else the nearest above it, once the
        part of the branch that decides it has been searched."""
        below = len(self._path) - self._anchor
        first = bisect.bisect_left(self._hits, self._anchor)
        reached = self._anchor + min(self._scanned, below)
        if first < len(self._hits) and self._hits[first] < reached:
            self._current = (self._hits[first], 0)
        elif self._scanned >= below and first > 0:
            above = self._hits[first - 1]
            if above >= self._anchor - (self._scanned - below):
                self._current = (above, self._count(above) - 1)
        if self._current is not None:
            self.currentChanged.emit()

    def _move(self, step: int) -> None:
        """The next (+1) or previous (-1) match, wrapping at the ends of the branch."""
        if self.search_now() and self._current is not None:
            return  # the search just run has picked the match to go to
        self._refresh_dirty()
        if not self._hits:
            return
        if self._current is None:
            at = bisect.bisect_left(self._hits, self._anchor)
            if step < 0:
                at -= 1
            position = self._hits[at % len(self._hits)]
            self._current = (position, 0 if step > 0 else self._count(position) - 1)
        else:
            position, occurrence = self._current
            occurrence += step
            if not 0 <= occurrence < self._count(position):
                at = bisect.bisect_left(self._hits, position)
                listed = at < len(self._hits) and self._hits[at] == position
                at = at + 1 if step > 0 and listed else (at if step > 0 else at - 1)
                position = self._hits[at % len(self._hits)]
                occurrence = 0 if step > 0 else self._count(position) - 1
            self._current = (position, occurrence)
        self.currentChanged.emit()
        self.changed.emit()

    def _refresh_dirty(self) -> None:
        """Messages that changed since they were searched (a streamed answer) are
        searched again when the person moves on."""
        if not self._needle:
            self._dirty.clear()
            return
        dirty = sorted(p for p in self._dirty if p < len(self._path))
        self._dirty.clear()
        self._read_texts(dirty)
        for position in dirty:
            self._search(position)

    # --- the chat changing ---------------------------------------------------------

    def _on_reset(self, _items: list[MessageItem]) -> None:
        """Another chat, or another branch of this one: search it again; the same
        branch shown again (read further back, restyled): the matches stand."""
        switched = self._transcript.conversation_id != self._conversation_id
        if not self._needle:
            if switched:  # what was read of the last chat searched is let go
                self._texts.clear()
                self._read.clear()
                self._conversation_id = ""
            return
        if not switched and self._transcript.path_ids() == self._path:
            return
        anchor = None
        if switched:
            self._current = None
            anchor = len(self._transcript.path_ids()) - 1  # a chat opens at its end
        self._start(anchor)

    def _on_changed(self, item: MessageItem) -> None:
        """A message changed or was added: it is read and searched again on the next
        move (a streaming answer is not followed live: each update costs nothing here)."""
        if self._transcript.conversation_id != self._conversation_id:
            return
        self._texts.pop(item.id, None)
        self._read.pop(item.id, None)
        if not self._needle:
            return
        position = self._index.get(item.id)
        if position is None:  # a new message at the end of the branch
            position = self._index[item.id] = len(self._path)
            self._path.append(item.id)
        self._shown.pop(position, None)
        self._dirty.add(position)
