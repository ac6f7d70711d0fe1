"""Files the person attaches: checked, stored, and read for the model."""

from desktop.engine.attachments.service import AttachmentService

__all__ = ["AttachmentService"]
