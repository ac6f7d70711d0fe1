"""The approval dialog: every waiting tool call of one answer, and the person's say.

Shown with `show()`, not modal: the rest of Parley (Stop included) stays usable while
it is open. It follows its request: a call decided elsewhere is marked, and when the
request closes (every call decided, Stop, a new send) the dialog closes itself.
`ApprovalDialogs` keeps one dialog per open request, also for requests restored after
a restart, and brings one back when the chat's "Review tool calls" button asks.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFontDatabase, QTextOption
from PySide6.QtWidgets import (
    QDialog,
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
from desktop.core.tools import BUILTIN_SOURCE, ToolRisk
from desktop.engine.tools.approval import ApprovalRequest, PendingCall
from desktop.ui.viewmodels.approvals import ApprovalsViewModel, arguments_text
from desktop.ui.views.labels import MarkupLabel, PlainLabel, escape
from desktop.ui.views.plain_text_view import PlainTextView


def _risk_text(widget: QWidget, risk: ToolRisk | None) -> str:
    """A tool not known (yet) is worded as the worst it could be."""
    if risk is None:
        return widget.tr("may change files or run commands")
    return {
        ToolRisk.READ: widget.tr("reads only"),
        ToolRisk.WRITE: widget.tr("changes files"),
        ToolRisk.SHELL: widget.tr("runs commands"),
    }[risk]


def _source_text(widget: QWidget, source: str) -> str:
    if source == BUILTIN_SOURCE:
        return widget.tr("built-in")
    if not source:
        return widget.tr("unknown")
    return widget.tr("MCP server “%1”").replace("%1", source)


def _about_text(widget: QWidget, call: PendingCall) -> str:
    if call.known:
        return call.description
    if call.source:
        return widget.tr(
            "Parley does not know this tool's description yet: its server has not started. "
            "It is shown here as soon as the server is up."
        )
    return widget.tr("Parley does not know this tool.")


class CallPanel(QFrame):
    """One call: what it is, its complete arguments, and the four answers."""

    def __init__(
        self, vm: ApprovalsViewModel, message_id: str, call: PendingCall, parent: QWidget
    ) -> None:
        super().__init__(parent)
        self.setObjectName("ApprovalCall")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self._vm = vm
        self._message_id = message_id
        self.call = call
        self._decided = False
        self.title = MarkupLabel(f"<b>{escape(call.name)}</b>", self)
        self.facts = PlainLabel("", self)
        self.facts.setObjectName("MetaLabel")
        self.description = PlainLabel("", self)
        self.description.setWordWrap(True)
        self.arguments = PlainTextView(arguments_text(call), self)
        self.arguments.setObjectName("ApprovalArguments")
        # Long values wrap instead of running off to the side; a long call scrolls.
        self.arguments.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.arguments.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.arguments.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        line_height = self.arguments.fontMetrics().lineSpacing()
        self.arguments.setMinimumHeight(8 * line_height + 12)

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
        layout.addLayout(buttons)
        layout.addWidget(self.answer_row)
        layout.addWidget(self.outcome)
        self.show_call(call)

    def show_call(self, call: PendingCall) -> None:
        """What is known of the call's tool (more, once its server is up)."""
        self.call = call
        self.facts.setText(
            self.tr("Source: %1 · Risk: %2")
            .replace("%1", _source_text(self, call.source))
            .replace("%2", _risk_text(self, call.risk))
        )
        self.description.setText(_about_text(self, call))
        self.description.setVisible(bool(self.description.text()))
        self._update_buttons()

    def _update_buttons(self) -> None:
        for button in (self.approve, self.deny, self.answer_instead):
            button.setEnabled(not self._decided)
        # A grant is bound to the tool as the person saw it: not for an unknown one.
        self.always.setEnabled(not self._decided and self.call.known)
        self.always.setToolTip(
            "" if self.call.known else self.tr("Possible once Parley knows what this tool is")
        )

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
        self.setWindowTitle(
            self.tr("Allow tool calls?") if count > 1 else self.tr("Allow a tool call?")
        )
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
