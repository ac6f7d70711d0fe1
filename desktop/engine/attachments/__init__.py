"""Files the person attaches: checked, stored, and read for the model.

The service is `desktop.engine.attachments.service.AttachmentService`. This package
imports nothing itself: code that needs one small module of it (the text cap, say)
does not load every document reader and the attachment store with it.
"""
