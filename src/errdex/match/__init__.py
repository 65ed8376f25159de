"""The match stage (see DESIGN.md)."""
