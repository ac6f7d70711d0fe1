"""Deterministic embeddings for knowledge tests: a hashed bag of words.

Each word (lowercased, CJK one character at a time) adds ±1 to one of `DIMENSIONS`
buckets chosen by a hash, then the vector is L2-normalised: texts sharing words point
the same way, texts sharing none are nearly orthogonal. `SYNONYMS` sends a few words to
another word's bucket, so "automobile" finds "car" by meaning where words cannot.
"""

from __future__ import annotations

import hashlib
import math
import re
from typing import Final

DIMENSIONS: Final = 256
SYNONYMS: Final = {"automobile": "car", "automobiles": "car", "cars": "car", "vehicle": "car"}
_WORD = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]|\w+")


def hashed_vector(text: str, dimensions: int = DIMENSIONS) -> list[float]:
    vector = [0.0] * dimensions
    for found in _WORD.findall(text.lower()):
        word = SYNONYMS.get(found, found)
        digest = hashlib.blake2b(word.encode(), digest_size=8).digest()
        bucket = int.from_bytes(digest[:4], "little") % dimensions
        vector[bucket] += 1.0 if digest[4] & 1 else -1.0
    norm = math.sqrt(sum(v * v for v in vector))
    return [v / norm for v in vector] if norm else vector
