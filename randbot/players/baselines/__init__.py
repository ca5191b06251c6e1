"""The reference baselines randbot is measured against, each faithful to a document in
`../shared/reference/` (the docstring of each player names the section it follows)."""
