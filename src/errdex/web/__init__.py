"""The web stage (see DESIGN.md)."""
