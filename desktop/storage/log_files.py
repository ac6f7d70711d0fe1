"""The rotating log file in the data folder.

Logs carry ids, timings and error kinds, never message text or keys; a redacting
filter on the handler is the second line of defence for keys.
"""

from __future__ import annotations

import logging
import logging.handlers
import sys
from pathlib import Path

LOG_FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"
MAX_BYTES = 1_000_000
BACKUPS = 3


class _LogFile(logging.handlers.RotatingFileHandler):
    """A log write that fails (a full disk) never disturbs Parley, and is said once on
    stderr instead of with a traceback per record; logging resumes once it fits."""

    _reported = False

    def handleError(self, record: logging.LogRecord) -> None:
        error = sys.exc_info()[1]
        if not isinstance(error, OSError):
            super().handleError(record)  # a bug in a log call: say it as loudly as ever
        elif not self._reported:
            self._reported = True
            print(f"Parley cannot write its log {self.baseFilename} ({error})", file=sys.stderr)


def configure_logging(log_file: Path, *filters: logging.Filter, level: int = logging.INFO) -> None:
    """Send Parley's log records to `log_file` (rotated at about 1 MB, 3 backups)."""
    log_file.parent.mkdir(parents=True, exist_ok=True)
    handler = _LogFile(log_file, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8")
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    for log_filter in filters:
        handler.addFilter(log_filter)
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "_parley", False)]:
        root.removeHandler(old)
        old.close()
    handler._parley = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level)
    # httpx logs every request URL at INFO; keep it to warnings.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("httpcore").setLevel(logging.WARNING)
