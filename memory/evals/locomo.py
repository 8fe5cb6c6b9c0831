"""LoCoMo (Maharana et al., ACL 2024) read as a conversation_eval corpus: recall measured on
conversations written outside this project.

The data is not shipped: point `load_corpus` at a folder of LoCoMo conversations, one JSON file
each (speaker_a/b, session_N_date_time, session_N turns, qa), such as ../shared/eval/locomo-dev.
Turns are stored as an agent's ingest would store them: domain "turn", source = the session,
created at the session's date, content "Speaker: text" (plus "[shares a photo: caption]" when a
photo was shared), no date in the text and no heading. Questions of categories 1-4 are scored
(5, adversarial, has no evidence); evidence ids that name no turn are skipped, and a question
left with none is dropped.

Held out: the questions of HELD_OUT conversations form the held-out split, so a change tuned on
the others shows whether it carries over before the hidden half is scored.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path

from memory.evals.conversation_eval import Corpus, Question, Turn

CATEGORIES = {1: "multi_hop", 2: "temporal", 3: "open_domain", 4: "single_hop"}
HELD_OUT = frozenset({"30", "43"})
_SESSION = re.compile(r"^session_(\d+)$")
_EVIDENCE = re.compile(r"D\d+:\d+")


def session_date(text: str) -> datetime:
    """ "1:56 pm on 8 May, 2023" -> 2023-05-08 13:56."""
    return datetime.strptime(" ".join(text.split()), "%I:%M %p on %d %B, %Y")  # noqa: DTZ007 - a day


def turn_text(turn: dict) -> str:
    text = str(turn.get("text") or "").strip()
    caption = str(turn.get("blip_caption") or "").strip()
    return f"{text} [shares a photo: {caption}]" if caption else text


def load_corpus(directory: Path) -> Corpus:
    """Every *.json conversation in `directory` (see module doc)."""
    files = sorted(Path(directory).glob("*.json"))
    if not files:
        raise ValueError(f"no LoCoMo conversations (*.json) in {directory}")
    turns: list[Turn] = []
    questions: list[Question] = []
    for path in files:
        conv = path.stem
        split = "held_out" if conv in HELD_OUT else "tuning"
        raw = json.loads(path.read_text(encoding="utf-8"))
        data = raw.get("conversation", raw)
        known = set()
        sessions = sorted(int(m.group(1)) for key in data if (m := _SESSION.match(key)))
        for number in sessions:
            day = session_date(data[f"session_{number}_date_time"]).date()
            for turn in data[f"session_{number}"]:
                turn_id = f"{conv}:{turn['dia_id']}"
                known.add(turn_id)
                turns.append(
                    Turn(
                        conv,
                        f"locomo-{conv}-s{number}",
                        day,
                        turn_id,
                        turn["speaker"],
                        turn_text(turn),
                        split,
                        dated=False,
                    )
                )
        for index, item in enumerate(raw.get("qa", [])):
            kind = CATEGORIES.get(item.get("category"))
            if kind is None:
                continue
            cited = {f"{conv}:{e}" for raw in item.get("evidence", []) for e in _EVIDENCE.findall(str(raw))}
            evidence = frozenset(cited & known)
            if evidence:
                questions.append(
                    Question(
                        conv,
                        f"{conv}-q{index}",
                        split,
                        kind,
                        item["question"],
                        str(item.get("answer")),
                        evidence,
                    )
                )
    return Corpus(turns=tuple(turns), questions=tuple(questions))
