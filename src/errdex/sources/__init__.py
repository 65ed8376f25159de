"""The sources stage (see DESIGN.md)."""
