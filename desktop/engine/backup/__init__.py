"""Backups: the whole of Parley's data in one encrypted file (archive.py), and the
service that makes and restores them on schedule (service.py)."""
