"""The runtime stage (see DESIGN.md)."""
