"""The task suite harness (`hearth bench`): each task in a fresh workspace, through an agent's own
command line, then its check; results as JSON and Markdown, side by side across agents.

An application of its own: it drives agents (Hearth among them) as separate processes and needs
nothing of Hearth's runtime.
"""
