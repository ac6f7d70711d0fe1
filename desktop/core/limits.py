"""Numbers that shape behaviour, in one place so they are tuned and documented together."""

UI_UPDATE_INTERVAL_S = 0.040  # coalesce streamed deltas into at most ~25 UI updates/s
# A crash mid-stream loses what arrived since the last save: at most this interval plus
# one commit (a few ms) and a late timer, so well inside the "about a second" promised.
DB_WRITE_INTERVAL_S = 0.5
CONNECT_TIMEOUT_S = 15.0
STALL_TIMEOUT_S = 90  # a stream silent for this long is treated as broken (the default)
# A provider's own `stall_timeout` (settings): a local server loading a large model, or a
# reasoning model thinking before its first word, can be silent for minutes. There is
# no "never": a dead connection must end in an error the person can act on.
STALL_TIMEOUT_MIN_S = 10
STALL_TIMEOUT_MAX_S = 3600
TITLE_MAX_CHARS = 60

# Attachments (SPEC section 7).
MAX_ATTACHMENTS_PER_MESSAGE = 8
MAX_DOCUMENT_BYTES = 25 * 1024 * 1024
MAX_IMAGE_BYTES = 20 * 1024 * 1024
MAX_DECOMPRESSED_BYTES = 64 * 1024 * 1024  # all members of an archive-based document
MAX_EXTRACTED_CHARS = 200_000
# A knowledge library's file is read whole up to this (a long book): it is cut into
# passages, never sent whole to a model as an attachment's text is.
MAX_LIBRARY_DOCUMENT_CHARS = 5_000_000
MAX_WORKSPACE_FILE_CHARS = 2_000_000  # the workspace file sent with each message
