"""The memory browser (`sessions-graph ui`): one user's facts, sessions, memory files, recall and forgetting,
as server-rendered pages on 127.0.0.1 behind a token."""
