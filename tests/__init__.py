"""The test suite, one package per folder so that every test module has a unique name.

Each folder mirrors a package of the project (``rules``, ``solver``, ``online``, ``ui``, ``cli``,
``atlas``, ``puzzles``, ``history``, ``storage``) or tests the scripts and files around it
(``benchmarks``, ``project``). What one folder uses lives in that folder; the harness several
folders use lives here and is imported by its full name, e.g. ``from tests import naive`` or
``from tests.solver.solver_cases import load``; ``data/`` holds the position files.
"""
