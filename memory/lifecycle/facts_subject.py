"""Is a new fact about the same thing as a stored one? Decided by the roles of the words that differ.

Token overlap (memory.lifecycle.dedup) finds rows worth comparing; it cannot tell "Search's p99
budget is 200 ms" -> "Exports' p99 budget is 250 ms" (two services: two facts) from "Search's p99
budget is 200 ms" -> "... 250 ms" (one budget, revised). This module aligns the two word
sequences (difflib) and gives each differing span a role, from the shape and place of its words
rather than from a list fitted to some data:

- negation: a negating word (a small closed class per language: not, never, nicht, pas, ...) on
  one side only; the fact is turned round: a contradiction.
- value: numbers, times, dates, versions, amounts with a short unit ("200ms", "v2.3", "09:00"),
  the unit word next to a number, and the names of weekdays and months (a closed class of time
  words in a few languages): the same subject with another value: a revision.
- name: identifiers (letters mixed with digits, "svc-12", "eu-west-1", snake_case, CamelCase,
  e-mail addresses, paths, "#123") and capitalised words inside a sentence (unless the sentence
  capitalises most of its words, as German nouns do, where capitals carry no signal).
- word: anything else.

Where a span sits matters. Facts are written subject first in the languages this serves, and the
changing value comes last: the final differing span (nothing but function words after it) is the
*value slot*, whatever its words are ("the gateway is Kong" -> "... is Envoy" is a revision).
A span of names or words replaced before the value slot, with shared words after it, names the
thing the fact is about: when it differs, the rows are different facts, however high the overlap.
Pure insertions or deletions of ordinary words are wording (a paraphrase), not a new subject.

Verdicts: "duplicate" (same words up to wording: nothing to write), "revision" (same subject,
another value), "contradiction" (a negation flip; a revision that turns the fact round), "new".
Pure: no Django, no database.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

Kind = Literal["duplicate", "revision", "contradiction", "new"]
Role = Literal["negation", "value", "name", "word"]

# Words kept as one token: numbers with separators ("09:00", "1,5", "2026-12-04", "v2.3.1"),
# identifiers with inner hyphens, dots, slashes or @ ("eu-west-1", "a.b@c.io"), contractions.
_TOKEN = re.compile(r"[#@]?\w+(?:[-'\u2019.:/@,]\w+)*", re.UNICODE)
_NUMBER_WITH_UNIT = re.compile(r"^[#]?v?\d+(?:[.,:/-]\d+)*(?:[^\W\d_]{1,4}|%)?$", re.IGNORECASE | re.UNICODE)
_HAS_DIGIT = re.compile(r"\d")

# Closed class: words that negate a clause (and the English contraction suffix).
NEGATIONS = frozenset(
    """not no never none nothing nobody cannot
    nicht kein keine keinen keinem keiner nie niemals
    ne pas jamais aucun aucune plus
    nunca ningún ninguna ninguno jamás tampoco
    non mai nessun nessuna
    não nao nem
    niet geen nooit
    inte aldrig ingen ikke aldri""".split()
)
# Closed class of time words: weekday and month names (and their plurals), in a few languages.
_TIME_WORDS = """
monday tuesday wednesday thursday friday saturday sunday weekday weekend
january february march april may june july august september october november december
montag dienstag mittwoch donnerstag freitag samstag sonntag
januar februar märz mai juni juli oktober dezember
lundi mardi mercredi jeudi vendredi samedi dimanche
janvier février mars avril juin juillet août septembre octobre novembre décembre
lunes martes miércoles jueves viernes sábado domingo
enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre
lunedì martedì mercoledì giovedì venerdì sabato domenica
segunda terça quarta quinta sexta
am pm noon midnight morning afternoon evening night
""".split()
TIME_WORDS = frozenset(_TIME_WORDS) | frozenset(w + "s" for w in _TIME_WORDS)
# How much of the words other than values two texts must share to be compared at all.
FRAME_AT = Fraction(1, 2)
# Share of capitalised words inside sentences above which capitals are a language's habit, not names.
CAPITAL_HABIT = Fraction(2, 5)


@dataclass(frozen=True)
class Token:
    surface: str
    key: str  # casefolded, NFKC
    role: Role


@dataclass(frozen=True)
class Verdict:
    """kind: the decision; rule: which rule decided it; old/new: the differing words it rests on."""

    kind: Kind
    rule: str
    old: tuple[str, ...] = ()
    new: tuple[str, ...] = ()
    only_values: bool = False  # every differing word is a value (or a negation)

    @property
    def same_subject(self) -> bool:
        return self.kind != "new"


def _key(word: str) -> str:
    return unicodedata.normalize("NFKC", word).casefold().strip("#@")


def _is_negation(key: str) -> bool:
    return key in NEGATIONS or key.endswith(("n't", "n\u2019t"))


def _is_value(word: str, key: str) -> bool:
    if _NUMBER_WITH_UNIT.match(word):
        return True
    return key in TIME_WORDS


def _is_identifier(word: str) -> bool:
    if word.startswith(("#", "@")) or "@" in word or "/" in word or "_" in word:
        return True
    if _HAS_DIGIT.search(word):
        return True  # letters mixed with digits that are no number with a unit: an id
    inner = word[1:]
    return any(c.isupper() for c in inner) and any(c.islower() for c in word)  # CamelCase, iOS


def tokenize(text: str) -> list[Token]:
    """Tokens with their roles (see the module docstring)."""
    found: list[tuple[str, str, bool]] = []  # surface, key, starts a sentence
    start = True
    pos = 0
    for m in _TOKEN.finditer(text or ""):
        between = text[pos : m.start()]
        if any(c in ".!?:;\n\u2022\u2013\u2014-" for c in between) and pos:
            start = True
        found.append((m.group(), _key(m.group()), start))
        start = False
        pos = m.end()
    inside = [s for s, _, first in found if not first and s[:1].isalpha()]
    capitals = sum(1 for s in inside if s[:1].isupper())
    habit = bool(inside) and Fraction(capitals, len(inside)) > CAPITAL_HABIT
    out: list[Token] = []
    for surface, key, first in found:
        role: Role
        if _is_negation(key):
            role = "negation"
        elif _is_value(surface, key):
            role = "value"
        elif _is_identifier(surface) or (surface[:1].isupper() and not first and not habit):
            role = "name"
        else:
            role = "word"
        out.append(Token(surface, key, role))
    # A unit next to a number is part of the value ("200 ms", "3 Tage").
    for i, tok in enumerate(out):
        if tok.role == "word" and len(tok.key) <= 5 and _neighbour_value(out, i):
            out[i] = Token(tok.surface, tok.key, "value")
    return out


def _neighbour_value(tokens: list[Token], i: int) -> bool:
    prev = tokens[i - 1] if i > 0 else None
    return prev is not None and prev.role == "value" and bool(_HAS_DIGIT.search(prev.surface))


def _frame(tokens: list[Token]) -> frozenset[str]:
    return frozenset(t.key for t in tokens if t.role not in ("value", "negation"))


def classify(old: str, new: str) -> Verdict:
    """Does `new` restate, revise, contradict `old`, or say something about another thing?"""
    a, b = tokenize(old), tokenize(new)
    if not a or not b:
        return Verdict("new", "empty")
    fa, fb = _frame(a), _frame(b)
    union = len(fa | fb)
    if union and Fraction(len(fa & fb), union) < FRAME_AT:
        return Verdict("new", "little_shared")
    ka, kb = [t.key for t in a], [t.key for t in b]
    if ka == kb or set(ka) == set(kb):
        return Verdict("duplicate", "same_words")  # the same words, perhaps in another order
    # A word present on both sides was moved, not changed: only words missing from the other
    # side make a span.
    in_a, in_b = set(ka), set(kb)
    spans = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=ka, b=kb, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        old_part = [t for t in a[i1:i2] if t.key not in in_b]
        new_part = [t for t in b[j1:j2] if t.key not in in_a]
        if old_part or new_part:
            spans.append((old_part, new_part, j2 == len(b) or _only_function_after(b, j2, kb, ka)))
    neg_a = {t.key for t in a if t.role == "negation"}
    neg_b = {t.key for t in b if t.role == "negation"}
    value_changed = False
    for old_part, new_part, last in spans:
        roles = {t.role for t in old_part} | {t.role for t in new_part}
        words_old = tuple(t.surface for t in old_part)
        words_new = tuple(t.surface for t in new_part)
        if "value" in roles:
            value_changed = True
        if last:
            continue  # the value slot: whatever its words, the subject stays
        if "name" in roles:
            return Verdict("new", "other_name", words_old, words_new)
        plain = old_part and new_part and roles == {"word"}
        if plain and _in_subject_half(a, old_part) and _in_subject_half(b, new_part):
            return Verdict("new", "other_subject", words_old, words_new)
    if len(spans) > 1:
        tail_old, tail_new, tail_last = spans[-1]
        tail_roles = {t.role for t in tail_old + tail_new}
        if tail_last and tail_old and tail_new and tail_roles <= {"name", "word"} and value_changed:
            # a value changed AND the words after it: they say what the value is of ("3 per user"
            # -> "5 per team"): another scope, another fact
            return Verdict(
                "new", "other_scope", tuple(t.surface for t in tail_old), tuple(t.surface for t in tail_new)
            )
    if bool(neg_a) != bool(neg_b):
        diff = tuple(sorted(neg_a ^ neg_b))
        return Verdict("contradiction", "negation_flip", diff if neg_a else (), diff if neg_b else ())
    changed_old = tuple(t.surface for part, _, _ in spans for t in part)
    changed_new = tuple(t.surface for _, part, _ in spans for t in part)
    if value_changed:
        only = all(t.role in ("value", "negation") for o, n, _ in spans for t in o + n)
        return Verdict("revision", "value_changed", changed_old, changed_new, only)
    names_or_words = [t for part_a, part_b, _ in spans for t in part_a + part_b if t.role in ("name", "word")]
    if not names_or_words:
        return Verdict("duplicate", "same_words")
    return Verdict("revision", "reworded", changed_old, changed_new)


_FUNCTION_MAX = 3  # letters: "a", "the", "ms", "de", "am" ... a short trailing word is no subject


def _only_function_after(b: list[Token], j2: int, kb: list[str], ka: list[str]) -> bool:
    """True when what follows position j2 in `b` is only short ordinary words ("ms", "the"): a value
    after the span ("due on May 31") means the span is not the value slot."""
    return all(len(t.key) <= _FUNCTION_MAX and t.role == "word" for t in b[j2:])


def _in_subject_half(tokens: list[Token], part: list[Token]) -> bool:
    """The span begins in the first half of its sentence (the subject part of a subject-first fact)."""
    index = next(i for i, t in enumerate(tokens) if t is part[0])
    return 2 * index < len(tokens)
