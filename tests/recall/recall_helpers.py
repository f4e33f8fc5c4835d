"""What the recall tests share: one session of a user's turns, recorded and embedded."""

from __future__ import annotations


def record(graph, user: str, texts: list[str]) -> dict[str, str]:
    """One session of `user`'s turns, embedded; text -> turn id."""
    session_id = f"{user}-s"
    graph.record_session_start(session_id, user_id=user)
    graph.record_turns(session_id, [{"role": "user" if n % 2 == 0 else "assistant", "text": text}
                                    for n, text in enumerate(texts)], user_id=user)
    graph.embed_session(session_id)
    return {turn.text: turn.turn_id for turn in graph.get_turns(session_id)}
