"""Parley: a native desktop chat client for large language models."""

__version__ = "0.1.0"
