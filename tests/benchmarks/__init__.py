"""The benchmark scripts' tests. A script run end to end (a small run of its tables) is marked
``slow``: a developer runs those with ``pytest -m slow`` before measuring or releasing, as the
benchmarks themselves are run; the default run keeps the scripts' pure parts (their tallies and
parsers), and the product they measure has its own tests."""
