"""The analyze stage (see DESIGN.md)."""
