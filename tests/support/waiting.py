"""How long a test waits for something that should happen.

A condition that holds within a fraction of a second on a quiet machine can take tens
of seconds on a 2-core machine with every core busy (the main window took 23-31 s to
appear there). Tests poll for conditions or wait on signals, and give up only at this
ceiling: reaching it means something is broken, not that the machine is slow. Nothing
is ever timed against a budget here; speed is the benchmarks' business.
"""

from __future__ import annotations

from typing import Final

CEILING_S: Final = 120.0
"""The longest a test waits for one thing to happen."""

HANG_GUARD_S: Final = 600.0
"""The longest a whole test body may run before it is treated as hung."""
