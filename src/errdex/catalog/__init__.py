"""The catalog stage (see DESIGN.md)."""
