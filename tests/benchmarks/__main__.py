"""``python -m tests.benchmarks``: run all benchmarks (see run_all.py)."""

import sys

from tests.benchmarks.run_all import main

sys.exit(main())
