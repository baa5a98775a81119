"""Measurement runs (not collected by the default pytest run: see pyproject norecursedirs).

``python -m tests.benchmarks [--quick]`` runs them all and rewrites README.md's figures.
"""
