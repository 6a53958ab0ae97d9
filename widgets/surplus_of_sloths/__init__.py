"""The Surplus of Sloths play board."""
