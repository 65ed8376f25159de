"""The observe stage (DESIGN.md): run a library's own tests in the sandbox and record every error
its code raises, mapped to the indexed sites by frames.

``recorder.py`` is the pytest plugin that runs inside the sandbox (standard
library only); ``run.py`` runs the test files; ``mapping.py`` turns events
into Observations; ``pipeline.py`` ties them to a SOURCE and the catalog.
"""
