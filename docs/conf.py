"""Sphinx configuration: the docs pages are MyST Markdown (myst-parser).

Built with warnings as errors and no network (`make docs`, tests/test_docs.py): no intersphinx, no
remote images. The home page includes the repository's README.md, so its links to docs/*.md pages
(GitHub-relative) are rewritten to the pages here (``:relative-docs:``).
"""

project = "sloth-kernel"
author = "the sloth-kernel developers"
extensions = ["myst_parser"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "example_plugin/build", "example_plugin/*.egg-info"]
myst_heading_anchors = 3  # `[text](page.md#a-heading)` links, with GitHub's anchors
highlight_language = "text"
html_theme = "alabaster"
html_title = "sloth-kernel"
