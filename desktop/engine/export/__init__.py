"""Conversations as files: Parley's lossless JSON format (`parley_json`) and a readable
Markdown document (`markdown`). Pure functions, no I/O."""
