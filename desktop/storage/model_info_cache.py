"""What endpoints said about their models, kept in `model_info.json` in the data folder.

Asking costs requests (Ollama: one per model), so the answers are kept between runs and
asked again at most once a day. The file is only a cache: a missing, unreadable or
corrupt one is logged and read as empty, never shown to the person, and the next answer
rewrites it whole, atomically.

Answers belong to an endpoint (protocol and base URL), not to a provider entry: a
provider being added, or edited to point elsewhere, finds what its address said.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from desktop.core.capabilities import ReportedCapabilities
from desktop.storage.settings_file import write_text_atomically

log = logging.getLogger(__name__)

FILE_NAME = "model_info.json"
VERSION = 1
_FIELDS = {f.name: f for f in fields(ReportedCapabilities)}


@dataclass(frozen=True, slots=True)
class EndpointReport:
    """One endpoint's answer: when it was asked (`time.time()`) and what it said."""

    fetched_at: float
    models: Mapping[str, ReportedCapabilities]


def endpoint_key(kind: str, base_url: str) -> str:
    return f"{kind} {base_url.strip().rstrip('/')}"


class ModelInfoCache:
    """The file's contents in memory; `put` updates both."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._endpoints = _load(path)

    @property
    def path(self) -> Path:
        return self._path

    def get(self, kind: str, base_url: str) -> EndpointReport | None:
        return self._endpoints.get(endpoint_key(kind, base_url))

    def put(self, kind: str, base_url: str, report: EndpointReport) -> None:
        """Keep `report` for the endpoint; a file that cannot be written is logged and
        the answer still holds until quit."""
        self._endpoints[endpoint_key(kind, base_url)] = report
        try:
            write_text_atomically(self._path, _dumps(self._endpoints))
        except OSError as error:
            log.warning("Could not write %s: %s", self._path, error)


def _dumps(endpoints: Mapping[str, EndpointReport]) -> str:
    data = {
        "version": VERSION,
        "endpoints": {
            key: {
                "fetched_at": report.fetched_at,
                "models": {
                    model: {
                        name: value
                        for name in _FIELDS
                        if (value := getattr(caps, name)) is not None
                    }
                    for model, caps in sorted(report.models.items())
                },
            }
            for key, report in sorted(endpoints.items())
        },
    }
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def _load(path: Path) -> dict[str, EndpointReport]:
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as error:  # unreadable, not UTF-8, not JSON
        log.warning("Ignoring %s, it could not be read: %s", path, error)
        return {}
    endpoints = data.get("endpoints") if isinstance(data, dict) else None
    if not isinstance(endpoints, dict) or data.get("version") != VERSION:
        log.warning("Ignoring %s: not a model information file Parley can read", path)
        return {}
    loaded = {}
    for key, entry in endpoints.items():
        report = _report(entry)
        if report is None:
            log.warning("Ignoring the entry %r of %s: it is malformed", key, path)
        else:
            loaded[key] = report
    return loaded


def _report(entry: Any) -> EndpointReport | None:
    if not isinstance(entry, dict):
        return None
    fetched_at, models = entry.get("fetched_at"), entry.get("models")
    if not isinstance(fetched_at, int | float) or isinstance(fetched_at, bool):
        return None
    if not isinstance(models, dict):
        return None
    parsed = {}
    for model, values in models.items():
        caps = _capabilities(values)
        if caps is None:
            return None
        parsed[model] = caps
    return EndpointReport(float(fetched_at), parsed)


def _capabilities(values: Any) -> ReportedCapabilities | None:
    """Known fields of the right type (a field a later Parley added is skipped); a known
    field of the wrong type makes the entry malformed."""
    if not isinstance(values, dict):
        return None
    known = {name: value for name, value in values.items() if name in _FIELDS}
    for name, value in known.items():
        wanted = int if name == "context_length" else bool
        if type(value) is not wanted:
            return None
    return ReportedCapabilities(**known)
