"""The extract stage (see DESIGN.md)."""
