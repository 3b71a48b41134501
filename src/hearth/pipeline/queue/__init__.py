"""The pipeline's queue in SQLite: its tables (tables.py), rows (rows.py), the store that claims and
records work (store.py) and the controls that change many rows at once (control.py)."""
