"""``errdex prove``: examples that ran (issue 15, docs/prove.md).

``engine.Prover`` restates an observed public call (``observe``'s entry frame
and argument reprs) as a script, runs it in the sandbox environment of the
indexed version, and keeps a before/after pair only when the before's real
traceback resolves, through ``errdex.match``, to this very error and an after
that makes the same call with changed arguments exits 0 without it.  The
library's code runs only in the sandbox: ``plan_script.py`` is executed by the
environment's interpreter and never imported here.
"""
