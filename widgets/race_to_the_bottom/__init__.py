"""The Race to the Bottom play board."""
