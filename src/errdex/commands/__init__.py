"""One module per CLI command group: the presentation (tables, JSON) of a stage's result.

``cli.py`` only parses arguments and calls ``run_*`` here; each ``run_*`` returns
the process exit code.
"""
