"""The review stage: what a maintainer asks of the catalog (DESIGN.md).

- ``diff``: the errors added, removed and changed between two snapshots;
- ``lint``: rules with stable codes over a snapshot's error sites;
- ``markdown``: the error reference as Markdown pages for MkDocs or Sphinx.

Everything here reads the catalog only: no indexed code is imported.
"""
