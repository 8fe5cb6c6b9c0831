"""Write conversations.jsonl and questions.jsonl: 12 two-person, multi-session dialogues.

    .venv/bin/python -m memory.evals.conversations.generate     # rewrites both files here

Deterministic (one seeded Random per conversation), so the committed output is reproducible.
Each conversation: 10 dated sessions of >= 30 turns, the two people's life events spread over
them (events_life, events_personal), small talk in between (smalltalk), and >= 40 questions of
four kinds labelled with the turn ids that hold the answer. Conversations c09-c12 are held out
(split "held_out"): retrieval changes are tuned on c01-c08 only.
"""

from __future__ import annotations

import json
import random
from datetime import date, timedelta
from pathlib import Path

from memory.evals.conversations import events_life, events_personal
from memory.evals.conversations.builder import Builder, FillerPool, Person, render
from memory.evals.conversations.smalltalk import CLOSINGS, OPENINGS, filler_exchanges

HERE = Path(__file__).resolve().parent
SESSIONS = 10
HELD_OUT = {"c09", "c10", "c11", "c12"}
PAIRS = [
    (("Alice", "she"), ("Marcus", "he")),
    (("Priya", "she"), ("Tom", "he")),
    (("Jonah", "he"), ("Leila", "she")),
    (("Sofia", "she"), ("Emeka", "he")),
    (("Hugo", "he"), ("Mei", "she")),
    (("Grace", "she"), ("Dmitri", "he")),
    (("Nadia", "she"), ("Oliver", "he")),
    (("Sam", "they"), ("Ines", "she")),
    (("Keiko", "she"), ("Ruben", "he")),
    (("Fatima", "she"), ("Liam", "he")),
    (("Theo", "he"), ("Amara", "she")),
    (("Rosa", "she"), ("Yusuf", "he")),
]
EVENTS = [
    events_life.pet,
    events_life.job,
    events_life.trip,
    events_life.move,
    events_life.purchase,
    events_personal.injury,
    events_personal.hobby,
    events_personal.family,
    events_personal.goal,
]
POSSESSIVE = {"she": "her", "he": "his", "they": "their"}


def person(name: str, pronoun: str) -> Person:
    return Person(name=name, pronoun=pronoun, possessive=POSSESSIVE[pronoun])


def session_dates(rng: random.Random) -> list[date]:
    day = date(2025, 10, 1) + timedelta(days=rng.randrange(75))
    dates = []
    for _ in range(SESSIONS):
        dates.append(day)
        day += timedelta(days=rng.randrange(14, 41))
    return dates


def conversation(index: int) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    conv_id = f"c{index + 1:02d}"
    rng = random.Random(1000 + index)  # noqa: S311 - a fixed seed, not security
    (name_a, pro_a), (name_b, pro_b) = PAIRS[index]
    builder = Builder(conv_id, person(name_a, pro_a), person(name_b, pro_b), session_dates(rng), rng)
    events = list(EVENTS)
    rng.shuffle(events)
    for n, event in enumerate(events):
        event(builder, builder.a if n % 2 == 0 else builder.b, f"e{n}")
    events_personal.hobby(builder, builder.b, "e-hobby2")
    events_personal.preferences(builder, builder.a, "pref-a")
    events_personal.preferences(builder, builder.b, "pref-b")
    pool = FillerPool(filler_exchanges(rng, 120), rng)
    turns, key_to_turn = render(builder, pool, opening=OPENINGS, closing=CLOSINGS)
    split = "held_out" if conv_id in HELD_OUT else "tuning"
    for turn in turns:
        turn["split"] = split
    questions = []
    for number, q in enumerate(builder.questions, 1):
        questions.append(
            {
                "conv": conv_id,
                "qid": f"{conv_id}-q{number:03d}",
                "split": split,
                "kind": q.kind,
                "question": q.question,
                "answer": q.answer,
                "evidence": [key_to_turn[key] for key in q.keys],
            }
        )
    return turns, questions


def main() -> None:
    turns: list[dict[str, object]] = []
    questions: list[dict[str, object]] = []
    for index in range(len(PAIRS)):
        conv_turns, conv_questions = conversation(index)
        turns += conv_turns
        questions += conv_questions
    for name, records in (("conversations.jsonl", turns), ("questions.jsonl", questions)):
        lines = (json.dumps(r, ensure_ascii=False) for r in records)
        (HERE / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(turns)} turns, {len(questions)} questions")  # noqa: T201


if __name__ == "__main__":
    main()
