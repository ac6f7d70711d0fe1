"""When Parley lets the garbage collector run: not while starting, not while leaving.

Start-up imports some 700 modules and builds the window: objects that live as long as
the app. The collector, run as they are allocated, walked that growing heap about 180
times, 40-60 ms of a start. So it is paused until the window is built, and then the
heap is frozen (full collections of it cost 35-65 ms frames while an answer streams)
and the collector resumes for what comes after. The few hundred objects of cyclic
garbage that start-up leaves (import machinery, mostly) are frozen with the rest: a
collection to find them would cost 50 ms to win back tens of kilobytes. When the first
answer of a run starts, its warm-up loads the Markdown parser and the common lexers
(more long-lived objects); after it, one collection and a second freeze. What is alive
then and only later becomes cyclic garbage (a part of that first answer's request) is
never collected: a one-time few kilobytes, against a full pass of those objects in every
full collection for the rest of the run.

Automatic collections are also held off while the formula typesetter works
(`hold`/`release`): a collection runs in whichever thread allocates past the threshold,
and the typesetter's thread allocates the most. A collection there finalises whatever
cyclic garbage exists, Qt objects of the window included, and a QObject deleted in a
thread not its own stops its timers there (Qt warns) or crashes. While held, the
typesetter has the GUI thread collect its young garbage as results come in (about 950
cyclic objects a formula).

When the interpreter shuts down it runs full collections over every object still alive:
about 100 ms between the window closing and the process ending, looking for cycles whose
memory the operating system takes back anyway. Everything that must be written (the
database, settings, window state) has been closed or flushed explicitly by then, and
`logging` flushes its handlers at exit whatever the collector does.
"""

from __future__ import annotations

import gc
import threading


class _Holds:
    """How many `hold`s are in force, and whether the collector ran before the first."""

    __slots__ = ("count", "enabled_before")

    def __init__(self) -> None:
        self.count = 0
        self.enabled_before = False


_holds = _Holds()
_holding = threading.Lock()


def pause_for_start_up() -> None:
    """No collections until `started`: call it before the app's modules are imported."""
    gc.disable()


def started() -> None:
    """The app is built: keep the collector off what exists now, and let it run again
    (once any `hold` begun meanwhile, a formula of the first chat, is released)."""
    gc.freeze()
    with _holding:
        if _holds.count:
            _holds.enabled_before = True
        else:
            gc.enable()


def hold() -> None:
    """No automatic collection until every `hold` is released (they nest); a pause
    already in force when the first one begins is left as it is."""
    with _holding:
        if not _holds.count:
            _holds.enabled_before = gc.isenabled()
            gc.disable()
        _holds.count += 1


def holding() -> int:
    """How many `hold`s are in force (tests check that each one is released)."""
    with _holding:
        return _holds.count


def release() -> None:
    with _holding:
        _holds.count -= 1
        if not _holds.count and _holds.enabled_before:
            gc.enable()


def warmed_up() -> None:
    """The first answer's warm-up (the Markdown parser, the common lexers and styles) is
    done: what it loaded lives as long as the app too. One collection of what was made
    since start-up (a few milliseconds: the start-up heap is frozen), then that is frozen
    as well, so the full collections while answers stream walk only what they make."""
    gc.collect()
    gc.freeze()


def skip_final_collections() -> None:
    """Make the shutdown's collections pass over every object alive now.

    Call it only when the process is about to end: frozen objects are never collected.
    Objects freed by reference counting still are, so files and sockets that are not in
    a reference cycle close as usual.
    """
    gc.freeze()
