"""The Too Sloth To Win play board."""
