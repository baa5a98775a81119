"""One BLAS thread for the engine's matrix products.

On 2 cores shared with other work, OpenBLAS's second thread spin-waits for a core: a
10k x 512 matrix-vector product took 16 ms with two threads and 6.6 ms with one under load
(the embedder is limited the same way, see embedder.py).  threadpoolctl sets the limit for
the duration of a block; its controller is built once (it scans the loaded libraries).
"""

from __future__ import annotations

import threading
from contextlib import AbstractContextManager, nullcontext
from functools import lru_cache

_lock = threading.Lock()


@lru_cache(maxsize=1)
def _controller():
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:  # without it, BLAS keeps its default (correct, maybe slower)
        return None
    with _lock:
        return ThreadpoolController()


def one_blas_thread() -> AbstractContextManager:
    controller = _controller()
    if controller is None:
        return nullcontext()
    return controller.limit(limits=1, user_api="blas")
