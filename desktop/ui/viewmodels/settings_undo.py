"""Undo for the Settings window, where every change is saved as it is made.

The Settings window has no Save button: a change is written at once
(`SettingsService.save`, the one path to the settings file) and can be undone from the
bar at the bottom of the window or with Ctrl+Z. A view-model of a settings page saves
through `SettingsUndo.save`, or wraps its own call to the service in `recording()`;
either way the history learns which fields that save changed, before and after.

Undo puts back only those fields, onto the settings as they are now: a change made
meanwhile elsewhere (the composer remembering the last model) stays. Changes made
outside a recording (anything not from the Settings window) are not recorded.

Keys and passwords live in the keyring, apart from the settings file, and are not part
of undo: a key stored or removed stays stored or removed. Announce such a change with
`note()` so the bar still says it was saved.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal, Slot

from desktop.core.errors import ParleyError
from desktop.core.settings import Settings
from desktop.core.settings_changes import FieldChange, changed_fields, merged, put_back
from desktop.engine.settings_service import SettingsService
from desktop.ui.viewmodels.properties import read_only
from desktop.ui.viewmodels.settings_change_names import describe

# Quick changes to the same field (a text field saved on each Enter, a spin box on each
# step) within this many seconds of the previous one make one undo step.
COALESCE_S = 20.0
MAX_STEPS = 100


@dataclass(slots=True)
class _Step:
    label: str  # what the bar says, e.g. "Theme changed"
    changes: tuple[FieldChange, ...]
    at: float
    coalesce: bool


@dataclass(slots=True)
class _Scope:
    label: str
    coalesce: bool
    fields: frozenset[str] | None
    step: _Step | None = None  # the step this scope's first save made


class SettingsUndo(QObject):
    saved = Signal(str)  # a recorded change: what it was ("Theme changed")
    noted = Signal(str)  # saved, but not undoable (a key stored in the keyring)
    undone = Signal(str)  # what was put back
    failed = Signal(str)  # a save or an undo that could not be written, and why
    canUndoChanged = Signal(bool)

    def __init__(
        self,
        service: SettingsService,
        parent: QObject | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        coalesce_seconds: float = COALESCE_S,
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._clock = clock
        self._coalesce_seconds = coalesce_seconds
        self._last = service.settings  # what the previous save left
        self._steps: list[_Step] = []
        self._scopes: list[_Scope] = []
        self._undoing = False
        service.changed.subscribe(self._on_settings_changed)

    # --- state ------------------------------------------------------------------------

    def _get_can_undo(self) -> bool:
        return bool(self._steps)

    canUndo = read_only(bool, _get_can_undo, notify=canUndoChanged)

    @property
    def next_undo(self) -> str:
        """What Undo would put back ("Theme changed"), or "" when nothing."""
        return self._steps[-1].label if self._steps else ""

    # --- recording ----------------------------------------------------------------------

    @contextmanager
    def recording(
        self,
        label: str = "",
        *,
        coalesce: bool = False,
        fields: Collection[str] | None = None,
    ) -> Iterator[None]:
        """Record the saves made inside as one undo step. `label` is what the bar says
        (by default the changed fields are named: "Theme changed"). `coalesce`: a text
        field or a spin box, whose quick successive saves of the same field merge into
        one step. `fields` (top-level `Settings` field names) limits what is recorded,
        for a scope that awaits: a save made meanwhile by someone else is not taken
        for this one."""
        scope = _Scope(label, coalesce, frozenset(fields) if fields is not None else None)
        self._scopes.append(scope)
        try:
            yield
        finally:
            self._scopes.remove(scope)

    def save(self, settings: Settings, label: str = "", *, coalesce: bool = False) -> bool:
        """Save `settings` as a change from the Settings window; False (and `failed`)
        when the file cannot be written. A SettingsError from the service (network
        settings that cannot work) is left to the caller, who knows the field."""
        if settings == self._service.settings:
            return True
        with self.recording(label, coalesce=coalesce):
            try:
                self._service.save(settings)
            except OSError as error:
                self.report_failure(error)
                return False
        return True

    def note(self, text: str) -> None:
        """Something saved outside the settings file (a key in the keyring): said in
        the bar, with no undo."""
        self.noted.emit(text)

    def report_failure(self, error: Exception | str) -> None:
        """A change from the Settings window that could not be saved."""
        text = str(error)
        if isinstance(error, OSError):
            text = self.tr("Could not save settings: %1").replace("%1", text)
        self.failed.emit(text)

    # --- undo -----------------------------------------------------------------------------

    @Slot()
    def undo(self) -> None:
        """Put back the fields the last recorded change changed."""
        if not self._steps:
            return
        step = self._steps[-1]
        current = self._service.settings
        restored = put_back(current, step.changes)
        if restored != current:
            self._undoing = True
            try:
                self._service.save(restored)
            except (OSError, ParleyError) as error:
                self.report_failure(error)
                return
            finally:
                self._undoing = False
        self._steps.pop()
        self.undone.emit(step.label)
        if not self._steps:
            self.canUndoChanged.emit(False)

    # --- what each save changed -------------------------------------------------------------

    def _on_settings_changed(self, settings: Settings) -> None:
        before, self._last = self._last, settings
        if self._undoing or not self._scopes:
            return
        scope = self._scopes[-1]
        changes = changed_fields(before, settings)
        if scope.fields is not None:
            changes = tuple(c for c in changes if c.path[0] in scope.fields)
        if changes:
            self._record(scope, changes)

    def _record(self, scope: _Scope, changes: tuple[FieldChange, ...]) -> None:
        now = self._clock()
        top = self._steps[-1] if self._steps else None
        if top is not None and (top is scope.step or self._merges(top, scope, changes, now)):
            top.changes = merged(top.changes, changes)
            top.at = now
            if not top.changes:  # back where it started: nothing left to undo
                self._steps.pop()
                scope.step = None
                self.saved.emit(scope.label or describe(c.path for c in changes))
                if not self._steps:
                    self.canUndoChanged.emit(False)
                return
            top.label = scope.label or describe(c.path for c in top.changes)
        else:
            top = _Step(
                scope.label or describe(c.path for c in changes), changes, now, scope.coalesce
            )
            self._steps.append(top)
            del self._steps[:-MAX_STEPS]
            if len(self._steps) == 1:
                self.canUndoChanged.emit(True)
        scope.step = top
        self.saved.emit(top.label)

    def _merges(
        self, top: _Step, scope: _Scope, changes: tuple[FieldChange, ...], now: float
    ) -> bool:
        """A quick repeat of the same field's change (typing, a spin box's steps)."""
        return (
            scope.coalesce
            and top.coalesce
            and {c.path for c in top.changes} == {c.path for c in changes}
            and now - top.at <= self._coalesce_seconds
        )
