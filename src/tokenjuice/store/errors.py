"""The store's errors: one for a store that cannot be used, one for damaged bytes."""

from __future__ import annotations


class StoreError(RuntimeError):
    """The store cannot be used (disk full, read-only, corrupt)."""


class DamagedArtifact(StoreError):
    """A stored output whose bytes no longer match their digest."""

    def __init__(self, aid: str, why: str = "its bytes no longer match their SHA-256") -> None:
        super().__init__(f"stored output {aid} is damaged ({why}); it cannot be read back")
        self.aid = aid
