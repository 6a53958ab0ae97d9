"""The Sprint! play board."""
