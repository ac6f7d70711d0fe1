"""Keeps what a list view shows in place while its model changes above it.

A list view keeps its scroll bar's value when rows are inserted, removed or moved, so
a row arriving above the viewport pushes every visible row down by one (and a row
leaving pulls them up). The sidebar changes one conversation at a time while the
person reads further down; they should not see the list jump. So the first visible
row is held as the anchor and scrolled back to the top of the viewport after each
change. A view scrolled to the very top stays there, so a new row at the top is seen.

The anchor gives the view its model itself: Qt calls slots in the order they were
connected, and the anchor must read the first visible row before the view's handlers
throw the layout away, and restore it after they have taken the change in.
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, QPersistentModelIndex, QPoint
from PySide6.QtWidgets import QAbstractItemView


class ScrollAnchor(QObject):
    def __init__(self, view: QAbstractItemView, model: QAbstractItemModel) -> None:
        super().__init__(view)
        self._view = view
        self._model = model
        self._anchor = QPersistentModelIndex()
        self._offset = 0
        # Methods, not lambdas: Qt drops these connections when the view goes away.
        model.rowsAboutToBeInserted.connect(self._before_insert)
        model.rowsAboutToBeRemoved.connect(self._before_remove)
        model.rowsAboutToBeMoved.connect(self._before_move)
        view.setModel(model)
        model.rowsInserted.connect(self._restore)
        model.rowsRemoved.connect(self._restore)
        model.rowsMoved.connect(self._restore)

    def _before_insert(self, parent: QModelIndex, first: int, last: int) -> None:
        self._hold(parent)

    def _before_remove(self, parent: QModelIndex, first: int, last: int) -> None:
        self._hold(parent, first, last)

    def _before_move(
        self, parent: QModelIndex, first: int, last: int, target: QModelIndex, row: int
    ) -> None:
        self._hold(parent, first, last)

    def _hold(self, parent: QModelIndex, first: int = -1, last: int = -2) -> None:
        """Remember the first visible row; one among rows about to leave (or move away)
        is replaced by the row that will take its place."""
        bar = self._view.verticalScrollBar()
        if bar.value() == bar.minimum():
            self._anchor = QPersistentModelIndex()
            return
        top = self._view.indexAt(QPoint(1, 1))
        if not top.isValid():
            return
        row = top.row()
        if first <= row <= last:
            row = last + 1 if last + 1 < self._model.rowCount(parent) else first - 1
        if row < 0:
            return
        self._anchor = QPersistentModelIndex(self._model.index(row, top.column(), parent))
        self._offset = self._view.visualRect(top).top()

    def _restore(self, *_: object) -> None:
        if not self._anchor.isValid():
            return
        anchor, self._anchor = self._anchor, QPersistentModelIndex()
        self._view.scrollTo(anchor, QAbstractItemView.ScrollHint.PositionAtTop)
        if self._view.verticalScrollMode() == QAbstractItemView.ScrollMode.ScrollPerPixel:
            bar = self._view.verticalScrollBar()
            bar.setValue(bar.value() - self._offset)
