"""Vectors as stored: L2-normalised float32 little-endian, and answers that are not."""

from __future__ import annotations

import numpy as np
import pytest

from desktop.engine.knowledge.embedding import BadVectors, pack, unpack


def test_vectors_are_normalised_float32_little_endian():
    blobs = pack([[3.0, 4.0], [0.0, 0.0], [1e-3, 0.0]], expected=3)
    assert blobs[0] == np.array([0.6, 0.8], dtype="<f4").tobytes()
    assert unpack(blobs[1]).tolist() == [0.0, 0.0]  # no direction: kept as zeros
    assert unpack(blobs[2]).tolist() == [1.0, 0.0]
    assert pack([], expected=0) == []


@pytest.mark.parametrize(
    ("vectors", "expected", "problem"),
    [
        ([[1.0]], 2, "returned 1 vectors for 2 passages"),
        ([[1.0, 2.0], [1.0]], 2, "different sizes"),
        ([[1.0, float("nan")]], 1, "cannot use"),
        ([[]], 1, "cannot use"),
    ],
)
def test_answers_that_are_not_one_vector_per_text(vectors, expected, problem):
    with pytest.raises(BadVectors, match=problem):
        pack(vectors, expected)
