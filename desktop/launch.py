"""The `parley` command (and `python main.py`): what must happen before Qt is loaded.

A bundled Parley's OCR worker and formula typesetter are this same executable started
with `--ocr-worker` or `--maths-worker`; neither needs Qt. Otherwise, on Linux where Qt
would open an X11 window, the system libraries Qt's xcb plugin needs are checked first
(`ui/qt_libraries.py`): when some are missing, Parley names them and the command that
installs them, on the terminal, in the log and as a desktop notification (whoever
double-clicked Parley sees no terminal), and exits with status 1 instead of letting Qt
abort. Then `app.main` starts Parley.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys

from desktop.cli import parse_args
from desktop.core import collector
from desktop.core.child_command import MATHS_WORKER_FLAG, OCR_WORKER_FLAG
from desktop.core.paths import DataPaths, resolve_data_dir
from desktop.storage.log_files import configure_logging
from desktop.ui.qt_libraries import startup_problem

log = logging.getLogger("parley")

NOTIFICATION_TIMEOUT_S = 5.0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == [OCR_WORKER_FLAG]:
        from desktop.engine.ocr.worker import main as ocr_worker

        ocr_worker(argv[1:])
        return 0
    if argv[:1] == [MATHS_WORKER_FLAG]:
        from desktop.render.tex_worker import main as maths_worker

        maths_worker()
        return 0
    args = parse_args(argv)  # --help and --version end here, without Qt
    problem = startup_problem(os.environ, argv)
    if problem is not None:
        report(problem, args.data_dir)
        return 1
    from desktop.ui.pyside_sources import skip_source_scan  # only now: it loads Qt

    skip_source_scan()
    collector.pause_for_start_up()  # `app` resumes it once the window is built
    from desktop.app import main as start

    status = start(argv)
    collector.skip_final_collections()
    return status


def report(problem: str, data_dir: str | None) -> None:
    """Tell the person by every way there is without Qt: the terminal, the log, and a
    desktop notification."""
    print(problem, file=sys.stderr)
    try:
        configure_logging(DataPaths(resolve_data_dir(data_dir)).log_file)
        log.error("%s", problem)
    except OSError:  # no usable data folder: the terminal has it
        pass
    if not _session_bus():
        return
    # desktop-notifier logs a traceback of its own when the bus has no notification
    # service; whether it worked is logged here.
    logging.getLogger("desktop_notifier").setLevel(logging.CRITICAL)
    try:
        shown = asyncio.run(_notify(problem))
    except Exception:
        shown = False
    log.info("the problem %s shown as a notification", "was" if shown else "could not be")


def _session_bus() -> bool:
    """Whether a D-Bus session bus runs (where desktop notifications are delivered)."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    return bool(os.environ.get("DBUS_SESSION_BUS_ADDRESS")) or bool(
        runtime and os.path.exists(os.path.join(runtime, "bus"))
    )


async def _notify(problem: str) -> bool:
    from desktop.engine.notices import Notice
    from desktop.engine.notify import Notifier

    notifier = Notifier(lambda _conversation_id: None)
    try:
        notice = Notice("", "Parley cannot start", problem)
        return await asyncio.wait_for(notifier.send_now(notice), NOTIFICATION_TIMEOUT_S)
    finally:
        await notifier.aclose()
