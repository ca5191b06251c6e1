"""Lookahead on Showdown's own simulator: the battle as a simulator state (state.py), the Node
worker that plays turns from it (sim_worker.js, driven by worker.py), and the search (search.py)."""
