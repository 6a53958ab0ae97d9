"""ipywidgets play boards. They use only the public sloth_kernel API and never decide a rule."""
