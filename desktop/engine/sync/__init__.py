"""End-to-end encrypted sync through the person's own storage (design E3)."""
