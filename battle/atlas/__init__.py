"""The deal atlas: numbered deals solved exactly from the first move, in bulk, and what players get from it.

``deal_list``, ``survey_db`` and ``catalogue`` are plain data and SQLite (no solver, no
Dask); ``solve_deal`` is the one task a worker runs, through ``battle.players``;
``survey_run`` drives the tasks on a Dask cluster; ``survey_report`` sums up a survey database and
``survey_histogram`` draws its histogram.
"""
