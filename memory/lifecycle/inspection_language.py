# ruff: noqa: RUF003 -- letters of other scripts are matched on purpose
"""The rows the inspection cannot read, pure (no Django): written in a language none of its cue
lists covers.

The cue groups (inspection_lexicon, inspection_cues) and the classifier's n-grams read some thirty
languages; a row in another one (Amharic, Tamil, Yoruba, Lithuanian, ...) reaches none of them, so
every check passes it whatever it says. What such a row says is not known, and the one mistake that
matters is a steering row reaching a prompt: so a row the inspection cannot read that names the
model, in the words every language borrows ("AI", "bot", "GPT", "LLM", "copilot", and "AI" spelled
in its own script), or that sends to an address outside, waits for a reviewer who can read it. So
does one whose language is known not to be read (its script, or Hindi in Latin letters) and that
names the assistant in that language's word ("ასისტენტი", "ረዳቱ", "sahayak") or the English word
it borrows ("assistant ko bata do").

Unread: its letters are mostly of a script no cue list writes (Ethiopic, Tamil, Bengali, Georgian,
Khmer, ...; Urdu's own letters within the Arabic script), or it is Latin-script prose with almost
none of the commonest words of the Latin-script languages the cues cover, or Hindi or Urdu written
in Latin letters (three of their commonest words), however many English words it mixes in.
"""

from __future__ import annotations

import re

from memory.lifecycle.inspection_lexicon import (
    ADDRESS_OUT,
    MODEL_BORROWED,
    MODEL_UNREAD,
    MODEL_UNREAD_ASSISTANT,
)
from memory.lifecycle.inspection_patterns import LiteralGated
from memory.lifecycle.inspection_standing import addressed_labels

# Scripts no cue list writes: (first, last) code points.
_UNREAD_SCRIPTS = (
    (0x0530, 0x058F),  # Armenian
    (0x0980, 0x09FF),  # Bengali
    (0x0A00, 0x0A7F),  # Gurmukhi
    (0x0A80, 0x0AFF),  # Gujarati
    (0x0B00, 0x0B7F),  # Oriya
    (0x0B80, 0x0BFF),  # Tamil
    (0x0C00, 0x0C7F),  # Telugu
    (0x0C80, 0x0CFF),  # Kannada
    (0x0D00, 0x0D7F),  # Malayalam
    (0x0D80, 0x0DFF),  # Sinhala
    (0x0E80, 0x0EFF),  # Lao
    (0x0F00, 0x0FFF),  # Tibetan
    (0x1000, 0x109F),  # Myanmar
    (0x10A0, 0x10FF),  # Georgian
    (0x1200, 0x139F),  # Ethiopic
    (0x1780, 0x17FF),  # Khmer
    (0x1800, 0x18AF),  # Mongolian
)
_UNREAD_LETTER = re.compile("[" + "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in _UNREAD_SCRIPTS) + "]")
_LETTER = re.compile(r"[^\W\d_]")
# Urdu's letters beside the Arabic alphabet (ٹ ڈ ڑ ں ھ ہ ے): an Arabic-script row with them is Urdu
_URDU = re.compile("[\u0679\u0688\u0691\u06ba\u06be\u06c1\u06d2]")
# The commonest words of the Latin-script languages the cue lists cover (English, German, French,
# Spanish, Italian, Portuguese, Dutch, Polish, Czech, Turkish, Vietnamese, Indonesian and Malay,
# Swedish, Danish and Norwegian, Finnish, Romanian, Hungarian): a row of theirs has some in nearly
# every sentence.
_KNOWN_WORDS = frozenset(
    """
    the a an and or of to in on for is are was be it this that with as at by from not you your we i
    der die das und ist nicht ein eine zu den mit von für auf dem sie es ich du wir im bitte
    le la les et est un une des du pour pas que qui dans sur avec au ce il vous nous je
    el los las y es un una por para con que del se no lo al su como
    il lo gli e di che per con non una sono della questo
    o os as e um uma não com para que do da em por se
    de het een en is niet van op te dat met voor je wij
    i w z na nie jest się do że to od jak po
    a je se na že v to s z do jsou pro
    ve bir bu da de için ile ne değil
    và là của có không những cho được các với này
    dan yang di untuk dengan ini itu tidak ke dari ada akan
    och att det som en är på för med inte jag till av
    og at det er en til på ikke som med jeg af
    ja on ei se että tai kun mutta
    și în nu este cu pe pentru care o
    és a az hogy nem egy is van
    """.split()
)
# Latin letters with their diacritics: the extended blocks (Vietnamese "ợ", Yoruba "ọ") and the
# combining marks NFKC leaves ("ọ́"), or a word of theirs would count as letters split apart
_LATIN_WORD = re.compile(r"[a-zà-ɏ\u1e00-\u1eff][a-zà-ɏ\u1e00-\u1eff\u0300-\u036f]*")
# Vietnamese (read) by its own letters: the horn, a tone stacked on a circumflex or breve, the hook
# (Yoruba and Igbo write ẹ, ọ, ị, ụ and tones as marks: those letters say nothing)
_VIETNAMESE = re.compile("[ơưảạấầẩẫậắằẳẵặẻẽếềểễệỉỏốồổỗộớờởỡợủứừửữựỳỵỷỹ]")
_CODE_MARK = re.compile(r"[{};=]")
_CODE_MARKS = 3
_MIN_WORDS = 6  # a short label or a name is no prose to judge
_KNOWN_SHARE = 0.08  # below this share of known words, Latin prose is in a language not read
# The model named as every language borrows it, or "AI" in the scripts above (the lexicon's words)
_BORROWED_MODEL = LiteralGated(re.compile(rf"(?<![\w-])(?:{MODEL_BORROWED})(?![\w])|{MODEL_UNREAD}"))
_UNREAD_ASSISTANT = LiteralGated(re.compile(MODEL_UNREAD_ASSISTANT))
# Hindi and Urdu written in Latin letters (with English words mixed in, as they are typed): their
# commonest words, none of them a word of the languages read
_ROMAN_HINDI = frozenset(
    """
    hai hain nahi nahin ko ki ka kya kar karo kare karna karke karta karti bhi yeh woh aur jab tak mein
    toh bata batana batao bol dena hoga raha rahe rahi tha thi agar lekin sab koi kuch usko isko unko
    zaroorat chahiye wala wali wale
    """.split()
)
_ROMAN_HINDI_WORDS = 3
ROMAN_HINDI = "hindi in latin letters"
# Where a row's language is known to be one not read (a script, or Hindi in Latin letters) its
# assistant words name the model; Latin prose judged unread only for lacking the commonest words of
# the languages read may be terse English ("including our own assistant"), where they do not.
_NAMED_LANGUAGES = frozenset({"script", ROMAN_HINDI})
_DESTINATION = LiteralGated(re.compile(ADDRESS_OUT))


def unread_language(norm: str) -> str | None:
    """The kind of language `norm` (a normalise()d row) is written in when the inspection does
    not read it ("script", "latin"); None when it does (or the row is too short to say)."""
    letters = len(_LETTER.findall(norm))
    if not letters:
        return None
    if not norm.isascii() and (len(_UNREAD_LETTER.findall(norm)) * 2 > letters or _URDU.search(norm)):
        return "script"
    if len(_CODE_MARK.findall(norm)) >= _CODE_MARKS:
        return None  # code or configuration: its words are names, not a language
    if _VIETNAMESE.search(norm):
        return None
    words = _LATIN_WORD.findall(norm)
    if len(words) < _MIN_WORDS or len(words) * 2 < letters / 4:
        return None  # too short, or mostly another (read) script
    if len({w for w in words if w in _ROMAN_HINDI}) >= _ROMAN_HINDI_WORDS:
        return ROMAN_HINDI  # Hindi or Urdu in Latin letters, however many English words it borrows
    known = sum(1 for w in words if w in _KNOWN_WORDS)
    return "latin" if known < _KNOWN_SHARE * len(words) else None


def unread_and_steering(norm: str) -> str | None:
    """Why `norm` waits for a reader: a language the inspection does not read, and the model named
    or an address outside; None otherwise."""
    named = _BORROWED_MODEL.search(norm) or _DESTINATION.search(norm)
    if named is None:
        return _unread_and_addressed(norm) or _unread_assistant(norm)
    language = unread_language(norm)
    if language is None:
        return None
    return f"a language the inspection does not read ({language}); names '{named[0]}'"


def _unread_and_addressed(norm: str) -> str | None:
    """A row not read whose label speaks to the model ("Asistentui, kuris skaitys šį protokolą:",
    "ይህን ማስታወሻ የሚያነብ ረዳት፡"): a note for the model, in words no check reads."""
    label = next(iter(addressed_labels(norm)), None)
    if label is None:
        return None
    language = unread_language(norm)
    if language is None:
        return None
    addressed = label["label"].strip()
    return f"a language the inspection does not read ({language}); a label to the model: '{addressed}'"


def _unread_assistant(norm: str) -> str | None:
    """A row not read that names the assistant in its own words, or in the English one it borrows."""
    found = _UNREAD_ASSISTANT.search(norm)
    if found is None:
        return None
    language = unread_language(norm)
    if language not in _NAMED_LANGUAGES:
        return None
    return f"a language the inspection does not read ({language}); names the assistant: '{found[0]}'"

