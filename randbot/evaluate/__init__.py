"""`randbot evaluate`: round-robin tournaments over worker processes, with ratings and reports.

- `plan`: which battles to play, cut into chunks (jobs);
- `resultlog`: the append-only JSON-lines log that makes a run resumable;
- `worker`: one OS process = one local server + the players, playing jobs it is sent;
- `pool`: the coordinator that feeds workers, restarts crashed ones and replays lost battles;
- `summary`, `ratings`, `report`: from the log to the DESIGN.md JSON, Bradley-Terry, markdown.
"""
