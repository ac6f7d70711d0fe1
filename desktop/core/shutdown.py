"""Leave quickly once everything is closed and saved.

When the interpreter shuts down it runs full garbage collections over every object still
alive: for Parley's heap that is about 100 ms between the window closing and the process
ending, spent looking for cycles whose memory the operating system takes back anyway.
Everything that must be written (the database, settings, window state, logs) has been
closed or flushed explicitly by then, and `logging` flushes its handlers at exit
whatever the collector does, so nothing is lost by letting the objects be.
"""

from __future__ import annotations

import gc


def skip_final_collections() -> None:
    """Make the shutdown's collections pass over every object alive now.

    Call it only when the process is about to end: frozen objects are never collected.
    Objects freed by reference counting still are, so files and sockets that are not in
    a reference cycle close as usual.
    """
    gc.freeze()
