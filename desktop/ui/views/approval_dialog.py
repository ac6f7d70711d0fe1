"""The approval dialog: every waiting tool call of one answer, and the person's say.

Each call says first what allowing it does — the command line and the folder it runs
in, the file and its change, the address read (see `approval_preview`) — then the
tool, where it comes from and its risk on a coloured badge; the arguments as written
are one click away, with Copy all and Save as file…. There is one primary answer:
Deny for a tool that may change or run something (and for one Parley does not know),
Allow once for one that only reads; it has the focus, so Enter gives it. The dialog is
as large as what it shows, within 60 % of the screen's width and 70 % of its height;
a longer preview scrolls inside its box.

Shown with `show()`, not modal: the rest of Parley (Stop included) stays usable while
it is open. It follows its request: a call decided elsewhere is marked, and when the
request closes (every call decided, Stop, a new send) the dialog closes itself.
`ApprovalDialogs` keeps one dialog per open request, also for requests restored after
a restart, and brings one back when the chat's "Review tool calls" button asks.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QSize, Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QFrame,
    QHBoxLayout,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from desktop.engine.tools.approval import ApprovalRequest
from desktop.ui.viewmodels.approvals import ApprovalsViewModel
from desktop.ui.views.approval_call_panel import CallPanel, wrapped
from desktop.ui.views.approval_preview_box import primary_style

WIDTH_SHARE = 0.6  # of the screen's available width, at most
HEIGHT_SHARE = 0.7  # of its height
MIN_WIDTH = 460
PREVIEW_SHARE = 0.5  # of the dialog's largest height, for one call's preview box


class _FittedScroll(QScrollArea):
    """A scroll area that asks for the size of what it holds (Qt's asks for a fixed
    share of the font's height, whatever it holds)."""

    def __init__(self, inner: QWidget, parent: QWidget) -> None:
        super().__init__(parent)
        self.inner = inner
        self.setWidgetResizable(True)
        self.setWidget(inner)

    def sizeHint(self) -> QSize:
        frame = 2 * self.frameWidth()
        return self.inner.sizeHint() + QSize(frame, frame)

    def hasHeightForWidth(self) -> bool:
        return self.inner.hasHeightForWidth()

    def heightForWidth(self, width: int) -> int:
        frame = 2 * self.frameWidth()
        return self.inner.heightForWidth(width - frame) + frame


class ApprovalDialog(QDialog):
    def __init__(
        self, vm: ApprovalsViewModel, request: ApprovalRequest, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("ApprovalDialog")
        self.setModal(False)
        self.setWindowModality(Qt.WindowModality.NonModal)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self._vm = vm
        self.request = request
        count = len(request.calls)
        self.setWindowTitle(self.tr("Allow %n tool call(s)?", "", count))
        body = QWidget()
        self._column = column = QVBoxLayout(body)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(10)
        self.panels = [
            CallPanel(vm, request.message_id, call, body, framed=count > 1)
            for call in request.calls
        ]
        for panel in self.panels:
            column.addWidget(panel, 1 if count == 1 else 0)
            panel.on_answering = self._choose_default
            panel.on_grown = self.grow_to_content
        if count > 1:
            column.addStretch(1)
        self.scroll_area = _FittedScroll(body, self)
        self.scroll_area.setObjectName("ApprovalScroll")
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.approve_all = QPushButton(self.tr("Allow all once"), self)
        self.deny_all = QPushButton(self.tr("Deny all"), self)
        self.approve_all.clicked.connect(lambda: self._all(vm.approve_once))
        self.deny_all.clicked.connect(lambda: self._all(vm.deny))
        self.later = QPushButton(self.tr("Decide later"), self)
        self.later.clicked.connect(self.close)
        self._layout = layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 14, 16, 14)
        if count > 1:
            intro = wrapped(
                self.tr("The model wants to use tools. Nothing runs until you decide."), self
            )
            layout.addWidget(intro)
        layout.addWidget(self.scroll_area, 1)
        if count > 1:
            footer = QHBoxLayout()
            footer.addWidget(self.later)
            footer.addStretch(1)
            footer.addWidget(self.deny_all)
            footer.addWidget(self.approve_all)
            layout.addLayout(footer)
        else:  # one call: its answers and "Decide later" share one row
            self.approve_all.hide()
            self.deny_all.hide()
            self.panels[0].buttons.insertWidget(0, self.later)
        self._primary: QPushButton | None = None
        self._fitted = QSize()
        self.refresh()
        self.fit_to_content()

    def panel(self, call_id: str) -> CallPanel:
        return next(p for p in self.panels if p.call.call_id == call_id)

    @property
    def primary(self) -> QPushButton:
        """The one button Enter presses: a call's answer to it, Deny (all) when anything
        may change or run, else Allow (all) once; Send answer while one is written."""
        answering = next((p for p in self.panels if p.answering), None)
        if answering is not None:
            return answering.send_answer
        if len(self.panels) == 1:
            return self.panels[0].primary
        risky = any(p.view.risky for p in self.panels)
        return self.deny_all if risky else self.approve_all

    def _choose_default(self) -> None:
        primary = self.primary
        if primary is self._primary:
            return
        if self._primary is not None:
            self._primary.setStyleSheet("")
        self._primary = primary
        primary.setDefault(True)
        primary.setStyleSheet(primary_style(self))
        if not any(p.answering for p in self.panels):  # else the answer has the focus
            primary.setFocus()

    def _all(self, decide: object) -> None:
        ids = [c.call_id for c in self.request.undecided()]
        if ids and callable(decide):
            decide(self.request.message_id, *ids)

    def refresh(self) -> None:
        answers = self.request.answers
        calls = {c.call_id: c for c in self.request.calls}
        for panel in self.panels:
            call = calls.get(panel.call.call_id, panel.call)
            if call != panel.call:
                panel.show_call(call)
            answer = answers.get(panel.call.call_id)
            panel.show_decision(answer.decision if answer else None)
        self._choose_default()

    # --- size -----------------------------------------------------------------------

    def _available(self) -> QSize:
        parent = self.parentWidget()
        screen = (parent.screen() if parent is not None else None) or self.screen()
        area = (screen or QGuiApplication.primaryScreen()).availableGeometry()
        return QSize(int(area.width() * WIDTH_SHARE), int(area.height() * HEIGHT_SHARE))

    def _wanted(self) -> QSize:
        """The size that shows everything, within the screen's share."""
        most = self._available()
        self.ensurePolished()  # style sheets' paddings and borders count, before a show
        for box in (p.preview for p in self.panels if not p.preview.isHidden()):
            box.set_hint(QSize(min(box.text_width(), most.width()), box.sizeHint().height()))
        self._settle()
        hint = self.sizeHint()
        margins = self._layout.contentsMargins()
        outside = margins.left() + margins.right() + 2 * self.scroll_area.frameWidth()
        least = max(MIN_WIDTH, self.scroll_area.inner.minimumSizeHint().width() + outside)
        width = max(least, min(hint.width(), most.width()))  # the buttons always fit
        # Each box gets what the dialog's width leaves it; then as tall as its text.
        share = PREVIEW_SHARE if len(self.panels) == 1 else PREVIEW_SHARE / 2
        for panel in self.panels:
            box = panel.preview
            if box.isHidden():
                continue
            room = width - outside - panel.chrome_width()
            height = min(box.height_for(room), int(most.height() * share))
            box.set_hint(QSize(room, max(height, box.minimumSizeHint().height())))
        self._settle()
        layout = self._layout
        height = (
            layout.totalHeightForWidth(width)
            if layout.hasHeightForWidth()
            else self.sizeHint().height()
        )
        if height > most.height():  # it scrolls: room for the scroll bar, not sideways
            width += self.scroll_area.verticalScrollBar().sizeHint().width()
        return QSize(width, min(height, most.height()))

    def _settle(self) -> None:
        """Size hints as they are now, not as Qt will have them after its next layout
        pass (a hidden dialog's layouts are only marked for one)."""
        for panel in self.panels:
            panel.settle()
        self._column.activate()
        self.scroll_area.updateGeometry()
        self._layout.invalidate()
        self._layout.activate()

    def fit_to_content(self) -> None:
        self._fitted = self._wanted()
        self.resize(self._fitted)

    def grow_to_content(self) -> None:
        """Fitted again when what is shown changed (arguments opened, a diff arrived);
        once the person has resized the dialog, only ever larger."""
        if self.size() == self._fitted:
            self.fit_to_content()
            return
        wanted = self._wanted()
        self.resize(max(self.width(), wanted.width()), max(self.height(), wanted.height()))

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.StyleChange):
            for panel in getattr(self, "panels", []):
                panel.restyle()
            primary = getattr(self, "_primary", None)
            if primary is not None:
                primary.setStyleSheet(primary_style(self))
            if getattr(self, "_fitted", None) is not None:  # the new theme's sizes
                QTimer.singleShot(0, self.grow_to_content)


class ApprovalDialogs:
    """One dialog per open request; closed ones go away, restored ones appear."""

    def __init__(self, vm: ApprovalsViewModel, parent: QWidget) -> None:
        self._vm = vm
        self._parent = parent
        self._dialogs: dict[str, ApprovalDialog] = {}
        self._dismissed: set[str] = set()  # "Decide later": shown again from the chat
        # Where a new dialog goes instead of `parent` (the always-on-top floating chat,
        # when the person works there), so it is not hidden behind that window.
        self.host: Callable[[], QWidget | None] = lambda: None
        vm.changed.connect(self.sync)
        vm.revealRequested.connect(self.reveal)
        # Requests restored after a restart: shown once the window is up, over it.
        QTimer.singleShot(0, self.sync)

    def dialog(self, message_id: str) -> ApprovalDialog | None:
        return self._dialogs.get(message_id)

    @property
    def dialogs(self) -> list[ApprovalDialog]:
        return list(self._dialogs.values())

    def sync(self) -> None:
        open_requests = {r.message_id: r for r in self._vm.requests()}
        for message_id, dialog in list(self._dialogs.items()):
            request = open_requests.get(message_id)
            if request is None or request is not dialog.request:
                self._forget(message_id)
                dialog.close()
            else:
                dialog.refresh()
        self._dismissed &= set(open_requests)
        for message_id, request in open_requests.items():
            if message_id not in self._dialogs and message_id not in self._dismissed:
                self._show(request)

    def reveal(self, message_id: str) -> None:
        self._dismissed.discard(message_id)
        dialog = self._dialogs.get(message_id)
        if dialog is not None:
            dialog.raise_()
            dialog.activateWindow()
            return
        request = self._vm.request(message_id)
        if request is not None:
            self._show(request)

    def _show(self, request: ApprovalRequest) -> None:
        dialog = ApprovalDialog(self._vm, request, self.host() or self._parent)
        self._dialogs[request.message_id] = dialog
        dialog.finished.connect(lambda _r, mid=request.message_id: self._closed_by_person(mid))
        dialog.show()

    def _closed_by_person(self, message_id: str) -> None:
        if self._dialogs.pop(message_id, None) is not None:
            self._dismissed.add(message_id)

    def _forget(self, message_id: str) -> None:
        self._dialogs.pop(message_id, None)
