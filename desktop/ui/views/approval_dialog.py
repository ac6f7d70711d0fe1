"""The approval dialog: every waiting tool call of one answer, and the person's say.

Shown with `show()`, not modal: the rest of Parley (Stop included) stays usable while
it is open. It follows its request: a call decided elsewhere is marked, and when the
request closes (every call decided, Stop, a new send) the dialog closes itself.
`ApprovalDialogs` keeps one dialog per open request, also for requests restored after
a restart, and brings one back when the chat's "Review tool calls" button asks.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFontDatabase, QGuiApplication, QTextOption
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from desktop.core.models import Decision
from desktop.engine.tools.approval import ApprovalRequest, PendingCall
from desktop.ui.viewmodels.approvals import ApprovalsViewModel, call_view
from desktop.ui.views.cut_bar import CutBar
from desktop.ui.views.labels import MarkupLabel, PlainLabel, escape
from desktop.ui.views.plain_text_view import PlainTextView


class CallPanel(QFrame):
    """One call: what it is, its complete arguments, and the four answers. Arguments too
    long to lay out show their start and end, with Copy all and Save as file… for all."""

    def __init__(
        self, vm: ApprovalsViewModel, message_id: str, call: PendingCall, parent: QWidget
    ) -> None:
        super().__init__(parent)
        self.setObjectName("ApprovalCall")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self._vm = vm
        self._message_id = message_id
        self.call = call
        self.view = view = call_view(call)
        self._decided = False
        self.title = MarkupLabel(f"<b>{escape(view.name)}</b>", self)
        self.facts = PlainLabel("", self)
        self.facts.setObjectName("MetaLabel")
        self.description = PlainLabel("", self)
        self.description.setWordWrap(True)
        self.arguments = PlainTextView(view.arguments, self)
        self.arguments.setObjectName("ApprovalArguments")
        # Long values wrap instead of running off to the side; a long call scrolls.
        self.arguments.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.arguments.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.arguments.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        line_height = self.arguments.fontMetrics().lineSpacing()
        self.arguments.setMinimumHeight(8 * line_height + 12)
        self.cut_bar = CutBar(self)
        self.cut_bar.set_note(view.cut_note)
        self.cut_bar.copyClicked.connect(self._copy_arguments)
        self.cut_bar.saveClicked.connect(self._save_arguments)
        self.saved = PlainLabel("", self)
        self.saved.setObjectName("MetaLabel")
        self.saved.setWordWrap(True)
        self.saved.hide()
        vm.argumentsSaved.connect(self._on_vm_arguments_saved)
        vm.saveFailed.connect(self._on_vm_save_failed)

        self.approve = QPushButton(self.tr("Approve once"), self)
        self.always = QPushButton(self.tr("Always allow this tool"), self)
        self.deny = QPushButton(self.tr("Deny"), self)
        self.answer_instead = QPushButton(self.tr("Answer instead…"), self)
        self.approve.clicked.connect(lambda: vm.approve_once(message_id, call.call_id))
        self.always.clicked.connect(lambda: vm.always_allow(message_id, call.call_id))
        self.deny.clicked.connect(lambda: vm.deny(message_id, call.call_id))
        self.answer_instead.clicked.connect(self._begin_answer)
        buttons = QHBoxLayout()
        for button in (self.approve, self.always, self.deny, self.answer_instead):
            buttons.addWidget(button)
        buttons.addStretch(1)

        self.answer_text = QLineEdit(self)
        self.answer_text.setPlaceholderText(self.tr("The result the model gets instead"))
        self.send_answer = QPushButton(self.tr("Send answer"), self)
        self.send_answer.clicked.connect(self._send_answer)
        self.answer_text.returnPressed.connect(self._send_answer)
        self.answer_row = QWidget(self)
        answer_layout = QHBoxLayout(self.answer_row)
        answer_layout.setContentsMargins(0, 0, 0, 0)
        answer_layout.addWidget(self.answer_text, 1)
        answer_layout.addWidget(self.send_answer)
        self.answer_row.hide()

        self.outcome = PlainLabel("", self)
        self.outcome.setObjectName("StatusLabel")
        self.outcome.hide()

        layout = QVBoxLayout(self)
        for widget in (self.title, self.facts, self.description):
            layout.addWidget(widget)
        layout.addWidget(self.arguments, 1)
        layout.addWidget(self.cut_bar)
        layout.addWidget(self.saved)
        layout.addLayout(buttons)
        layout.addWidget(self.answer_row)
        layout.addWidget(self.outcome)
        self.show_call(call)

    def show_call(self, call: PendingCall) -> None:
        """What is known of the call's tool (more, once its server is up)."""
        self.call = call
        self.view = view = call_view(call)
        self.facts.setText(view.facts)
        self.description.setText(view.about)
        self.description.setVisible(bool(view.about))
        self._update_buttons()

    def _update_buttons(self) -> None:
        for button in (self.approve, self.deny, self.answer_instead):
            button.setEnabled(not self._decided)
        self.always.setEnabled(not self._decided and self.view.can_always_allow)
        self.always.setToolTip(self.view.always_allow_tip)

    def _copy_arguments(self) -> None:
        QGuiApplication.clipboard().setText(self.call.arguments)

    def _save_arguments(self) -> None:
        """Ask where, then have the view-model write the arguments there."""
        name = self.tr("arguments.json")
        dialog = QFileDialog(self.window(), self.tr("Save Arguments"), str(Path.home() / name))
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        message_id, call_id = self._message_id, self.call.call_id
        dialog.fileSelected.connect(lambda path: self._vm.save_arguments(message_id, call_id, path))
        dialog.open()

    def _mine(self, message_id: str, call_id: str) -> bool:
        return (message_id, call_id) == (self._message_id, self.call.call_id)

    def _on_vm_arguments_saved(self, message_id: str, call_id: str, path: str) -> None:
        if self._mine(message_id, call_id):
            self._say(self.tr("Saved to %1").replace("%1", path))

    def _on_vm_save_failed(self, message_id: str, call_id: str, reason: str) -> None:
        if self._mine(message_id, call_id):
            self._say(reason)

    def _say(self, text: str) -> None:
        self.saved.setText(text)
        self.saved.show()

    def _begin_answer(self) -> None:
        self.answer_row.show()
        self.answer_text.setFocus()

    def _send_answer(self) -> None:
        self._vm.answer(self._message_id, self.call.call_id, self.answer_text.text())

    def show_decision(self, decision: Decision | None) -> None:
        decided = self._decided = decision is not None
        self._update_buttons()
        self.answer_row.setEnabled(not decided)
        self.outcome.setVisible(decided)
        if decision is not None:
            self.outcome.setText(
                {
                    Decision.APPROVED_ONCE: self.tr("Approved once"),
                    Decision.ALWAYS_ALLOWED: self.tr("Always allowed"),
                    Decision.DENIED: self.tr("Denied"),
                    Decision.ANSWERED: self.tr("Answered instead"),
                }.get(decision, decision.value)
            )


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
        self.resize(640, 520)
        intro = PlainLabel(
            self.tr("The model wants to use tools. Nothing runs until you decide."), self
        )
        intro.setWordWrap(True)
        body = QWidget()
        column = QVBoxLayout(body)
        self.panels = [CallPanel(vm, request.message_id, call, body) for call in request.calls]
        for panel in self.panels:
            column.addWidget(panel, 1 if count == 1 else 0)
        if count > 1:
            column.addStretch(1)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)
        self.approve_all = QPushButton(self.tr("Approve all once"), self)
        self.deny_all = QPushButton(self.tr("Deny all"), self)
        self.approve_all.clicked.connect(lambda: self._all(vm.approve_once))
        self.deny_all.clicked.connect(lambda: self._all(vm.deny))
        self.later = QPushButton(self.tr("Decide later"), self)
        self.later.clicked.connect(self.close)
        footer = QHBoxLayout()
        if count > 1:
            footer.addWidget(self.approve_all)
            footer.addWidget(self.deny_all)
        else:
            self.approve_all.hide()
            self.deny_all.hide()
        footer.addStretch(1)
        footer.addWidget(self.later)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(scroll, 1)
        layout.addLayout(footer)
        self.refresh()

    def panel(self, call_id: str) -> CallPanel:
        return next(p for p in self.panels if p.call.call_id == call_id)

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
