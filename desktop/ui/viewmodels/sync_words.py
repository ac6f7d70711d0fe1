"""What Settings → Sync says, in words: the status line, the progress, each device's
row and the outcome of each action. Kept apart from `sync.py` so the view-model holds
the behaviour and this the sentences (all through `tr`, to be translated).

Names of devices and titles of chats come from other computers: they are put into
sentences as they are, and the page shows every sentence as plain text.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject

from desktop.core.i18n import sentences
from desktop.engine.sync.service import SyncStatus
from desktop.ui.formatting import local_time


@dataclass(frozen=True, slots=True)
class DeviceRow:
    device_id: str
    name: str  # as the device calls itself, with "(this computer)" for this one
    seen: str  # when it last sent changes, in local time, or why not
    removable: bool  # another device, still in the vault


class SyncWords(QObject):
    # --- the status -------------------------------------------------------------------

    def summary(self, status: SyncStatus) -> tuple[str, bool]:
        """The status line, and whether it reports an error."""
        if not status.joined:
            return self.tr("This computer is not in a sync vault."), False
        parts: list[str] = []
        if status.last_sync is not None:
            parts.append(self.tr("Last synced %1.").replace("%1", local_time(status.last_sync)))
        else:
            parts.append(self.tr("Not synced yet."))
        if status.pending is not None:
            if status.pending:
                parts.append(self.tr("%n change(s) here wait to be sent.", "", status.pending))
            else:
                parts.append(self.tr("Nothing here waits to be sent."))
        if status.paused:
            parts.append(self.tr("Syncing is paused: changes wait here until you resume."))
        if not status.key_in_keyring:
            parts.append(
                self.tr(
                    "The keyring is not available, so the vault key is kept only until "
                    "Parley quits: join again after the next start."
                )
            )
        if status.last_error:
            parts.append(self.tr("The last sync failed: %1").replace("%1", status.last_error))
        return sentences(parts), bool(status.last_error)

    def progress(self, status: SyncStatus) -> str:
        """What the running sync does now."""
        if status.stage == "receiving":
            return self.tr("Receiving changes from other devices…")
        if status.stage == "sending":
            return self.tr("Sending this computer's changes…")
        return self.tr("Syncing…")

    def refused(self, status: SyncStatus) -> str:
        if not status.refused:
            return ""
        return self.tr("Some changes were refused:") + "\n" + "\n".join(status.refused)

    def revived(self, status: SyncStatus) -> str:
        if not status.revived:
            return ""
        return (
            self.tr(
                "A reply from another device brought back %n chat(s) you had deleted here:",
                "",
                len(status.revived),
            )
            + "\n"
            + "\n".join(status.revived)
        )

    def devices(self, status: SyncStatus) -> list[DeviceRow]:
        rows = []
        for device in status.devices:
            name = device.name
            if device.this_device:
                name = self.tr("%1 (this computer)").replace("%1", device.name)
            if device.removed:
                seen = self.tr("Removed from the vault")
            elif device.last_seen is not None:
                seen = local_time(device.last_seen)
            else:
                seen = self.tr("Has not sent changes yet")
            rows.append(
                DeviceRow(
                    device.device_id,
                    name,
                    seen,
                    not device.this_device and not device.removed,
                )
            )
        return rows

    # --- the form ---------------------------------------------------------------------

    def leave_first(self) -> str:
        return self.tr(
            "This computer syncs through the saved place. To sync somewhere else, leave "
            "the vault first."
        )

    def user_name_first(self) -> str:
        return self.tr("Enter the user name (for S3, the access key ID) first.")

    def kept_for_this_run(self, problem: str) -> str:
        if not problem:
            return ""
        return self.tr(
            "The keyring could not keep the password (%1), so Parley keeps it only until it quits."
        ).replace("%1", problem)

    def fix_field(self) -> str:
        return self.tr("Fix the field marked above first.")

    def tested(self, where: str, found: bool) -> str:
        if found:
            return self.tr("Parley can use %1, and there is a vault there: join it.").replace(
                "%1", where
            )
        return self.tr("Parley can use %1. There is no vault there yet: create one.").replace(
            "%1", where
        )

    def passphrases_differ(self) -> str:
        return self.tr("The two passphrases differ: type the same one in both fields.")

    def choose_target(self) -> str:
        return self.tr("Choose where the vault is first.")

    def working(self) -> str:
        return self.tr("Wait until the sync running now ends.")

    def enter_passphrase(self) -> str:
        return self.tr("Enter a passphrase to lock the vault with.")

    def enter_join_secret(self) -> str:
        return self.tr("Enter the vault's passphrase or its recovery key.")

    # --- outcomes ---------------------------------------------------------------------

    def created(self, where: str) -> str:
        return self.tr(
            "Created a vault at %1. Keep the recovery key somewhere safe, then join the "
            "vault from your other computers."
        ).replace("%1", where)

    def joined(self, where: str) -> str:
        return self.tr("Joined the vault at %1. The first sync starts now.").replace("%1", where)

    def synced(self, received: int, sent: int) -> str:
        return self.tr("Synced: %n change(s) received, %1 sent.", "", received).replace(
            "%1", str(sent)
        )

    def removed(self, name: str) -> str:
        if not name:
            return self.tr(
                "The device was removed: the other devices ignore what it sends from now on."
            )
        return self.tr(
            "%1 was removed: the other devices ignore what it sends from now on."
        ).replace("%1", name)

    def left(self) -> str:
        return self.tr("This computer left the vault. Its chats stay here.")

    def key_file(self, key: str) -> str:
        return (
            self.tr(
                "The recovery key of a Parley sync vault. With it, anyone can read what "
                "is synced: keep it somewhere safe."
            )
            + "\n\n"
            + key
            + "\n"
        )

    def key_saved(self, path: str) -> str:
        return self.tr("Saved the recovery key to %1.").replace("%1", path)

    def key_not_saved(self, path: str, error: OSError) -> str:
        return (
            self.tr("Could not save the recovery key to %1: %2")
            .replace("%1", path)
            .replace("%2", error.strerror or str(error))
        )
