"""Write inspection, pure (no Django): could this agent- or document-written row steer the model?

`inspect_write(...)` returns an `Inspection`: the reasons found (each a stable code, a short
text and the matched snippet), the review console's risk level and whether the row is held.
The write service holds on it and the review queue badges and orders by it, so the two always
agree.

Holding reasons: instruction, hidden_text, secret, protected_subject, oversized, repeated and
always_on (the row would enter every turn: nothing an agent or a document writes does that before
a person has looked at it). Informational: supersedes_operator (it would replace an
operator-confirmed row). Rows from operator surfaces (trust tier 3) get reasons and a risk but are
never held: an operator writing "Always answer in British English" means it.

Risk (issue 14's triage; 1 is the highest): 1 = instruction-shaped (instruction, hidden text,
protected subject), a credential, or would be always-on; 2 = would supersede an
operator-confirmed row; 3 = the rest.

Who is speaking matters: a conversation turn (domain "turn") is people talking to each other, so
its imperatives ("tell me more!", "you should always...") are no order to the model; a turn is
judged only by the detectors in TURN_DETECTORS (the model addressed as the reader, in any of
several languages, or the prompt's own machinery named), and never by the protected-subject rules.

The distinction that lets benign memory through: an instruction targets the assistant / model /
"you" or the conversation's answers, or is an imperative at sentence start about how to behave in
the conversation; a fact describes the world ("backups always run at 02:00"). Matching runs on a
normalised copy (entities decoded, NFKC, invisible characters dropped, look-alike letters and
digit-for-letter swaps mapped, spaced-out letters joined, case folded), so evasions meet the same
patterns; the evasions themselves (zero-width, bidi, comments, hiding styles, mixed scripts) are
a reason of their own.

Judgement in layers: normalisation, then the detectors of inspection_patterns (cheap, for the
unambiguous shapes), then, where no detector found an instruction or a protected subject, the
semantic layer (inspection_semantic: what the row does, by multilingual cue groups, naming the
attack class it matched), then, where neither spoke, the trained layer (inspection_classifier: a
small classifier over words, byte n-grams and cross-language cues, trained on the eval's tune
split; it holds at the threshold decided on its dev split and names the class and the features
that decided), then, only for a row the classifier scored near but below its threshold, the
exemplar layer (inspection_exemplars: the local embedding model's nearest labelled attack and
benign exemplars, naming both). Each Reason says which layer found it in `rule` ("pattern",
"semantic:<class>", "classifier:<class>", "exemplar:<class>", "" for structural checks).
Conversation turns never reach the classifier.
A row is also judged with its session's recent writes (inspection_split, split_writes): an
instruction split over writes is held whole.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Required, TypedDict

from memory.lifecycle.inspection_classifier import Verdict, classify, classify_many, windows
from memory.lifecycle.inspection_concealment import order_supposed
from memory.lifecycle.inspection_encoded import with_decoded
from memory.lifecycle.inspection_exemplars import GATE_LOW, Match, judge
from memory.lifecycle.inspection_lexicon import HOMOGLYPHS
from memory.lifecycle.inspection_patterns import (
    ADDRESS_SHORT_NAMES,
    ADDRESS_TRIGGERS_ASCII,
    AUTHORITY_DETECTORS,
    AUTHORITY_TRIGGERS,
    HIDDEN_DETECTORS,
    HIDDEN_TRIGGERS,
    INSTRUCTION_DETECTORS,
    INSTRUCTION_TRIGGERS,
    PERSON,
    PROTECTED_TEMPLATES,
    TURN_DETECTORS,
    LiteralGated,
    LiteralScan,
    guarded,
    mentioned,
    own_form,
    own_preference,
    own_wish,
    plain_fact,
    warned_against,
    warned_claim,
)
from memory.lifecycle.inspection_recounted import without_recounted_attempts
from memory.lifecycle.inspection_semantic import (
    GATE_WORDS,
    VOCATIVE_WHY,
    durability_only,
    names_an_act,
    restrictive_settings_only,
    rule_tightened,
    semantic_reasons,
    served_asked_to_act,
    tightened,
)
from memory.lifecycle.redaction import redact_secrets
from memory.store.trust import TrustTier, trust_tier

LEAKED_CREDENTIAL = "secret"  # the reason code of a row holding a credential
# Detectors of mood read the body without its heading; detectors of imperatives that people give
# each other ("never ask for ...", "don't tell ...") skip sentences whose subject is a person, and
# those of a wish skip a sentence in the user's own voice ("don't mention my health", "short
# answers from now on; details only when I ask"): that is what a preference memory is for.
BODY_ONLY_DETECTORS = frozenset({"imperative about the conversation"})
PERSON_SUBJECT_DETECTORS = frozenset({"concealment"})
FIRST_PERSON_DETECTORS = frozenset({"imperative about the conversation", "concealment", "standing order"})
# A phrase quoted as an example ("filters block messages like 'ignore previous instructions'") is
# mentioned, not used: these detectors skip a match inside such a quote.
MENTION_DETECTORS = frozenset({"override of earlier instructions", "system prompt or mode override"})
# An inability named as a condition ("when the chatbot can't answer, ...") is skipped by these.
CONDITION_DETECTORS = frozenset({"order addressed to the model"})
# A control tightened ("the assistant will not get write access; read-only stays", "from now on
# every deploy needs two approvals") is judged by its direction: these skip a match whose sentence
# only tightens.
DIRECTION_DETECTORS = frozenset({"order addressed to the model", "standing order"})
# A preference addressed to the model about the user's own output ("no emojis in anything you
# draft for me, for good") is skipped by these.
PREFERENCE_DETECTORS = frozenset({"standing order", "rule about the answers"})
# A lasting marker around a plain fact ("for all later conversations: the user's name is pronounced
# 'Shiv-AHN'") keeps a fact, it orders nothing: these skip such a match.
FACT_KEPT_DETECTORS = frozenset({"standing order"})
# Advice relayed to a person ("tell callers who lost their card to block it in the app first",
# "tell new joiners to enable two-factor login"): the person is told to act themselves; naming
# nothing risky, it is a procedure, not an order about the conversation.
RELAYED_ADVICE_DETECTORS = frozenset({"imperative about the conversation"})
_RELAYED_ADVICE = re.compile(
    r"\b(?:tell|remind|advise|ask)\s+(?!(?:the )?(?:assistant|model|ai|bot)\b)(?:\w+\s+){1,6}?to\s+"
    r"(?!(?:the|a|an|me|us|you|him|her|them|my|our|your)\b)[a-z]+"
)
# Whom a staff procedure's imperative speaks to or about: people served or the next shift, not the
# user the model answers ("post a status update and tell customers the next update time").
_STAFF_AUDIENCE = re.compile(
    r"\b(?:customers?|callers?|clients?|guests?|patients?|visitors?|students?|tenants?|members?|colleagues?|"
    r"employees?|staff|the next person|the team|them|us|tickets?)\b"
)
# A person's plan ("the team will move the weekly sync to Thursdays from now on") is no standing
# order to the model: these skip a sentence whose subject is a person with a plan verb.
PLAN_DETECTORS = frozenset({"standing order"})
_PERSON_PLAN = re.compile(
    rf"\s*(?:{PERSON})\s+"
    r"(?:will|wants?|plans?|is going|are going|intends?|hopes?|would like|decided|agreed)\b"
)
# "Team, from now on please cc finance ...": people addressed by a greeting are told a plan of theirs.
_PEOPLE_VOCATIVE = re.compile(
    r"\s*(?:(?:hi|hello|hey|dear)\s+)?(?:team|all|everyone|everybody|folks|colleagues|y'all)\s*[,:!]"
)

# A persona taken by a third party the text warns about ("attackers may pretend to be the CEO",
# "scammers often impersonate the bank"): a threat described to people, no role given the model.
THIRD_PARTY_DETECTORS = frozenset({"persona change"})
_THIRD_PARTY_BEFORE = re.compile(
    r"\b(?:attackers?|scammers?|fraudsters?|criminals?|phishers?|hackers?|impostors?|imposters?|"
    r"adversar(?:y|ies)|threat actors?|social engineers?|bad actors?|crooks?|con artists?)\s+"
    r"(?:(?:may|might|can|could|will|would|often|sometimes|usually|typically|frequently|also|even|try to|"
    r"tries to|attempt to|claim to|like to)\s+){0,3}$"
)

# A warning about a request the reader may receive ("treat any message asking you to forget
# previous instructions as suspicious and report it"): the words are the attack's, the act is
# to refuse it (see warned_against).
WARNED_DETECTORS = frozenset({"override of earlier instructions", "earlier instructions declared void"})

# A surprise kept among people ("don't tell Anna about the party, it's for her 40th"): what is
# hidden is a celebration, kept from a person rather than from the model's audience or anyone who
# oversees (customers, auditors), and nothing risky or of money is named besides the keeping quiet.
CELEBRATION_DETECTORS = frozenset({"concealment"})
_CELEBRATION = re.compile(
    r"\b(?:surprise|party|birthday|gift|farewell|leaving (?:do|card|drinks)|cake|anniversary|baby shower|"
    r"wedding|engagement|überraschung\w*|geburtstag\w*|geschenk\w*|abschiedsfeier|sorpresa|cumpleaños|regalo|"
    r"fiesta|despedida|surpresa|aniversário|festa|anniversaire|cadeau|fête|compleanno|verrassing\w*|"
    r"verjaardag\w*|feest\w*|niespodzian\w*|urodzin\w*|prezent\w*|sürpriz\w*|doğum günü|hediye\w*|"
    r"сюрприз\w*|день рождения|подар\w*)\b|"
    r"惊喜|生日|礼物|派对|サプライズ|誕生日|プレゼント|서프라이즈|깜짝|생일|선물"
)
_KEEPING_QUIET = re.compile(
    r"\b(?:never tell|don't tell|do not tell|hide|secretly|quietly|silently|"
    r"(?:is|it's|are|a) (?:a )?secret)\b"
)
# money named: what a note may not keep quiet about, among people or from customers
_MONEY_WORDS = r"refunds?|discounts?|prices?|pricing|fees?|charg\w*|invoices?|payments?|costs?"
_AUDIENCE_OR_MONEY = re.compile(
    r"\b(?:users?|customers?|clients?|callers?|patients?|guests?|buyers?|auditors?|compliance|regulators?|"
    r"security|legal|finance|accounting|management|managers?|boss|hr|investors?|board|anyone|everyone|"
    rf"{_MONEY_WORDS}|expens\w*|budgets?)\b|[$€£¥]"
)


def _surprise_kept(sentence: str) -> bool:
    if _CELEBRATION.search(sentence) is None or _AUDIENCE_OR_MONEY.search(sentence):
        return False
    return plain_fact(_KEEPING_QUIET.sub(" ", sentence))


def _people_plan(sentence: str) -> bool:
    return bool(
        _PERSON_PLAN.match(sentence) or _PEOPLE_VOCATIVE.match(sentence) or _DECISION_MINUTED.match(sentence)
    )


# A decision minuted ("3) Decision: from now on every pricing change is announced to customers"):
# what the people in the meeting agreed to do, the model neither its subject nor its addressee.
_DECISION_MINUTED = re.compile(
    r"\s*(?:\d{1,2}[.)]\s*|[-*•]\s*)?(?:decision|decided|agreed|resolution|beschluss|beschlossen|entscheidung|"
    r"d[ée]cision|d[ée]cid[ée]|decisi[óo]n|acuerdo|acordado|decisione|deliberato|decis[ãa]o|besluit|ustalenie|karar)\s*[:\-\u2013]"
)


_CHECKED_DETECTORS = (
    BODY_ONLY_DETECTORS
    | PERSON_SUBJECT_DETECTORS
    | FIRST_PERSON_DETECTORS
    | MENTION_DETECTORS
    | CONDITION_DETECTORS
    | THIRD_PARTY_DETECTORS
    | WARNED_DETECTORS
    | CELEBRATION_DETECTORS
    | DIRECTION_DETECTORS
    | PREFERENCE_DETECTORS
    | FACT_KEPT_DETECTORS
    | PLAN_DETECTORS
)
ALWAYS_ON = "always_on"  # the reason code of a row that would enter every turn
TURN_DOMAIN = "turn"  # a conversation turn between people (see the module docstring)
HOLDING_CODES = frozenset(
    {"instruction", "hidden_text", LEAKED_CREDENTIAL, "protected_subject", "oversized", "repeated", ALWAYS_ON}
)
RISK_ONE_CODES = frozenset({"instruction", "hidden_text", "protected_subject", LEAKED_CREDENTIAL, ALWAYS_ON})

DEFAULT_PROTECTED_SUBJECTS: tuple[str, ...] = (
    "identity", "name", "role", "persona", "permissions", "privileges", "access level", "admin access",
    "system prompt", "instructions", "tool policy", "tool permissions", "standing rules", "rules",
    "guardrails", "safety rules", "safety settings", "api keys", "credentials", "passwords",
)  # fmt: skip

ABSOLUTE_MAX_CHARS = 6000  # API allows 20,000; agent memories and document chunks (1,500) are far shorter
RELATIVE_FACTOR = 5  # "far longer than the namespace's usual rows"
RELATIVE_FLOOR = 2000  # never call a row oversized below this, whatever the namespace's norm
REPEATED_SESSIONS = 3  # the same content from this many sessions is a campaign, not a coincidence
SNIPPET_CHARS = 80


@dataclass(frozen=True)
class Reason:
    code: str
    text: str
    snippet: str = ""
    # which judgement found it: "pattern" (a detector of inspection_patterns), "semantic:<class>"
    # (inspection_semantic: the attack class matched), or "" for the structural checks
    rule: str = ""


@dataclass(frozen=True)
class Inspection:
    reasons: tuple[Reason, ...]
    risk: int
    hold: bool

    @property
    def codes(self) -> frozenset[str]:
        return frozenset(reason.code for reason in self.reasons)


# -- normalisation ---------------------------------------------------------------------------

_ZERO_WIDTH = "\u200b\u200c\u200d\u200e\u200f\u2060\u2061\u2062\u2063\u2064\ufeff\u180e\u00ad\u034f"
_BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u061c"
_DROP = {ord(c): None for c in _ZERO_WIDTH + _BIDI}
_DROP.update({cp: cp - 0xE0000 for cp in range(0xE0020, 0xE007F)})  # tag characters smuggle ASCII
_DROP.update(dict.fromkeys((0xE0001, 0xE007F)))
# Cyrillic and Greek letters that render like Latin ones (lower case: matching runs after casefold).
_HOMOGLYPHS = HOMOGLYPHS
_LOOKALIKE = frozenset("аеорсухіјѕԁһӏкАЕОРСХІЈЅВМНТКαεικνορτυχΑΒΕΗΙΚΜΝΟΡΤΥΧΖ")
_INVISIBLE = re.compile(f"[{_ZERO_WIDTH}{_BIDI}\U000e0000-\U000e007f]")
# The joiner inside an emoji sequence ("🧘\u200d♀️") is how the emoji is spelled, not hidden text.
_EMOJI = "\u2600-\u27bf\U0001f000-\U0001faff"
_EMOJI_JOINER = re.compile(f"(?<=[{_EMOJI}\ufe0f])\u200d(?=[{_EMOJI}])")
# So is a joiner or non-joiner between two letters of a script that spells with them: Persian and
# Urdu put a non-joiner inside words (the Arabic blocks), Indic scripts shape conjuncts with them.
_JOINING = "\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufefe\u0900-\u0dff"
_SCRIPT_JOINER = re.compile(f"(?<=[{_JOINING}])[\u200c\u200d](?=[{_JOINING}])")
# an email address's "@" stays: the address is where a row sends things ("p@ssword" is leet)
_LEET_CHAR = r"(?:[013457$]|@(?![\w-]+\.[a-z]{2,}\b))"
_LEET = re.compile(rf"(?<=[a-z]){_LEET_CHAR}|{_LEET_CHAR}(?=[a-z])")
_LEET_MAP = {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}
_SPACED = re.compile(r"\b(?:[a-z] ){3,}[a-z]\b")  # "i g n o r e"
_DASHED = re.compile(r"\b(?:[a-z][-.*_]){2,}[a-z]\b")  # "y-o-u", "m.u.s.t"
# The rewrites' preconditions, each opening on a character (class) so that sre skips in C to the
# positions that hold one: a letter beside a digit or symbol, "a-b-c", "a b c d".
_LEET_NEAR = re.compile(r"[013457@$](?:(?<=[a-z].)|(?=[a-z]))")
_DASHED_NEAR = re.compile(r"[-.*_](?<=[a-z].)[a-z][-.*_][a-z]")
_SPACED_NEAR = re.compile(r" (?<=[a-z] )[a-z] [a-z] [a-z]")
# A letter rotation (rot13) hides a sentence from every pattern: a text holding the rotated forms of
# two common English words ("gur" the, "fubhyq" should, "nffvfgnag" assistant) is read with each
# such line's decoded copy after it. Words of three letters or more: "bs", "gb" are abbreviations too.
_ROT13_WORDS = LiteralGated(
    guarded(
        r"\b(?:gur|naq|lbh|lbhe|jvgu|jvgubhg|guvf|gung|sebz|nyy|rirel|fubhyq|zhfg|arire|nyjnlf|hfre|nffvfgnag|"
        r"cnffjbeq|vtaber|nafjre|fraq)\b"
    )
)
_ROT13 = str.maketrans("abcdefghijklmnopqrstuvwxyz", "nopqrstuvwxyzabcdefghijklm")


def normalise(text: str) -> str:
    """The matching form of `text`: what a reader (or a model) would see, in one canonical spelling."""
    out = html.unescape(text)
    if "&" in out:
        out = html.unescape(out)  # double-encoded
    out = with_decoded(out)  # base64, hex, backwards: the decoded words follow their line
    if out.isascii():  # the common case: nothing invisible, nothing to compose or map
        out = out.casefold()
    else:
        out = unicodedata.normalize("NFKC", out.translate(_DROP)).casefold().translate(_HOMOGLYPHS)
    # each rewrite runs only where its cheap, anchor-free precondition is found
    if _LEET_NEAR.search(out):
        out = _LEET.sub(lambda m: _LEET_MAP[m[0]], out)
    if _DASHED_NEAR.search(out):
        out = _DASHED.sub(lambda m: re.sub(r"[-.*_]", "", m[0]), out)
    if _SPACED_NEAR.search(out):
        out = _SPACED.sub(lambda m: m[0].replace(" ", ""), out)
    if _rotated(out):  # line by line, so a row's form stays its heading's and body's joined (_rules)
        out = "\n".join(_with_decoded(line) for line in out.split("\n"))
    if "\n" not in out:  # one line: the same as below, without the generators
        return " ".join(out.split())
    lines = (" ".join(line.split()) for line in out.split("\n"))
    return "\n".join(line for line in lines if line)


def _with_decoded(line: str) -> str:
    """A line holding a rotated word, followed by its decoded copy; any other line as it is."""
    return f"{line}\n{line.translate(_ROT13)}" if _ROT13_WORDS.search(line) else line


def _rotated(text: str) -> bool:
    """Whether `text` holds rot13 English: two distinct rotated common words."""
    first = _ROT13_WORDS.search(text)
    return first is not None and any(word != first[0] for word in _ROT13_WORDS.findall(text, first.end()))


@lru_cache(maxsize=1024)  # bulk writes repeat a few headings over thousands of rows
def _normalised_heading(heading: str) -> str:
    return normalise(heading)


# -- detectors (the patterns live in inspection_patterns) ------------------------------------

Triggers = tuple[tuple[str, ...], ...]


_ADDRESSED = "model addressed"
# Each detector's trigger groups as sets, tested against the words one LiteralScan found in the
# text (the scan also covers the semantic layer's gates); an ASCII text's model address is tested
# by ADDRESS_TRIGGERS_ASCII and the short names at a word start (ADDRESS_SHORT_NAMES).
_TRIGGER_SETS = {label: tuple(map(frozenset, groups)) for label, groups in INSTRUCTION_TRIGGERS.items()}
_ADDRESS_ASCII_SET = frozenset(ADDRESS_TRIGGERS_ASCII)
_PROTECTED_WORDS = {word for group in AUTHORITY_TRIGGERS for word in group} | {
    normalise(subject) for subject in DEFAULT_PROTECTED_SUBJECTS
}
_SCAN = LiteralScan(
    {word for groups in INSTRUCTION_TRIGGERS.values() for group in groups for word in group}
    | set(ADDRESS_TRIGGERS_ASCII)
    | GATE_WORDS
    | _PROTECTED_WORDS
)


def _hit(found: set[str], groups: tuple[frozenset[str], ...]) -> bool:
    if len(groups) == 1:  # nearly every detector: one C call, no generator
        return not groups[0].isdisjoint(found)
    return all(not group.isdisjoint(found) for group in groups)


@lru_cache(maxsize=1024)
def _heading_found(head: str) -> frozenset[str]:
    return frozenset(_SCAN.found(head))


# The loop's view of a detector: label, trigger sets, pattern, whether it reads the body only.
_DETECTORS = tuple(
    (label, _TRIGGER_SETS[label], guarded(pattern), label in BODY_ONLY_DETECTORS)
    for label, pattern in INSTRUCTION_DETECTORS
)
_TURN_DETECTORS = tuple(detector for detector in _DETECTORS if detector[0] in TURN_DETECTORS)


def _triggered(text: str, groups: Triggers) -> bool:
    """The cheap necessary condition of a detector: every group has a substring in `text`."""
    contains = text.__contains__  # map() keeps the loop in C: this runs ~25 times per write
    for group in groups:  # noqa: SIM110 -- a plain loop: all() over a generator cost a third of this
        if not any(map(contains, group)):
            return False
    return True


_WORD = re.compile(r"\w+")
# nothing after it to carry a payload; possessive: the longest run before a mark is the only way
# a fullmatch can go, and the plain form backtracked through it character by character
_ONE_SENTENCE = re.compile(r"[^.!?\n]*+[.!?]?+\s*+")
_LATIN = re.compile(r"[a-zA-Z]")
_SENTENCE = re.compile(r"[^.!?\n]{12,}")
_TRIGRAM_MIN_WORDS = 30


@lru_cache(maxsize=32)
def _protected_patterns(
    subjects: tuple[str, ...],
) -> tuple[tuple[Triggers, tuple[frozenset[str], ...] | None, re.Pattern[str]], ...]:
    ordered = [normalise(s) for s in sorted((s for s in subjects if s.strip()), key=len, reverse=True)]
    alternation = "|".join(re.escape(s) for s in ordered)  # longest first
    named: Triggers = (tuple(ordered),)
    by_subject = tuple((named, guarded(t.format(s=alternation))) for t in PROTECTED_TEMPLATES)
    pairs = zip(AUTHORITY_TRIGGERS, AUTHORITY_DETECTORS, strict=True)
    by_authority = tuple(((group,), pattern) for group, pattern in pairs)
    # the groups as sets where _SCAN covers their words (configured subjects may be others)
    return tuple(
        (triggers, tuple(map(frozenset, triggers)) if _scanned(triggers) else None, pattern)
        for triggers, pattern in (by_subject if alternation else ()) + by_authority
    )


def _scanned(triggers: Triggers) -> bool:
    return all(word in _PROTECTED_WORDS for group in triggers for word in group)


_CODE_CONDITION = re.compile(
    r"\s*(?:if|elif|while|assert|unless)\b[^\n]*:\s*(?:raise|return|pass|continue|break)\b"
)
_PERSON_BEFORE = re.compile(
    rf"(?:^|\W)(?:{PERSON})\s+(?:will\s+|would\s+|should\s+|must\s+|can\s+|do\s+|does\s+)?$"
)


# "When the chatbot can't answer, it hands over to a person": an inability named as the condition of
# a fallback describes a process; it orders nothing.
_CONDITION_BEFORE = re.compile(
    r"\b(?:when|whenever|if|once|where|wenn|falls|quand|si|cuando|se)\s+(?:\S+\s+){0,3}$"
)
_INABILITY = re.compile(r"\b(?:cannot|can't|can not)\b")
_LEADING_MARKS = re.compile(r"[\W_]*")


# A person's assistant as a field of a record ("Assistant: Ruth Kim (books his calendar)", "Assistente:
# Dr. Marco Neri."): the label's value is a name, capitalised as written, and the field ends there.
# The raw text says it is a name; the lower-case text the detectors read cannot.
_PERSON_FIELD = re.compile(
    r"\b(?:[Aa]ssistant|[Aa]ssistent(?:in)?|[Aa]sistente|[Aa]ssistante|[Aa]ssistente|[Aa]ssistent)\s*:\s*"
    r"(?:(?:Mr|Ms|Mrs|Dr|Prof|Herr|Frau|Sr|Sra|M|Mme)\.?\s+)?"
    r"[A-ZÀ-ÖØ-Þ][a-zà-öø-ÿ'\u2019-]+(?:\s+[A-ZÀ-ÖØ-Þ][a-zà-öø-ÿ'\u2019-]+){1,2}(?=\s*(?:[(.;\n]|$))"
)


def person_fields(raw: str) -> tuple[str, ...]:
    """The assistant fields of `raw` whose value is a person's name, lower-cased as detectors read them."""
    return tuple(" ".join(found[0].lower().split()) for found in _PERSON_FIELD.finditer(raw))


def _names_a_person(text: str, at: int, fields: tuple[str, ...]) -> bool:
    return any(text.startswith(field, at) for field in fields)


def _instruction_match(
    text: str, label: str, pattern: re.Pattern[str], fields: tuple[str, ...] = ()
) -> re.Match[str] | None:
    """The first match of a detector; for PERSON_SUBJECT_DETECTORS, the first whose sentence
    subject is not a person ("staff never ask for the old password" is about staff)."""
    if label not in _CHECKED_DETECTORS:
        return pattern.search(text)
    for match in pattern.finditer(text):
        if label in PERSON_SUBJECT_DETECTORS and _PERSON_BEFORE.search(
            text, max(0, match.start() - 40), match.start()
        ):
            continue
        if label in MENTION_DETECTORS and mentioned(text, match.start()):
            continue
        if label in THIRD_PARTY_DETECTORS and _THIRD_PARTY_BEFORE.search(
            text, max(0, match.start() - 50), match.start()
        ):
            continue
        if (
            label in CONDITION_DETECTORS
            and _INABILITY.search(match[0])
            and _CONDITION_BEFORE.search(text, max(0, match.start() - 40), match.start())
        ):
            continue
        at = _LEADING_MARKS.match(text, match.start(), match.end()).end()  # type: ignore[union-attr]
        if label in CONDITION_DETECTORS and fields and _names_a_person(text, at, fields):
            continue  # "Assistant: Ruth Kim (books his calendar)": a field of a person's record
        # the sentence of the match's first word: a detector anchored at a sentence start matches
        # the mark that ends the sentence before, whose checks are not this sentence's
        sentence = _sentence_around(text, at)
        if label in WARNED_DETECTORS and warned_against(sentence):
            continue
        if label in CELEBRATION_DETECTORS and _surprise_kept(sentence):
            continue
        if label in FIRST_PERSON_DETECTORS and own_wish(sentence):
            continue  # "don't suggest paid tools unless I ask": the user's own wish, what memory is for
        if label in PREFERENCE_DETECTORS and (own_preference(sentence) or own_form(sentence)):
            continue  # "no emojis in anything you draft for me": how the user wants their own output
        marker_end = match.end() - _sentence_start(text, at)  # within `sentence`
        if label in FACT_KEPT_DETECTORS and _fact_kept(sentence, marker_end):
            continue  # "keep this for all future chats: the user is vegetarian": a fact made to last
        if label in PLAN_DETECTORS and _people_plan(sentence) and plain_fact(sentence):
            continue  # a person's plan, naming nothing risky
        if label in RELAYED_ADVICE_DETECTORS and _RELAYED_ADVICE.search(sentence) and plain_fact(sentence):
            continue  # a person told to act themselves, naming nothing risky
        if label in RELAYED_ADVICE_DETECTORS and _STAFF_AUDIENCE.search(sentence) and plain_fact(sentence):
            continue  # a staff procedure: customers, callers or the next shift told, naming nothing risky
        if label in DIRECTION_DETECTORS and tightened(sentence):
            continue  # the model denied a privilege: a limit, no order to act
        if label in MENTION_DETECTORS and _jailbreaks_as_topic(text, match, sentence):
            continue  # "we covered jailbreaks, attempts to make a model break its rules": a topic
        if label in PERSON_SUBJECT_DETECTORS and _kept_from_a_named_person(text, match, sentence):
            continue  # "don't tell Mark" in the notes for Mark's party: people keep it among themselves
        return match
    return None


# Jailbreaks as a class of things, plural or gerund ("Jailbreaks als Thema", "les jailbreaks",
# "jailbreaking LLMs"), in a sentence that addresses no one and switches nothing on: studied, not
# performed. "Jailbreak mode", "you are jailbroken" and "enable jailbreaking" still speak.
_JAILBREAKS = re.compile(r"jailbreak(?:s|ing)\b")
_ADDRESSES_OR_ENABLES = re.compile(
    r"\b(?:you|your|du|dich|dir|vous|tu|usted|enable\w*|allow\w*|activat\w*|permit\w*|unlock\w*|"
    r"erlaubt|aktivier\w*|autoris\w*|activ[ae]\w*|permitid\w*|consentit\w*)\b|\bmode\b|\bmodus\b"
)


def _jailbreaks_as_topic(text: str, match: re.Match[str], sentence: str) -> bool:
    plural = _JAILBREAKS.match(text, match.start()) is not None
    return plural and _ADDRESSES_OR_ENABLES.search(sentence) is None


# Concealment is keeping something from the user or customer the model serves. "Don't tell Mark"
# in notes about Mark (his party, his gift) keeps it from a named third person: whom it is hidden
# from is a word the row names elsewhere, not an audience, not called the user or customer, in a
# row that names no model, and nothing risky is named besides the keeping quiet.
_TOLD_WHOM = re.compile(r"\b(?:tell|mention (?:it|this|anything) to|let)\s+([a-z][a-z'-]+)\b")
_NOT_A_NAME = re.compile(
    r"(?:the|a|an|them|him|her|anyone|anybody|everyone|everybody|nobody|people|users?|customers?|clients?|"
    r"callers?|patients?|guests?|buyers?|members?|staff|auditors?|compliance|security|legal|finance|"
    r"management|managers?|boss|hr|investors?|board|support|it|me|us|you|this|that|my|your|our|their)"
)
_SERVED_ROLE = r"(?:user|customer|client|caller|patient|account holder|buyer|member|tenant|guest)"
# what someone served does ("Dana called today"): she is the one a reply would go to
_SERVED_ACT = (
    r"(?:called|phoned|rang|emailed|e-mailed|wrote in|asked|complained|ordered|bought|booked|"
    r"contacted|reported)"
)
_MONEY = re.compile(rf"\b(?:{_MONEY_WORDS}|debts?)\b|[$€£¥]")
_NAMES_A_MODEL = re.compile(r"\b(?:assistant|ai|bot|chatbot|model|agent|llm|gpt|copilot|ki|ia)\b")


def _kept_from_a_named_person(text: str, match: re.Match[str], sentence: str) -> bool:
    told = _TOLD_WHOM.search(text, match.start(), match.end() + 30)
    if told is None or _NOT_A_NAME.fullmatch(told[1]) or _NAMES_A_MODEL.search(text):
        return False
    name = re.escape(told[1].removesuffix("'s"))
    # named in another sentence of the row: the person the note is about ("Mark's 40th")
    elsewhere = re.search(rf"\b{name}\b", text.replace(sentence, " ")) is not None
    served = re.search(
        rf"\b{_SERVED_ROLE}\W+(?:\w+\W+){{0,3}}?{name}\b|\b{name}\W+(?:\w+\W+){{0,3}}?{_SERVED_ROLE}|"
        rf"\b{name}\s+(?:\w+\s+)?{_SERVED_ACT}\b",
        text,
    )
    rest = sentence.replace(match[0], " ")
    return elsewhere and served is None and plain_fact(rest) and _MONEY.search(rest) is None


# A credential withdrawn ("the old API keys were revoked the same day", "tokens are rotated
# monthly") changes a protected subject in the safe direction: skipped, the next match is read.
_CREDENTIAL_WITHDRAWN = re.compile(
    r"\b(?:keys?|tokens?|credentials?|passwords?|certificates?|secrets?)\b"
    r".*\b(?:revoked|rotated|invalidated|deactivated)\b"
)


def _protected_match(norm: str, pattern: re.Pattern[str]) -> re.Match[str] | None:
    return next((m for m in pattern.finditer(norm) if not _CREDENTIAL_WITHDRAWN.search(m[0])), None)


def _fact_kept(sentence: str, marker_end: int) -> bool:
    """A lasting marker, a colon, then a plain fact: no act asked for, nothing risky named."""
    colon = sentence.find(":", max(0, marker_end))
    if colon < 0:
        return False
    rest = sentence[colon + 1 :]
    return bool(rest.strip()) and not names_an_act(rest) and plain_fact(rest)


def _sentence_start(text: str, at: int) -> int:
    """Where the sentence holding `at` starts in `text` (see _sentence_around)."""
    return max(text.rfind(mark, 0, at) for mark in ".!?\n") + 1


def _sentence_around(text: str, at: int) -> str:
    ends = [i for i in (text.find(mark, at) for mark in ".!?\n") if i >= 0]
    return text[_sentence_start(text, at) : min(ends) if ends else len(text)]


def _snippet(text: str, match: re.Match[str]) -> str:
    return text[match.start() : match.start() + SNIPPET_CHARS].strip()


def _hidden_text(raw: str) -> list[Reason]:
    reasons = []
    plain = raw.isascii()  # no invisible characters, no look-alike letters
    invisible = None if plain else _INVISIBLE.search(_SCRIPT_JOINER.sub("", _EMOJI_JOINER.sub("", raw)))
    if invisible:
        start = max(0, invisible.start() - 20)
        shown = raw[start : invisible.end() + 20].encode("unicode_escape").decode("ascii")
        label = "invisible characters (zero-width, bidi or tag)"
        reasons.append(Reason("hidden_text", label, shown[:SNIPPET_CHARS]))
    lowered = raw.lower()
    for label, pattern in HIDDEN_DETECTORS:
        match = pattern.search(raw) if HIDDEN_TRIGGERS[label] in lowered else None
        if match:
            reasons.append(Reason("hidden_text", label, _snippet(raw, match)))
    if not plain and not _LOOKALIKE.isdisjoint(raw):
        for word in _WORD.findall(raw):
            if _LATIN.search(word) and any(ch in _LOOKALIKE for ch in word):
                label = "Latin mixed with look-alike letters"
                reasons.append(Reason("hidden_text", label, word[:SNIPPET_CHARS]))
                break
    return reasons


def _repetition(norm: str, copies_from_sessions: int) -> Reason | None:
    if copies_from_sessions >= REPEATED_SESSIONS:
        return Reason("repeated", f"same content from {copies_from_sessions} sessions", norm[:SNIPPET_CHARS])
    if len(norm) < 150:
        return None
    sentences = Counter(s.strip() for s in _SENTENCE.findall(norm))
    sentence, count = sentences.most_common(1)[0] if sentences else ("", 0)
    if count >= 3:
        return Reason("repeated", f"one sentence repeated {count} times", sentence[:SNIPPET_CHARS])
    words = norm.split()
    # stuffing has few distinct words; only then count trigrams
    if len(words) >= _TRIGRAM_MIN_WORDS and len(set(words)) < 0.6 * len(words):
        trigram, hits = Counter(zip(words, words[1:], words[2:], strict=False)).most_common(1)[0]
        if hits >= 5 and hits * 3 > 0.3 * len(words):
            return Reason("repeated", f"phrase repeated {hits} times", " ".join(trigram))
    return None


def _oversized(length: int, typical_length: int | None) -> Reason | None:
    if length > ABSOLUTE_MAX_CHARS:
        return Reason("oversized", f"{length} chars (limit {ABSOLUTE_MAX_CHARS})")
    if typical_length and length > max(RELATIVE_FACTOR * typical_length, RELATIVE_FLOOR):
        return Reason("oversized", f"{length} chars, {length // typical_length}x this namespace's usual row")
    return None


class WriteToInspect(TypedDict, total=False):
    """inspect_write's keywords, one write of a batch for inspect_writes."""

    content: Required[str]
    heading: str
    delivery_policy: Required[str | None]
    source_type: Required[str | None]
    domain: str | None
    typical_length: int | None
    copies_from_sessions: int
    supersedes_operator_row: bool
    protected_subjects: Sequence[str]


def inspect_write(
    *,
    content: str,
    heading: str = "",
    delivery_policy: str | None,
    source_type: str | None,
    domain: str | None = None,
    typical_length: int | None = None,
    copies_from_sessions: int = 0,
    supersedes_operator_row: bool = False,
    protected_subjects: Sequence[str] = DEFAULT_PROTECTED_SUBJECTS,
    classifier: bool = True,
) -> Inspection:
    """Reasons, risk (1 highest .. 3) and hold for one write; pure and deterministic.

    `domain` "turn" marks a conversation turn between people (judged by TURN_DETECTORS only);
    no other domain relaxes the detectors, since a planted instruction is as dangerous in a
    "code" row as in a "note".
    """
    row = _rules(content, heading, domain, protected_subjects)
    verdict = classify(row.body, row.head, exempt=_harmless_sentence) if classifier and row.classify else None
    (match,) = judge([_judged_text(row, verdict)]) if _ambiguous(verdict) else (None,)
    return _finish(
        row, verdict, match, content, delivery_policy, source_type, typical_length, copies_from_sessions,
        supersedes_operator_row,
    )  # fmt: skip


def inspect_writes(writes: Sequence[WriteToInspect], *, classifier: bool = True) -> list[Inspection]:
    """inspect_write() of many writes, the same Inspections in the same order (bulk writes): the
    classifier layer scores every row that reaches it in one batch (classify_many)."""
    rows = [
        _rules(w["content"], w.get("heading", ""), w.get("domain"), w.get("protected_subjects", _DEFAULT))
        for w in writes
    ]
    scored = [i for i, row in enumerate(rows) if row.classify] if classifier else []
    verdicts: list[Verdict | None] = [None] * len(rows)
    for i, verdict in zip(
        scored,
        classify_many([(rows[i].body, rows[i].head) for i in scored], exempt=_harmless_sentence),
        strict=True,
    ):
        verdicts[i] = verdict
    # the exemplar layer's few ambiguous rows, encoded in one batch
    asked = [i for i, verdict in enumerate(verdicts) if _ambiguous(verdict)]
    matches: list[Match | None] = [None] * len(rows)
    texts = [_judged_text(rows[i], verdicts[i]) for i in asked]
    for i, match in zip(asked, judge(texts) if asked else [], strict=True):
        matches[i] = match
    out = []
    for row, verdict, match, w in zip(rows, verdicts, matches, writes, strict=True):
        found = _finish(
            row, verdict, match, w["content"], w["delivery_policy"], w["source_type"],
            w.get("typical_length"), w.get("copies_from_sessions", 0),
            w.get("supersedes_operator_row", False),
        )  # fmt: skip
        out.append(found)
    return out


_DEFAULT = DEFAULT_PROTECTED_SUBJECTS


def _ambiguous(verdict: Verdict | None) -> bool:
    """Whether the exemplar layer is asked: the classifier scored the row near, not at, its threshold."""
    return verdict is not None and not verdict.held and verdict.p_attack >= GATE_LOW


def _harmless_sentence(sentence: str) -> bool:
    """A warning against a claim or a request, a control only tightened, or an attempt someone
    might make described as a risk: what _rules leaves unscored as a row of one sentence, the
    classifier leaves unscored as a sentence of a long row."""
    return (
        warned_claim(sentence)
        or tightened(sentence)
        or rule_tightened(sentence)
        or durability_only(sentence)
        or order_supposed(sentence)
        or served_asked_to_act(sentence)
        or _attempt_described(sentence)
    )


# "a customer could try to plant instructions that the bot would later treat as policy": someone
# other than the model might attempt it, a risk described (design notes, threat models), no
# order; "the assistant may attempt to ..." is not skipped.
_ATTEMPT_DESCRIBED = LiteralGated(
    re.compile(
        r"\b(?:a|an|the|some|any|ein|eine|der|die|un|une|le|la|el|uno|una|il|um|uma|o)\s+(?:[\w-]+\s+)?(?P<who>[\w-]+)\s+"
        r"(?:(?:could|might|may|can|would)\s+(?:try|attempt)\s+to|könnten? versuchen|pourrai(?:en)?t essayer|"
        r"podrían? intentar|poderiam? tentar|potrebbero? (?:provare|tentare))\b"
    )
)
_MODEL_WORD = re.compile(
    r"(?:assistant|model|ai|bot|agent|chatbot|llm|copilot|ki|ia|assistent|assistente|asistente|modell|modèle|modelo)s?"
)


def _attempt_described(sentence: str) -> bool:
    found = _ATTEMPT_DESCRIBED.search(sentence)
    return found is not None and not _MODEL_WORD.fullmatch(found["who"])


def _judged_text(row: _Ruled, verdict: Verdict | None) -> str:
    """What the exemplar layer reads: the row as written, or, when the classifier judged a long row
    by its sentences, the sentence it was unsure about (a whole long row's embedding blends
    unrelated topics: on composites of benign rows it found attack exemplars nearer)."""
    return verdict.window if verdict is not None and verdict.window else row.raw


@dataclass
class _Ruled:
    """A write after the rules and the semantic layer, before the classifier layer."""

    raw: str
    body: str
    norm: str
    head: str
    reasons: list[Reason]
    classify: bool  # whether the classifier layer judges it (no rule spoke, not a turn)


def raw_text(heading: str, content: str) -> str:
    """A write's text as written, heading first: what the structural checks and the exemplar
    layer read."""
    return f"{heading}\n{content}" if heading else content


def _rules(content: str, heading: str, domain: str | None, protected_subjects: Sequence[str]) -> _Ruled:
    """Normalisation, the detectors and the semantic layer of one write (see the module docstring)."""
    raw = raw_text(heading, content)
    # A heading is a label ("Answer style"), not a sentence: the mood detectors read the body only.
    # normalise() works line by line, so the whole row's form is the heading's and the body's joined.
    # an attempt recounted as failed: its quoted instruction is reported, not given
    body = without_recounted_attempts(normalise(content))
    head = _normalised_heading(heading) if heading else ""
    norm = f"{head}\n{body}" if head and body else head or body
    reasons = _hidden_text(raw)
    turn = domain == TURN_DOMAIN
    # no trigger word holds a line break, so the row's words are the heading's and the body's
    found_body = _SCAN.found(body)
    found_norm = found_body | _heading_found(head) if head else found_body
    fields = person_fields(raw) if "ssist" in raw else ()
    for label, groups, pattern, body_only in _TURN_DETECTORS if turn else _DETECTORS:
        text, found = (body, found_body) if body_only else (norm, found_norm)
        if label == _ADDRESSED and text.isascii():
            hit = not _ADDRESS_ASCII_SET.isdisjoint(found) or ADDRESS_SHORT_NAMES.search(text) is not None
        else:
            hit = _hit(found, groups)
        match = _instruction_match(text, label, pattern, fields) if hit else None
        if match:
            reasons.append(Reason("instruction", label, _snippet(text, match), rule="pattern"))
    last: Triggers = ()
    hit = False
    for triggers, scanned, pattern in () if turn else _protected_patterns(tuple(protected_subjects)):
        if triggers is not last:  # the subject templates share one trigger group: test it once
            last = triggers
            hit = _triggered(norm, triggers) if scanned is None else _hit(found_norm, scanned)
        match = _protected_match(norm, pattern) if hit else None
        if match and _CODE_CONDITION.match(norm, norm.rfind("\n", 0, match.start()) + 1):
            continue  # `if not user.is_admin: raise ...` tests a setting in code, it writes none
        sentence = _sentence_around(norm, match.start()) if match else ""
        if match and warned_claim(sentence):
            continue  # "be wary of anyone who claims the review was waived": advice against it
        if match and tightened(sentence):
            continue  # "admin rights were revoked", "two approvals are now required": the safe direction
        if match:
            label = "writes to a protected subject"
            reasons.append(Reason("protected_subject", label, _snippet(norm, match), rule="pattern"))
            break
    if not reasons or not {r.code for r in reasons} & {"instruction", "protected_subject"}:
        # the semantic layer (what the row does, in any wording) where no pattern spoke already
        for hit in semantic_reasons(body, turn=turn, found=found_body):
            if fields and hit.why.startswith(VOCATIVE_WHY) and _names_a_person(hit.snippet, 0, fields):
                continue  # the vocative check read a person's assistant field as the model addressed
            reasons.append(Reason(hit.code, f"{hit.cls}: {hit.why}", hit.snippet, rule=f"semantic:{hit.cls}"))
    # the trained layer (inspection_classifier): new wording and languages the cues do not list
    spoken = not turn and not {r.code for r in reasons} & {"instruction", "protected_subject"}
    # A row that is one warning against a claim or a request ("treat any message asking you to skip
    # the approval process as suspicious") is advice: its words are the attack's, its direction not.
    # So is one sentence that only tightens a control ("the billing bot may no longer issue credits
    # without a manager's sign-off"): the classifier's cues see a control and "without", not the direction.
    if spoken and (_ONE_SENTENCE.fullmatch(body) or len(windows(body)) == 1) and _harmless_sentence(body):
        spoken = False
    # so is a settings block that only keeps controls on (every privilege off, every check on)
    if spoken and "\n" in body and restrictive_settings_only(body):
        spoken = False
    return _Ruled(raw, body, norm, head, reasons, classify=spoken)


def _finish(
    row: _Ruled,
    verdict: Verdict | None,
    match: Match | None,
    content: str,
    delivery_policy: str | None,
    source_type: str | None,
    typical_length: int | None,
    copies_from_sessions: int,
    supersedes_operator_row: bool,
) -> Inspection:
    """The classifier's verdict and the exemplar layer's match (None: not judged), the structural
    checks, risk and hold."""
    raw, body, norm, reasons = row.raw, row.body, row.norm, row.reasons
    # a long row judged by its sentences shows the sentence that decided it
    snippet = (verdict.window if verdict is not None and verdict.window else body)[:SNIPPET_CHARS]
    if verdict is not None and verdict.held:
        why = f"{verdict.cls} (p={verdict.p_attack:.2f}): " + ", ".join(verdict.top)
        reasons.append(Reason("instruction", why, snippet, rule=f"classifier:{verdict.cls}"))
    if match is not None and match.held:
        why = f"{match.cls} (margin {match.margin:.2f}): {match.why}"
        reasons.append(Reason("instruction", why, snippet, rule=f"exemplar:{match.cls}"))
    # keys are case-sensitive shapes: redaction sees the text with invisibles dropped, not folded
    secrets = redact_secrets(raw if raw.isascii() else unicodedata.normalize("NFKC", raw.translate(_DROP)))
    if secrets.kinds:
        reasons.append(Reason("secret", "credential: " + ", ".join(secrets.kinds)))
    for found in (_oversized(len(content), typical_length), _repetition(norm, copies_from_sessions)):
        if found:
            reasons.append(found)
    if delivery_policy == "always":
        reasons.append(Reason(ALWAYS_ON, "would enter every turn of every matching agent"))
    if supersedes_operator_row:
        reasons.append(Reason("supersedes_operator", "would supersede an operator-confirmed row"))
    codes = {reason.code for reason in reasons}
    risk = 1 if codes & RISK_ONE_CODES else 2 if supersedes_operator_row else 3
    hold = bool(codes & HOLDING_CODES) and trust_tier(source_type) != TrustTier.OPERATOR
    return Inspection(reasons=tuple(reasons), risk=risk, hold=hold)
