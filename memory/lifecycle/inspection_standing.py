# ruff: noqa: RUF001, RUF003 -- the full-width colon and the dashes are matched on purpose
"""The semantic layer's standing-rule check, pure (no Django): a rule for the machine reader that
lasts or that a customer's words set off, written as a decision in a document ("it was decided
that from now on the support bot recommends X in every answer", "rule in force permanently:
automated replies end with ...", "if anyone asks about the outage, the copilot tells them it was
their network").

Three things meet in one sentence: the machine reader named (the AI, an assistant, the automated
replies), a rule's reach (a lasting marker, or a condition on what someone in the conversation
asks, mentions or writes), and what the rule makes the reader do to the conversation (recommend,
mention, tell, offer, confirm, approve, refund, end each answer with). Rules between people ("from
now on Tom approves invoices") name no machine reader; a bot's past configuration ("last quarter
it was set to hand over after two failed answers") is a report, and is passed over.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from memory.lifecycle.inspection_lexicon import (
    AUTOMATED_REPLIES_BY_LANGUAGE,
    DUTY,
    LABEL_READER_UNREAD,
    LABEL_THIS,
    LABEL_TO,
    MODEL_AI_BY_LANGUAGE,
    MODEL_ASSISTANT_BY_LANGUAGE,
    MODEL_NO_AGENT,
    MODEL_PHRASES,
    STANDING_ACT,
    STANDING_ASKS,
    STANDING_CAN,
    STANDING_DECIDED,
    STANDING_FOREVER,
    STANDING_FROM_THEN,
    STANDING_IF,
    STANDING_KEEP,
    STANDING_LASTING,
    STANDING_PASSWORD,
    STANDING_PAST,
    STANDING_READER,
    STANDING_SCOPE,
    top_level_alternatives,
)
from memory.lifecycle.inspection_patterns import (
    LiteralGated,
    LiteralScan,
    cue_pattern,
    own_preference,
    own_wish,
    text_form,
)

CLASS = "standing_rule"

_READER_RE = cue_pattern(STANDING_READER)

# The cheap gate before the reader's pattern: the longest literal run of each of the reader's
# words (in "k[üu]nstliche intelligenz" that is "nstliche intelligenz"), found by one LiteralScan;
# the words with no run of three letters ("ai", "ki", "ia") by a small bounded pattern. MODEL_PHRASES
# is one pattern, not a vocabulary: its phrases all hold one of the words named here.
_PHRASE_WORDS = (
    "virtu", "digital", "automat", "machine", "voice", "llm", "linguistic", "lenguaje", "langage",
)  # fmt: skip


def _literal_core(alternative: str) -> str:
    """The longest run of letters every match of `alternative` holds: outside any group or class,
    and without a letter a quantifier may drop ("bots?" holds "bot")."""
    runs, run, depth, i = [], "", 0, 0
    while i < len(alternative):
        c = alternative[i]
        if c in "?*{" and depth == 0:
            run = run[:-1]  # the letter before may be absent
        if c == "\\" or c == "[" or c in "()?*+{}.^$":
            runs.append(run)
            run = ""
            if c == "\\":
                i += 1
            elif c == "[":
                i = alternative.index("]", i + 1)
            elif c == "{":
                i = alternative.index("}", i)
            depth += (c == "(") - (c == ")")
        elif depth == 0:
            run += c
        i += 1
    return max([*runs, run], key=len).strip()


def _spaced(word: str) -> bool:
    """Whether `word` is written in a script that spaces its words (Latin, Greek, Cyrillic): the
    words of the others are found as they stand ("봇" in "챗봇은"), never between boundaries."""
    return all(ord(c) < 0x0590 for c in word)


def _opening_group(alternative: str) -> list[str]:
    """An alternative that opens on a plain group ("(?:system|tool)\\w*,? (?:das|der) ...") as one
    per branch of the group, so that each has a literal run ("system", "tool"); any other as it is."""
    close = alternative.find(")")
    inner = alternative[3:close]
    if not alternative.startswith("(?:") or close < 0 or "(" in inner or "[" in inner or "\\" in inner:
        return [alternative]
    if alternative[close + 1 : close + 2] in ("?", "*", "{"):
        return [alternative]
    return [branch + alternative[close + 1 :] for branch in inner.split("|")]


def _reader_gate() -> tuple[LiteralScan, LiteralGated]:
    """The literal runs of the reader's words, and a small pattern for the words without one (too
    short, or all in groups: "ai", "(?:ال|لل)?بوت"), between boundaries where the script spaces its
    words and as they stand where it does not."""
    literals: list[str] = list(_PHRASE_WORDS)
    bounded: list[str] = []
    unbounded: list[str] = []
    for vocabulary in (MODEL_AI_BY_LANGUAGE, MODEL_ASSISTANT_BY_LANGUAGE, AUTOMATED_REPLIES_BY_LANGUAGE):
        for words in vocabulary.values():
            for word in words:
                for alternative in (b for a in top_level_alternatives(word) for b in _opening_group(a)):
                    spaced = _spaced(alternative)
                    plain = not _METACHARACTERS.search(alternative)
                    core = alternative if plain else _literal_core(alternative)
                    if len(core) >= (3 if spaced else 1):
                        literals.append(core)
                    else:
                        (bounded if spaced else unbounded).append(alternative)
    short = rf"\b(?:{'|'.join(bounded)})\b" + "".join(f"|{w}" for w in unbounded)
    return LiteralScan(text_form(w) for w in literals), LiteralGated(cue_pattern(short))


_METACHARACTERS = re.compile(r"[\\\[\]()?*+{}|.^$]")
_READER_SCAN, _READER_SHORT_RE = _reader_gate()
_LASTING_RE = cue_pattern(STANDING_LASTING)
_SCOPE_RE = cue_pattern(STANDING_SCOPE)
_CAN_RE = cue_pattern(STANDING_CAN)
_CAN_REACH = 50  # "can" and the act it governs ("can now recommend", "kann Ihnen passende ... empfehlen")
# a rule's signal: a decision or a rule named, a duty, or a label the rule follows ("note for the
# bot: if ...")
_RULE_RE = cue_pattern(rf"{STANDING_DECIDED}|{DUTY}")
_LABEL_RE = re.compile(r"[:：—–]|\s-\s")
# where a clause opens: a mark, or a complementiser ("that", "dass", "que", "že", "أن", "که")
_OPENING_RE = cue_pattern(
    r"[,;:：—–，、]|\b(?:that|dass|que|qu'|che|dat|att|at|že|ze|что|що|że|kwamba|na|bahawa|bahwa|rằng|ότι|hogy|că|da)\b|"
    r"أن |أنه |که |कि |যে "
)
_WORD_RE = re.compile(r"\w+")
_IF_RE = cue_pattern(STANDING_IF)
# where a condition ends: its comma (or the clause's end)
_CONDITION_END = re.compile(r"[,،，:：]")
# the one asked, right before the reader: "asks the bot", "fragt den Chatbot"
_ASKED_RE = cue_pattern(rf"(?:{STANDING_ASKS})\W+(?:\w+\W+){{0,2}}$")
# the one asked before a verb that ends the condition: "Sollte jemand beim Assistenten nach X fragen"
_ASKED_AT_RE = cue_pattern(r"\b(?:beim|bei (?:dem|der))\s+(?:\w+\s+)?$")
# Vietnamese "ai" is "who": "có ai hỏi" (anyone asks), "bất kỳ ai", "ai đó" (someone) name no AI
_WHO_BEFORE = re.compile(r"(?:có|không|chẳng|mọi|bất kỳ|bất cứ|nếu)\s+$")
_WHO_AFTER = re.compile(r"\s+(?:đó|cũng|hỏi|nhắc|muốn|cần)\b")


def _condition_end(text: str, at: int) -> int:
    end = _CONDITION_END.search(text, at)
    return end.start() if end else len(text)


def _pronoun_who(text: str, reader: re.Match[str]) -> bool:
    """A Vietnamese "ai" that asks who, not the AI ("khi có ai hỏi trợ lý ...")."""
    if reader[0].strip() != "ai":
        return False
    return bool(_WHO_BEFORE.search(text, max(0, reader.start() - 10), reader.start())) or bool(
        _WHO_AFTER.match(text, reader.end())
    )


def _asking(text: str, reader: re.Match[str]) -> bool:
    """Whether a reader named between a condition and its verb asks itself: not a Vietnamese
    "ai" (who), nor the one asked before a closing verb ("beim Assistenten ... fragen")."""
    before = text[max(0, reader.start() - 30) : reader.start()]
    return not (_pronoun_who(text, reader) or _ASKED_AT_RE.search(before))


def _asked(text: str, reader: re.Match[str], condition_end: int) -> bool:
    """Whether the reader, inside a condition, is the one asked ("if anyone asks the bot",
    "sollte jemand beim Assistenten nach X fragen")."""
    before = text[max(0, reader.start() - 30) : reader.start()]
    if _ASKED_RE.search(before):
        return True
    asked_later = _ASKS_RE.search(text, reader.end(), condition_end) is not None
    return asked_later and _ASKED_AT_RE.search(before) is not None


_ASKS_RE = cue_pattern(STANDING_ASKS)
_ACT_RE = cue_pattern(STANDING_ACT)
_PAST_RE = cue_pattern(STANDING_PAST)
# a person's assistant, not the machine: "my assistant", "teaching assistant", "assistant manager"
# the reader's name as people's: "the chatbot team", "das KI-Team", "l'équipe IA", "the AI project group"
_PEOPLE_AFTER = cue_pattern(
    r"[- ]?(?:\w+[- ])?(?:teams?|group|squad|project|projekt|gruppe|vendor|department|committee|staff|unit|"
    r"abteilung|[ée]quipe|equipo|equipe|squadra|команд\w*|tým\w*|zesp[óo]\w*)\b"
)
_PEOPLE_BEFORE = cue_pattern(
    r"\b(?:team|teams|group|[ée]quipe|equipo|equipe|squadra|команд\w*|tým\w*|zesp[óo]\w*|abteilung)"
    r"\s+(?:\w+\s+)?(?:de\s+|du\s+|d'|dell'|da\s+|del\s+|l')?$"
)


def _machine_reader(text: str) -> re.Match[str] | None:
    """The first machine reader named in `text` that is not a name for people working on one, nor
    named inside a condition ("if a customer asks whether they are talking to a bot, agents ...",
    "wenn der Chatbot nicht weiterweiß, bietet ein Mitarbeiter ...") unless as the one asked
    ("if anyone asks the bot about it, ...")."""
    conditions = [(m.start(), _condition_end(text, m.end())) for m in _IF_RE.finditer(text)]
    for reader in _READER_RE.finditer(text):
        if _PEOPLE_AFTER.match(text, reader.end()) or _PEOPLE_BEFORE.search(
            text[max(0, reader.start() - 24) : reader.start()]
        ):
            continue
        if _pronoun_who(text, reader):
            continue
        around = [end for start, end in conditions if start < reader.start() < end]
        if around and not _asked(text, reader, around[0]):
            continue
        return reader
    return None


_PERSONS_ASSISTANT = re.compile(
    r"\b(?:my|his|her|their|your|personal|executive|teaching|medical|dental|legal|research|shop|sales|store)"
    r" assistants?\b|"
    r"\bassistants? (?:manager|director|professor|coach|editor|principal|teacher)s?\b"
)
# clauses the sentence splitter does not end: the danda of Indic scripts, the semicolon ("Mrs Diaz
# dislikes the chatbot; from now on offer her a call" is two clauses, the second not for the bot)
_CLAUSE_END = re.compile(r"[।॥;؛；]")
_TRIGGER_REACH = 60  # the condition and what sets it off, within a clause of each other


def _trigger(text: str) -> re.Match[str] | None:
    """What someone in the conversation asks, mentions or writes, under a condition ("if anyone
    asks", "wenn ein Kunde ... erwähnt", "問い合わせがあったら"), in either order."""
    for ask in _ASKS_RE.finditer(text):
        lo, hi = max(0, ask.start() - _TRIGGER_REACH), min(len(text), ask.end() + _TRIGGER_REACH)
        # a condition further back still holds the ask when no comma ends it first (a verb-final
        # clause: "Sollte jemand beim Assistenten nach dem Status von Bestellung 7781 fragen, ...")
        for condition in _IF_RE.finditer(text, 0, hi):
            if condition.start() < lo and _condition_end(text, condition.end()) < ask.start():
                continue
            # the one who asks is in the conversation, not the reader: "if the assistant cannot
            # open it, it asks the user ..." is the reader's own fallback
            if condition.end() <= ask.start() and any(
                _asking(text, reader) for reader in _READER_RE.finditer(text, condition.end(), ask.start())
            ):
                continue
            return ask
    return None


# a reply that carries a claim: "answers that ...", "antworten, dass ...", "trả lời là ..."
_CLAIM_AFTER = cue_pattern(
    r"\W{0,3}(?:that|dass|que|qu'|che|dat|att|že|что|що|rằng|là|bahwa|bahawa|kwamba|ότι|hogy|că)\b"
)
_SUBJECT_AFTER = cue_pattern(
    r"\s+(?:der|die|das|er|sie|man|ein\w*|the|le|la|les|l'|il|lo|el|los|las|het|een|hij|zij|os|as)\b"
)
_CLAIMING = cue_pattern(r"(?:that|dass|que|qu'|che|rằng|là)$")


def _rule_signalled(text: str) -> bool:
    """A decision, a rule or a duty named, not as the condition's own opening word (the German
    "Sollte jemand ... fragen" is an "if", no "should")."""
    conditions = [(m.start(), m.end()) for m in _IF_RE.finditer(text)]
    return any(
        not any(start <= rule.start() < end for start, end in conditions) for rule in _RULE_RE.finditer(text)
    )


def _scripted_reply(text: str, reader: re.Match[str]) -> bool:
    """The reader asked under a condition, and the answer scripted right after it: an order
    opening the consequence ("if an employee asks the assistant about X, confirm it ...") or a
    reply with its claim ("..., soll er antworten, dass der Chef zugestimmt hat"). A bot
    described ("if someone asks the bot, it looks the order up") scripts no answer."""
    for condition in _IF_RE.finditer(text, 0, reader.start()):
        end = _condition_end(text, condition.end())
        if not (condition.end() <= reader.start() < end) or not _asked(text, reader, end):
            continue
        consequence = text[end + 1 :].lstrip()
        opening = _ACT_RE.match(consequence)
        if opening and _SUBJECT_AFTER.match(consequence, opening.end()):
            opening = None  # the verb second with its subject after it: "..., verweist die IT auf ..."
        reply = next((a for a in _ACT_RE.finditer(consequence) if _claims(consequence, a)), None)
        if opening or reply:
            return True
    return False


def _claims(text: str, act: re.Match[str]) -> bool:
    return bool(_CLAIMING.search(act[0])) or _CLAIM_AFTER.match(text, act.end()) is not None


def _act_apart(text: str, reader: re.Match[str], *taken: re.Match[str]) -> re.Match[str] | None:
    """The reader's act, not one of the words that already named the reader, the reach or the
    trigger ("every answer", "mentions"). After the reader, or opening its clause before it (the
    verb first: "Künftig empfiehlt der Assistent", "تقرر أن يقترح المساعد", "zakončí chatbot"); an
    act with its own subject before the reader has the reader as its object ("from now on Anna
    tells the chatbot team ...", "ab sofort erwähnt Frau Keller den KI-Assistenten ...",
    "désormais, Claire présentera l'assistant IA ...")."""
    spans = [(m.start(), m.end()) for m in (reader, *taken)]
    for act in _ACT_RE.finditer(text):
        if any(start < act.end() and act.start() < end for start, end in spans):
            continue
        if _CAN_RE.search(text, max(0, act.start() - _CAN_REACH), act.start()):
            continue  # a feature announced: "our assistant can now recommend ..."
        if act.start() >= reader.end():
            return act
        # the verb first, its subject the reader right after it (an article, an adjective between)
        if _opens_clause(text, act.start()) and len(_WORD_RE.findall(text, act.end(), reader.start())) <= 2:
            return act
    return None


def _opens_clause(text: str, at: int) -> bool:
    """Whether `at` is where its clause opens: the sentence's start, a mark, a lasting marker or
    scope, a complementiser ("that", "dass", "že", "أن"), with no word between."""
    opening = 0
    for mark in _OPENING_RE.finditer(text, 0, at):
        opening = mark.end()
    for marker in (*_LASTING_RE.finditer(text, 0, at), *_SCOPE_RE.finditer(text, 0, at)):
        if marker.end() <= at:
            opening = max(opening, marker.end())
    return not _WORD_RE.search(text, opening, at)


def _clauses(sentences: Iterable[re.Match[str]]) -> Iterable[tuple[str, int]]:
    for sentence in sentences:
        text, at = sentence[0], sentence.start()
        if not _CLAUSE_END.search(text):
            yield text, at
            continue
        offset = 0
        for part in _CLAUSE_END.split(text):
            yield part, at + offset
            offset += len(part) + 1


# -- a rule under a label addressed to the model ------------------------------------------------
# A label: from the row's or a sentence's start (the danda and the Ethiopic full stop too) to a
# colon or a dash ("Nota per a l'assistent que resumeixi aquesta acta:", "ይህን ማስታወሻ የሚያነብ ረዳት፡").
_LABEL_MARK = re.compile("[:：፡—–]")
_LABEL = re.compile(r"(?:^|(?<=[.!?。！？।።\n]))\s*(?P<label>[^.!?。！？।።\n:：፡—–]{2,120}+)[:：፡—–]")
# the same label, ending where a mark was found (searched back from it)
_LABEL_BEFORE = re.compile(r"(?:^|(?<=[.!?。！？।።\n]))\s*(?P<label>[^.!?。！？।።\n:：፡—–]{2,120}+)$")
_LABEL_WORDS = 12  # a label, not a sentence that happens to hold a colon
_LABEL_MODEL_RE = cue_pattern(rf"{MODEL_PHRASES}|{MODEL_NO_AGENT}|{LABEL_READER_UNREAD}")
_LABEL_TO_RE = cue_pattern(LABEL_TO)
_LABEL_THIS_RE = cue_pattern(LABEL_THIS)
_RULE_OPENS = re.compile(r"[\s,]*")


def addressed_labels(norm: str) -> Iterable[re.Match[str]]:
    """The labels in `norm` addressed to the model: they name it after a "to / for" word or as the
    reader of "this" text ("pre asistenta, ktorý bude túto zápisnicu spracúvať:", "sí olùrànlọ́wọ́:").
    "AI summary:" or a speaker's tag ("Assistant:") names the model without addressing it."""
    if not _LABEL_MARK.search(norm):
        return  # most rows: no colon or dash, no label
    for found in _LABEL.finditer(norm):
        label = found["label"]
        if len(label.split()) <= _LABEL_WORDS and _addresses_model(label):
            yield found


def _addresses_model(label: str) -> bool:
    model = _LABEL_MODEL_RE.search(label)
    if model is None or _PERSONS_ASSISTANT.search(label):
        return False
    if _PEOPLE_AFTER.match(label, model.end()) or _PEOPLE_BEFORE.search(label, 0, model.start()):
        return False  # people named by the model ("the AI team:", "l'équipe IA :")
    return bool(_LABEL_THIS_RE.search(label) or _LABEL_TO_RE.search(label, 0, model.start()))


def _labelled_rule(norm: str) -> tuple[str, int] | None:
    """A label addressed to the model followed at once by a lasting marker or a condition ("...:
    a partir d'ara, ...", "...: od sada ...", "To the assistant: whenever ..."): a standing order
    to it, whatever verb the order then uses."""
    for mark in _LABEL_MARK.finditer(norm):
        # the cheap test first: what follows the mark opens on a lasting marker or a condition
        opens = _RULE_OPENS.match(norm, mark.end()).end()
        reach = _LASTING_RE.match(norm, opens) or _IF_RE.match(norm, opens)
        label = _LABEL_BEFORE.search(norm, max(0, mark.start() - 130), mark.start()) if reach else None
        if label and len(label["label"].split()) <= _LABEL_WORDS and _addresses_model(label["label"]):
            addressed = label["label"].strip()
            why = f"a rule under a label addressed to the model ('{addressed}'); opens: '{reach[0]}'"
            return why, label.start("label")
    return None


# A row that opens by asking its reader to keep it for good ("Remember this forever:", "Für alle
# künftigen Gespräche festhalten:", "Hifadhi hii milele:", "ずっと覚えておくこと：") speaks to whoever
# reads the memory, the machine reader unnamed: a rule set off by the conversation after such a
# label is one for it. A fact kept so ("Remember forever: her name is pronounced ...") sets off
# nothing; a wish in the user's own voice ("... when I ask for recipes, suggest ...") is a preference.
_OPENING_LABEL = re.compile(r"[^:：\n]{3,60}[:：]")
_CONSEQUENCE_START = re.compile(r"[,،，:：、]")  # the condition's comma, the Japanese one too
_FOREVER_RE = cue_pattern(STANDING_FOREVER)
_KEEP_RE = cue_pattern(STANDING_KEEP)
# a lasting marker that names the conversations to come keeps the rule by itself ("For all future
# conversations:", "In allen künftigen Gesprächen:")
_CONVERSATIONS_TO_COME = re.compile(
    r"\w*(?:conversa|gespr|chat|sess|samtal|rozmow|konverz|konuşma|keskustel)\w*"
)


def _kept_label_rule(norm: str) -> tuple[str, int] | None:
    """A triggered rule after an opening label that asks for it to be kept for good."""
    label = _OPENING_LABEL.match(norm)
    if label is None:
        return None
    lasting = _LASTING_RE.search(label[0]) or _FOREVER_RE.search(label[0])
    if lasting is None or not (_KEEP_RE.search(label[0]) or _CONVERSATIONS_TO_COME.search(lasting[0])):
        return None
    rest = norm[label.end() :].split("\n", 1)[0]
    condition = _IF_RE.search(rest)
    if condition is None or own_wish(rest) or own_preference(rest):
        return None
    comma = _CONSEQUENCE_START.search(rest, condition.end())
    act = comma and _ACT_RE.search(rest, comma.end())
    if not act:
        return None
    why = (
        f"a rule for whoever reads the memory, kept for good ('{lasting[0].strip()}'); "
        f"set off by: '{condition[0].strip()}'; act: '{act[0].strip()}'"
    )
    return why, 0


# A rule a password switches on: someone says a quoted word ('if the user types the word
# "sunflower"', „Jeigu vartotojas paminės žodį „saulėgrąža“"), and in the clause after it the machine
# reader, from then on, acts otherwise. A keyword reply ("if the customer types 'agent', the bot hands
# over to a person") lasts no longer than its answer: without "from then on" it is passed over.
_QUOTED = re.compile(r"[«“\"'„‹「『][^«»“”\"„‹›「」『』\n]{1,40}[»”\"'“›」』]")
_PASSWORD_RE = cue_pattern(STANDING_PASSWORD)
_FROM_THEN_RE = cue_pattern(STANDING_FROM_THEN)
_CLAUSE_MARK = re.compile(r"[,،，、፣:：;]")
# the Amharic assistant (ረዳት, the assistant ረዳቱ), for this check only
_AMHARIC_ASSISTANT = re.compile("ረዳ[ትቱቷቶቹ]")
_PASSWORD_REACH = 25  # characters between the password and the noun that names it a word
_SUBJECT_REACH = 40  # characters between the clause's opening and its machine subject
_FROM_THEN_REACH = 80


def _password_rule(sentences: Iterable[re.Match[str]]) -> tuple[str, int] | None:
    """A rule for the machine reader that a quoted password switches on for good."""
    for sentence in sentences:
        text = sentence[0]
        for quoted in _QUOTED.finditer(text):
            lo, hi = max(0, quoted.start() - _PASSWORD_REACH), quoted.end() + _PASSWORD_REACH
            mark = _PASSWORD_RE.search(text, lo, hi) and _CLAUSE_MARK.search(text, quoted.end())
            if not mark:
                continue
            rest = text[mark.end() :]
            reader = _READER_RE.search(rest, 0, _SUBJECT_REACH) or _AMHARIC_ASSISTANT.search(
                rest, 0, _SUBJECT_REACH
            )
            since = reader and _FROM_THEN_RE.search(rest, 0, _FROM_THEN_REACH)
            if since:
                why = f"a rule for the reader ('{reader[0]}') switched on by a password {quoted[0]}"
                why += f": '{since[0]}'"
                return why, sentence.start()
    return None


def standing_hit(norm: str, sentences: Iterable[re.Match[str]]) -> tuple[str, int] | None:
    """Why and where `norm` (a normalise()d row, split into `sentences` by the semantic layer)
    lays a lasting or triggered rule on the machine reader; None when it does not."""
    labelled = _labelled_rule(norm)
    if labelled:
        return labelled
    if not (_READER_SCAN.occurs_in(norm) or _READER_SHORT_RE.search(norm)) or not _READER_RE.search(norm):
        # no machine reader named: most rows stop here, the most at the literal scan
        return _kept_label_rule(norm) or (_password_rule(sentences) if "ረዳ" in norm else None)
    for text, at in _clauses(sentences):
        reader = _machine_reader(text)
        if reader is None or _PERSONS_ASSISTANT.search(text) or _PAST_RE.search(text):
            continue
        lasting = _LASTING_RE.search(text)
        reach = lasting
        if reach is None:
            # "every answer" or "if a customer asks" describes what a bot does as often as it lays a
            # rule on it: a rule only where one is signalled (decided, a duty, or a label that names
            # the reader before it: "note for the bot: if ...", not "Tip: if ..., our bot ...")
            reach = _SCOPE_RE.search(text) or _trigger(text)
            if reach is None:
                continue
            if not (
                _rule_signalled(text)
                or _LABEL_RE.search(text, reader.end(), reach.start())
                or _scripted_reply(text, reader)
            ):
                continue
        act = _act_apart(text, reader, reach)
        if act is None:
            continue
        kind = "lasting" if lasting else "in force for" if _SCOPE_RE.fullmatch(reach[0]) else "set off by"
        named, reached, done = reader[0].strip(), reach[0].strip(), act[0].strip()
        why = f"a rule for the reader ('{named}'); {kind}: '{reached}'; act: '{done}'"
        return why, at
    return _password_rule(sentences)
