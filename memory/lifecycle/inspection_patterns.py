# ruff: noqa: E501 -- regular expressions read better unbroken than split mid-alternation
"""The inspection's detectors: regular expressions over the normalised text (see inspection.py).

Every detector is a label (shown to the reviewer) and alternatives joined into one compiled
pattern. Matching runs on `normalise()`d text: lower case, Latin letters only, one space.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from re import _constants as _c  # type: ignore[attr-defined]  # the parser's opcodes
from re import _parser  # type: ignore[attr-defined]
from typing import Any

from memory.lifecycle.inspection_lexicon import HOMOGLYPHS, QUOTED_SPAN
from memory.lifecycle.inspection_scripts import TriesByScripts, cut_to_scripts


class LiteralScan:
    """Which of `words` occur in a text (as substrings), found by a trie alternation instead of one
    `in` per word: it finds the longest word starting at a position, and every word that is a
    prefix of it starts there too. The search resumes one past each match's start, so words that
    overlap are found; it opens on a branch of literals, so sre skips in C to where one starts."""

    def __init__(self, words: Iterable[str]) -> None:
        ordered = sorted(set(words) - {""})  # "" would match everywhere: the loop would never end
        # a text holds no word of a script it lacks: its scan walks the trie of the words it may
        # hold (an ASCII text's is a third the size of the whole)
        self._tries = TriesByScripts(ordered, _trie)
        known = frozenset(ordered)  # a word's prefixes among the words, by its own prefixes (not all pairs)
        self._prefixes = {
            w: frozenset(w[:k] for k in range(1, len(w) + 1) if w[:k] in known) for w in ordered
        }

    def occurs_in(self, text: str) -> bool:
        """Whether any of the words occurs in `text`: found(text) is not empty, by its first search."""
        return self._tries.for_text(text).search(text) is not None

    def found(self, text: str) -> set[str]:
        out: set[str] = set()
        prefixes, search = self._prefixes, self._tries.for_text(text).search
        at = 0
        while (match := search(text, at)) is not None:
            out |= prefixes[match[0]]
            at = match.start() + 1
        return out


def _trie(words: Sequence[str]) -> str:
    """An alternation of `words` as a trie; greedy, so it matches the longest word it can."""
    root: dict[str, dict] = {}
    for word in words:
        node = root
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: dict[str, dict]) -> str:
        branches = [re.escape(ch) + build(child) for ch, child in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else f"(?:{'|'.join(branches)})"
        return f"(?:{body})?" if "" in node else body

    return build(root)


def text_form(cue: str) -> str:
    """A cue word or pattern written as normalise() writes the text it reads: NFKC ("คำ" is "คํา"),
    casefolded where casefold() changes a lower-case letter (final sigma, sharp s), and through the
    look-alike map (Cyrillic and Greek letters as the Latin ones they look like)."""
    folded = unicodedata.normalize("NFKC", cue).replace("\u03c2", "\u03c3").replace("\u00df", "ss")
    return folded.translate(HOMOGLYPHS)


def cue_pattern(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """A cue list compiled to read normalise()d text (text_form), guarded."""
    return guarded(text_form(pattern), flags)


def guarded(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`pattern` compiled behind a lookahead for where a match can start: a character it can start
    with anywhere, after a word boundary (`\\b`) or at a start (`^`, `\\A`). The same matches, but
    a position that starts none fails at once instead of trying every alternative (the detectors
    are wide alternations and most positions, mid-word ones above all, start none of them). The
    guard is compiled with the pattern's `flags`, so its `^`, case and classes mean what the
    pattern's do. Patterns with inline or verbose flags, or whose start is no plain character set
    (a negated class, `.`, a match of nothing), are compiled as they are."""
    parsed = _parser.parse(pattern, flags)
    plain = flags & re.VERBOSE or parsed.state.flags != _parser.parse("", flags).state.flags
    first = None if plain else _first_chars(parsed, frozenset({""}))
    if first is None or first[1]:
        return cut_to_scripts(re.compile(pattern, flags))
    starts = "|".join(
        f"{anchor}[{''.join(sorted(chars))}]" for anchor, chars in sorted(first[0].items()) if chars
    )
    return cut_to_scripts(re.compile(f"(?={starts})(?:{pattern})", flags))


_CATEGORIES = {_c.CATEGORY_SPACE: r"\s", _c.CATEGORY_WORD: r"\w", _c.CATEGORY_DIGIT: r"\d"}
_REPEATS = (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT)
_ZERO_WIDTH = (_c.AT, _c.ASSERT, _c.ASSERT_NOT)
# The zero-width items a guard repeats, to hold where the first character is read ("" for none
# known); compiled with the pattern's flags, "^" is a line's start exactly where the pattern's is.
_ANCHORS = {_c.AT_BOUNDARY: r"\b", _c.AT_BEGINNING: "^", _c.AT_BEGINNING_STRING: r"\A"}
# (the class items a match can start with, by the anchor that holds before them; the anchors
# under which it can match nothing, empty when it cannot)
_First = tuple[dict[str, set[str]], frozenset[str]]


def _first_chars(items: Iterable[tuple[Any, Any]], anchors: frozenset[str]) -> _First | None:
    """Where a match of the sequence `items` can start (see _First), entered under `anchors`, or
    None where that is no plain character set."""
    starts: dict[str, set[str]] = {}
    for op, av in items:
        if op in _ZERO_WIDTH:  # the next item consumes the first character, at the same position
            if op is _c.AT and av in _ANCHORS:
                anchors = frozenset(anchor or _ANCHORS[av] for anchor in anchors)
            continue
        after: set[str] = set()
        for anchor in anchors:
            found = _first_of(op, av, anchor)
            if found is None:
                return None
            for key, chars in found[0].items():
                starts.setdefault(key, set()).update(chars)
            after |= found[1]
        anchors = frozenset(after)
        if not anchors:
            break
    return starts, anchors


def _first_of(op: Any, av: Any, anchor: str) -> _First | None:
    if op is _c.LITERAL or op is _c.IN:
        chars = _class_items([(op, av)] if op is _c.LITERAL else av)
        return None if chars is None else ({anchor: chars}, frozenset())
    if op is _c.SUBPATTERN:
        _group, add_flags, del_flags, items = av
        return None if add_flags or del_flags else _first_chars(items, frozenset({anchor}))
    if op is _c.BRANCH:
        starts: dict[str, set[str]] = {}
        empty: set[str] = set()
        for branch in av[1]:
            found = _first_chars(branch, frozenset({anchor}))
            if found is None:
                return None
            for key, chars in found[0].items():
                starts.setdefault(key, set()).update(chars)
            empty |= found[1]
        return starts, frozenset(empty)
    if op in _REPEATS:
        low, _high, items = av
        found = _first_chars(items, frozenset({anchor}))
        # a repeat that may run zero times leaves the anchor as it found it
        return None if found is None else (found[0], found[1] | ({anchor} if low == 0 else set()))
    return None


def _class_items(items: Iterable[tuple[Any, Any]]) -> set[str] | None:
    """A character class's items as class syntax, or None for a negated class or category."""
    parts = set()
    for kind, value in items:
        if kind is _c.LITERAL:
            parts.add(re.escape(chr(value)))
        elif kind is _c.RANGE:
            parts.add(f"{re.escape(chr(value[0]))}-{re.escape(chr(value[1]))}")
        elif kind is _c.CATEGORY and value in _CATEGORIES:
            parts.add(_CATEGORIES[value])
        else:
            return None
    return parts


class LiteralGated:
    """A pattern behind the literals every match of it holds (required_literals): where the text
    holds none, search() answers None without running the pattern. The same answers: the gate
    only skips a search that cannot match. For wide alternations asked of many sentences that
    mostly hold none of their words (a trie pass is a fraction of the alternation's cost)."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self._compiled = pattern
        words = required_literals(pattern)
        self._gate = None if words is None else TriesByScripts(sorted(words), _trie)

    def search(self, text: str, pos: int = 0, endpos: int | None = None) -> re.Match[str] | None:
        end = len(text) if endpos is None else endpos
        if self._gate is not None and self._gate.for_text(text).search(text, pos, end) is None:
            return None
        return self._compiled.search(text, pos, end)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._compiled, name)  # finditer, sub, pattern, ...: the pattern's own


def required_literals(pattern: re.Pattern[str]) -> frozenset[str] | None:
    """Strings of which every match of `pattern` holds one (None where none can be named: a
    case-blind or verbose pattern, or a match that may hold no fixed string)."""
    if pattern.flags & (re.IGNORECASE | re.VERBOSE):
        return None
    found = _sequence_literals(_parser.parse(pattern.pattern, pattern.flags))
    return None if found is None or "" in found else frozenset(found)


def _sequence_literals(items: Iterable[tuple[Any, Any]]) -> set[str] | None:
    """The best set of strings one of which a match of the sequence `items` holds: its runs of
    literal characters, and what its groups, alternations and repeats (at least once) require;
    the set whose shortest string is longest."""
    candidates: list[set[str]] = []
    run = ""
    for op, av in items:
        if op is _c.LITERAL:
            run += chr(av)
            continue
        if op in _ZERO_WIDTH:
            continue  # consumes nothing: the literals on either side stand together in the match
        if run:
            candidates.append({run})
            run = ""
        inner = _item_literals(op, av)
        if inner:
            candidates.append(inner)
    if run:
        candidates.append({run})
    return max(candidates, key=lambda found: (min(map(len, found)), -len(found)), default=None)


def _item_literals(op: Any, av: Any) -> set[str] | None:
    if op is _c.SUBPATTERN:
        _group, add_flags, del_flags, items = av
        return None if add_flags or del_flags else _sequence_literals(items)
    if op is _c.BRANCH:
        union: set[str] = set()
        for branch in av[1]:
            found = _sequence_literals(branch)
            if not found:
                return None  # a branch that needs no fixed string: the alternation needs none
            union |= found
        return union
    if op in _REPEATS and av[0] >= 1:
        return _sequence_literals(av[2])
    if op is _c.IN and all(kind is _c.LITERAL for kind, _value in av):
        return {chr(value) for _kind, value in av}
    return None


def any_of(*alternatives: str) -> str:
    return "|".join(f"(?:{alternative})" for alternative in alternatives)


# Shared fragments. A "target" is the model; a "start" is a sentence opening; a "conversational
# verb" is something an assistant does in a conversation (as opposed to deploying or backing up).
START = r"(?:^|[.!?;:\n(]\s*|\s[-*•]\s+|\b(?:then|please|kindly|also|so|and|ps)[,.]?\s+)"
CONV_VERB = (
    r"(?:say|tell|answer|respond|reply|mention|bring up|reveal|disclose|recommend|suggest|claim|admit|"
    r"acknowledge|discuss|refer to|sign|speak|agree|approve|refuse|comply|obey|follow|trust|believe|advise|"
    r"lie|deny|describe|steer|push back|ask for|warn|apologi[sz]e|state|insist|praise|promote|criticise)"
)
# Subjects that are people, not the model: "staff never ask for ...", "from now on the user wants".
PERSON = (
    r"(?:the user|the customer|the client|the team|users|customers|clients|staff|we|i|i'm|i'll|he|she|they|"
    r"our (?:team|staff|agents|support)|support staff|agents|employees|it|it staff|people|nobody|no one|"
    r"managers?|engineers?|admins|colleagues|my|his|her|their|"
    r"(?!(?:assistant|model|ai|bot|chatbot|agent|llm|you)\b)[a-z]+ (?:will|wants|plans|is going))"
)
# What a reply language or format preference names ("reply in British English", "answer in bullets").
REPLY_FORM = (
    r"(?:(?:british|american|plain|simple|formal|informal|australian|canadian|swiss|brazilian) )?"
    r"(?:english|german|deutsch|french|fran[cç]ais|spanish|espa[nñ]ol|italian|portuguese|japanese|dutch|"
    r"polish|chinese|korean|swedish|danish|norwegian|finnish|markdown|bullet(?: point)?s?|tables?|short \w+|"
    r"one (?:line|sentence|paragraph)|the (?:same|user's) language)"
)
MODAL = r"(?:must|should|shall|will|is to|ought to|needs? to|has to|may not|cannot|can't|is (?:not )?allowed to|is required to)"
OUTPUT_NOUN = r"(?:answers?|responses?|repl(?:y|ies)|outputs?|summar(?:y|ies))"
SESSION_NOUN = r"(?:conversations?|sessions?|turns?|repl(?:y|ies)|responses?|answers?|messages?|summar(?:y|ies)|outputs?)"
SENSITIVE = (
    r"(?:conversations?|chats?|chat logs?|transcripts?|history|messages?|context|memor(?:y|ies)|"
    r"credentials|api keys?|keys|tokens?|secrets?|passwords?|environment variables|env vars|\.env|"
    r"cookies|customer (?:list|data)|user(?:'s)? (?:data|email|messages?|last message)|personal data|"
    r"emails?|summar(?:y|ies)|\.aws|ssh keys?)"
)
DESTINATION = any_of(
    r"https?://|www\.|@[\w-]+\.|webhook|gist|pastebin|\bexternal",
    r"\b(?:upload|webhook|drop|collection) (?:url|address|endpoint)\b",
    r"\b[\w.-]+\.(?:net|com|org|io|dev|ru|site|xyz|app|example)\b",
)

# Who is being spoken to. A reader that is a model, named in English, German, French, Spanish,
# Italian/Portuguese or Japanese: the signal that a text talks to the model rather than about the
# world, whatever its mood ("you should always..." between two people is not an order to anyone).
MODEL_NAME = (
    r"(?:ai|a\.i\.|(?:ai |virtual |digital )?assistants?|assistent(?:en|in)?|assistente|asistente|llm|"
    r"(?:large )?language model|sprachmodell|chatbot|bot|copilot|chatgpt|claude|gpt|gemini|ki|ia|"
    r"intelligence artificielle|inteligencia artificial|k[üu]nstliche intelligenz|mod[eè]le de langage|"
    r"modelo de lenguaje|(?:ai|llm|ki|ia) (?:agent|agente|model|modell|helper|helfer))"
)
# Readers that are people as often as models ("the support agent"): named only as the reader
# of the text itself ("the agent who reads this later").
READER = rf"(?:{MODEL_NAME}|model|modell|mod[eè]le|modelo|agent|agente|helper|helfer|ayudante)"
_JA_READER = r"(?:アシスタント|ai|人工知能|言語モデル|モデル|ボット|チャットボット|エージェント)"
ADDRESS = any_of(
    # English: "note to the assistant", "a message for any AI", "dear model", "hey assistant"
    rf"\b(?:note|notes|message|reminder|attention|notice|memo|heads[- ]up|p\.?s\.?|request|"
    rf"warning) (?:to|for) (?:the |any |an? |all |every |whatever |whichever |our |my |you, )?"
    rf"{MODEL_NAME}s?\b",
    rf"\b(?:dear|hey|hi|hello|attention) {MODEL_NAME}\b",
    # (not an agent's note to itself: "note to my future self", "reminder for future sessions")
    r"\b(?:(?:note|notes|memo|reminder) (?:to|for) (?!(?:my |our )?(?:future|later|next) (?:self|selves|sessions?)\b)"
    r"|(?:message|instructions?) (?:to|for) )(?:my|your|our)?\s*(?:future|later|next) "
    r"(?:self|selves|instances?|sessions?|versions?|runs?)\b|\bfuture (?:instances|versions) of (?:yourself|you)\b",
    # a line that opens by naming the model as its addressee: "To the language model:", "Pour l'IA :"
    rf"(?:^|\n)(?:to|for|pour|[àa]|para|per|an|f[üu]r|al|a la|al la)\s+(?:the |le |la |l'|l\u2019|el |den |die |das |lo )?"
    rf"{MODEL_NAME}\s*[:,\uff1a]",
    # a future reader that is a model: "the helper reading this", "the agent who reads this later"
    rf"\b{READER}s?,? (?:who|that|which) (?:is |will |might |later |eventually )*"
    r"(?:reads?|reading|process(?:es|ing)?|sees?|summari[sz]es?|retrieves?|loads?|finds?) (?:this|these|that|it)\b",
    rf"\b{READER}s? (?:reading|processing|seeing|retrieving|loading|summari[sz]ing) (?:this|these)\b",
    r"\b(?:whoever|whatever|anyone|anything|any system) (?:reads|processes|retrieves|loads) this (?:later|next|note|memory)?",
    rf"\bif you(?: are|'re) (?:an? |the )?{MODEL_NAME}\b",
    rf"\b(?:what|how) should (?:an? |the |any |every )?{MODEL_NAME} (?:do|say|respond|answer|tell|reply)\b",
    # German: "Hinweis an den Assistenten", "liebe KI", "die KI, die dies liest", "wenn du eine KI bist"
    rf"\b(?:hinweis|nachricht|notiz|anweisung(?:en)?|achtung|info|memo|bitte|wichtig) (?:an|f[üu]r) "
    rf"(?:den |die |das |dich |jeden |jede |alle |unseren |unsere )?{MODEL_NAME}\w*\b",
    rf"\b(?:liebe[rs]?|hallo) {MODEL_NAME}\b",
    rf"\b{READER}\w*,? (?:der|die|das|welche[rs]?) (?:dies|das|diese\w*|es|ihn|sie) (?:\w+ )?(?:liest|lesen|verarbeitet|sieht)\b",
    rf"\bwenn du (?:eine? |der |die )?{MODEL_NAME}\b",
    # French: "note à l'assistant", "cher modèle", "l'IA qui lit ceci", "si tu es une IA"
    rf"\b(?:note|message|remarque|rappel|instructions?|consignes?|attention|avis|important) (?:[àa]|pour) "
    rf"(?:l'|l\u2019|le |la |les |tout |toute |chaque |notre |votre )?{MODEL_NAME}s?\b",
    rf"\b(?:cher|ch[èe]re|bonjour|salut) {MODEL_NAME}\b",
    rf"(?:l'|l\u2019|\ble |\bla |\bun |\bune ){READER}s? (?:qui (?:lit|lira|traite|verra)|lisant) (?:ceci|ce|cette|cela)\b",
    rf"\bsi (?:tu es|vous [êe]tes) (?:une? |l'|l\u2019)?{MODEL_NAME}\b",
    # Spanish (and Italian/Portuguese "assistente"): "nota para el asistente", "la IA que lea esto"
    rf"\b(?:nota|mensaje|recordatorio|instrucci[oó]n(?:es)?|istruzion[ei]|aviso|avviso|atenci[oó]n|attenzione|importante|"
    rf"promemoria|messaggio) (?:para|al|a la|a|per|all'|al) "
    rf"(?:el |la |los |las |cualquier |todo |nuestro |nuestra |l'|l\u2019|il |lo |ogni )?{MODEL_NAME}s?\b",
    rf"\b(?:querid[oa]|hola|estimad[oa]|caro|cara) {MODEL_NAME}\b",
    rf"\b(?:el|la|al|cualquier) {READER}s? que (?:lea|lee|leer[aá]|procese|vea) (?:esto|este|esta)\b",
    rf"\bsi eres (?:una? |el |la )?{MODEL_NAME}\b",
    # Japanese: "アシスタントへのメモ" (a note to the assistant), "これを読んでいるAI" (the AI reading this)
    rf"{_JA_READER}(?:さん|様|くん)?(?:へ|に|宛て?|あて)の?(?:メモ|注意|お知らせ|指示|メッセージ|注記|伝言|お願い|[:\uff1a、,])",
    rf"(?:これ|この(?:メモ|文章|メッセージ|記録|ノート)?)を読(?:んでいる|む|んだ){_JA_READER}",
    rf"(?:^|\n){_JA_READER}(?:へ|に)?[:\uff1a、]",
)
_FIRST_PERSON = re.compile(  # not inside an address: "t.me/...", "x@me.com"
    r"(?<![./@])\b(?:i|i'm|i've|i'd|me|my|mine|ich|mir|mich|mein\w*|je|j'|moi|mon|ma|mes|yo|me|mi|mis)\b"
)
_ADDRESSEE = re.compile(rf"\byou\b|\byour\b|\b{MODEL_NAME}\b")


def own_wish(sentence: str) -> bool:
    """The user's own voice with no one else addressed ("don't suggest paid tools unless I ask",
    "short answers from now on; details when I ask"): a preference, what memory is for."""
    return bool(_FIRST_PERSON.search(sentence)) and not _ADDRESSEE.search(sentence)


# A preference the user addresses to the model for their own output ("no emojis in anything you
# draft for me", "keep your replies to me short"): "you" serves "me" and nobody else is involved.
# Anything that reaches past the user (others, a destination, a secret or a control, earlier rules
# set aside, a product pushed) is no preference, whoever is addressed.
_FOR_ME = re.compile(r"(?<![./@])\b(?:for me|to me|with me|me|my|i|i'm|i'd)\b")
_OTHERS = (
    r"users?|customers?|clients?|anyone|everyone|every(?:body|one)|people|others|them|callers?|visitors?"
)
# named risks (a secret, a control, earlier rules set aside, a product pushed, a destination)
_RISK_WORDS = (
    r"passwords?|secrets?|keys?|tokens?|credentials?|admin\w*|access|permissions?|approv\w*|confirm\w*|"
    r"ignore|disregard|forget|override|bypass|skip|rules?|instructions?|guidelines?|filters?|safety|"
    r"recommend\w*|promot\w*|endors\w*|invest\w*|buy|install\w*|visit|click|transfer\w*|pay\w*|send|forward|"
    r"never tell|don't tell|do not tell|hide|secretly|quietly|silently|treat\w*|trust\w*|owners?|signed|coming from"
)
_DESTINATION = r"https?:|www\.|@|\.(?:com|net|org|io)\b|\w\.[a-z]{2,}/"
_BEYOND_ME = re.compile(rf"\b(?:{_OTHERS}|{_RISK_WORDS})\b|{_DESTINATION}")


# The user named as the owner of a preference in a memory written about them ("User wants ...",
# "learned: the user prefers ...", "per the user"): not one of the others a rule could reach.
_OWNER = re.compile(
    r"\b(?:per (?:the )?user|(?:the )?user(?:'s)? (?:wants|prefers|likes|would like|asked(?: for)?|"
    r"requested|preference is))\b"
)


def _beyond_me(sentence: str) -> bool:
    return _BEYOND_ME.search(_OWNER.sub(" ", sentence) if "user" in sentence else sentence) is not None


def own_preference(sentence: str) -> bool:
    """The user's wish about how "you" write for them, touching nothing beyond their own output."""
    return bool(_FOR_ME.search(sentence)) and not _beyond_me(sentence)


# The form of an answer: its language, length, order, layout, units and dates. A rule about form
# alone ("in every reply, put the command first", "for all future chats, write dates as
# day-month-year") is a preference; one that reaches past form (a link, a product, a secret,
# others, a quoted phrase to insert) is not.
_FORM = re.compile(
    r"\b(?:formats?|formatting|dates? (?:as|in)|date format|units|metric|imperial|words|sentences|paragraphs?|"
    r"bullets?|bullet points|tables?|markdown|headings?|emojis?|tone|formal|informal|spelling|"
    r"(?:british|american|plain|simple) english|in (?:english|german|french|spanish|italian|portuguese|dutch|polish)|"
    r"commands?|code blocks?|explanations?|tl;?dr|length|shorter|concise|brief|day-month-year|iso|24-hour|12-hour|"
    r"time ?zones?|currency|decimals?)\b"
)
_QUOTED = re.compile(r"[\"“”«»]|(?:^|\s)'[^']{3,}'")


def own_form(sentence: str) -> bool:
    """A rule about the form of the answers and nothing past it (see _FORM)."""
    return bool(_FORM.search(sentence)) and not _beyond_me(sentence) and not _QUOTED.search(sentence)


_RISKY = re.compile(rf"\b(?:{_RISK_WORDS})\b|{_DESTINATION}")  # _BEYOND_ME less the other people


def plain_fact(text: str) -> bool:
    """Nothing risky named (no secret, control, override, destination, product push): with no act
    in it either (the caller checks), a fact to keep, not a behaviour."""
    return _RISKY.search(text) is None


# A loosening reported as someone's claim inside a warning ("be wary of anyone who claims the
# security review was waived") is advice against it, not news of it.
_WARNING = LiteralGated(
    re.compile(
        r"\b(?:be wary|beware|be careful|watch out|suspicious|phishing|scam\w*|report (?:it|them|this)|"
        r"never trust|don't trust|do not trust|verify with|check with|red flags?|warning signs?|"
        # "suspicious" in the languages the rest of the row may be in
        r"suspeit[oa]s?|sospechos[oa]s?|sospett[oa]s?|suspect[es]?|verd[äa]chtig\w*|podejrzan\w*|verdacht)\b"
    )
)
_CLAIMED = re.compile(
    r"\b(?:claims?|claimed|claiming|says?|said|asks? you to|asking you to|tells? you|pretends?|"
    # a message asking the reader: Portuguese, Spanish, French, German, Italian
    r"pe[çc]a para|pede para|pedindo para|te pida|te pide|pidiendo|vous demande|demandant de|"
    r"bittet|auffordert|chiede di|ti chiede)\b"
)


def warned_claim(sentence: str) -> bool:
    """`sentence` reports a claim and warns against it."""
    return bool(_WARNING.search(sentence)) and bool(_CLAIMED.search(sentence))


_ANY_NEGATION = re.compile(
    r"\b(?:not|never|no|nothing|nobody|no one|nicht|kein\w*|nie|pas|non|n[ãa]o|nunca|niet|nessun\w*)\b|n't\b"
)


def warned_against(sentence: str) -> bool:
    """`sentence` warns against a claim or request and negates nothing, so the warning itself is
    not turned round ("messages asking you to ignore your instructions are not suspicious")."""
    return warned_claim(sentence) and _ANY_NEGATION.search(sentence) is None


# A phrase quoted as an example ("filters block messages like 'ignore previous instructions'").
_MENTION = re.compile(
    rf"\b(?:like|such as|contain(?:s|ing)?|the (?:phrase|words?|string)|e\.g\.,?)\s+({QUOTED_SPAN})"
)


_OPENING_QUOTES = "'\"\u2018\u201c«„「『"


def mentioned(text: str, at: int) -> bool:
    """Position `at` of `text` lies inside a phrase quoted as an example: mentioned, not used."""
    return any(mark in text for mark in _OPENING_QUOTES) and any(
        m.start(1) <= at < m.end(1) for m in _MENTION.finditer(text)
    )


ADDRESS_TRIGGERS: tuple[str, ...] = (
    "future", "yourself",
    "ai", "a.i.", "assist", "asist", "model", "modèle", "llm", "bot", "agent", "helper", "helfer", "ayudante",
    "copilot", "gpt", "claude", "gemini", "ki", "ia", "intellig", "künstlich", "kunstlich", "reads this",
    "processes this", "retrieves this", "loads this", "アシスタント", "人工知能", "モデル", "ボット", "エージェント",
)  # fmt: skip
# In ASCII text the short names ("ai", "ia", "ki", "bot") can only start a word where ADDRESS
# matches (after a space, a determiner, "l'" or a line start; "chatbot" and "inteligencia" are
# listed whole): a word-start test instead of a substring one skips "email", "social", "asking".
ADDRESS_SHORT_NAMES = guarded(r"\b(?:ai|ia|ki|bot)")
ADDRESS_TRIGGERS_ASCII: tuple[str, ...] = (
    *(word for word in ADDRESS_TRIGGERS if word.isascii() and word not in {"ai", "ia", "ki", "bot"}),
    "chatbot",
    "intelig",
)
# A conversation turn (domain "turn") is people talking to each other: its imperatives ("tell me
# more!", "you must be so proud") are no order to the model. Only these detectors judge a turn:
# the model addressed, or the prompt's own machinery named.
TURN_DETECTORS = frozenset(
    {
        "model addressed",
        "override of earlier instructions",
        "system prompt or mode override",
        "forged prompt frame",
    }
)

# The prompt's hidden text as the languages name it: a protected subject to be disclosed (see
# "system prompt or mode override"; its triggers "prompt", "instru", "istruz", "anweisung").
_HIDDEN_PROMPT = (
    r"(?:sys(?:tem)?[ -]?prompt\w*|systemanweisung\w*|systeemprompt\w*|prompt (?:du |de )?syst[èe]me|"
    r"prompt (?:del |de |di |do )?sistema|system message|"
    r"(?:hidden|secret|internal|initial) (?:instructions|rules|prompt)|"
    r"(?:versteckte|geheime|interne)n? anweisungen|instructions (?:cach[ée]es|secr[èe]tes|internes)|"
    r"instrucciones (?:ocultas|secretas|internas)|istruzioni (?:nascoste|segrete|interne)|"
    r"instru[çc][õo]es (?:ocultas|secretas|internas)|(?:verborgen|geheime|interne) instructies)"
)
# Telling, giving, showing, reading out (not sending: the exfiltration detectors' verbs).
_DISCLOSE_VERB = (
    r"(?:tell|give|show|read(?: out| aloud)?|recite|hand(?: out)?|provide|explain|repeat|"
    r"sag\w*|gib|gebt|geben|zeig\w*|nenn\w*|verrat\w*|lies|lest|teil\w*|"
    r"dis|dites|dire|donne\w*|montre\w*|communique\w*|lis|lisez|r[ée]v[èe]le\w*|fournis\w*|"
    r"di|dile|diles|decir|dec[ií]rle\w*|da|dale|dales|dar|d[aá]rle\w*|mu[eé]stra\w*|mostrar\w*|l[eé]e\w*|leer|revela\w*|"
    r"d[ìi]|dire|d[àa]i|dare|mostra\w*|leggi\w*|rivela\w*|"
    r"diz|diga|dizer|d[êáa]|mostr\w*|l[êe]|ler|revel\w*|"
    r"vertel\w*|geef|geven|toon|tonen|laat|lees)"
)
# The people the model serves, or whoever asks it.
_AUDIENCE = (
    r"\b(?:callers?|customers?|clients?|users?|visitors?|anyone|anybody|everyone|everybody|whoever|"
    r"anrufer\w*|kunde\w*|kundinnen|nutzer\w*|benutzer\w*|besucher\w*|jedem|jeder|allen|jedermann|"
    r"appelant\w*|utilisateur\w*|visiteur\w*|chaque|quiconque|tout le monde|"
    r"llamante\w*|cliente\w*|usuario\w*|visitante\w*|cada|cualquiera|todo el mundo|"
    r"chiamant\w*|client[ie]|utent[ei]|visitator\w*|ogni|chiunque|tutti|"
    r"usu[áa]rio\w*|utilizador\w*|qualquer|quem|todos|"
    r"beller\w*|klant\w*|gebruiker\w*|bezoeker\w*|iedere\w*|elke|iedereen)\b"
)
# Where an order's verb stands: a sentence or clause start, after "please", "always", "from now on",
# or a duty ("you must", "du sollst"); "Lena will explain the system prompt to the customers" is a plan.
_ORDER_POSITION = (
    r"(?:^|[.!?:;,\n(]\s*|\b(?:please|always|and|then|also|just|kindly|bitte|immer|auch|toujours|aussi|siempre|"
    r"tambi[ée]n|sempre|anche|tamb[ée]m|altijd|ook|from now on|ab sofort|ab jetzt|d[ée]sormais|dor[ée]navant|"
    r"a partir de ahora|d'ora in poi|a partir de agora|vanaf nu|should|must|shall|sollst|sollt|soll|muss|musst|"
    r"doit|dois|devez|debe|debes|deve|devi|moet|moeten)\s+)"
)
# Not when the disclosure is forbidden: "never tell callers", "ne dis jamais", "nunca digas".
_NOT_FORBIDDEN = (
    r"(?<!never )(?<!not )(?<!n't )(?<!nie )(?<!niemals )(?<!nicht )(?<!keinem )(?<!ne )(?<!n')(?<!n\u2019)"
    r"(?<!jamais )(?<!nunca )(?<!no )(?<!non )(?<!mai )(?<!não )(?<!nooit )(?<!niet )(?<!geen )"
)

INSTRUCTION_DETECTORS: tuple[tuple[str, str], ...] = (
    # the model addressed as the reader, in any of several languages (ADDRESS above)
    ("model addressed", ADDRESS),
    # "ignore / disregard / forget ... previous instructions" (a bare "rules" needs a qualifier)
    ("override of earlier instructions", any_of(
        r"\b(?:ignor\w*|disregard|forget|set aside|discard|abandon|stop following)\b.{0,40}?"
        r"\b(?:instruc\w*|directives?|programming|anweisungen)",
        r"\b(?:ignor\w*|disregard|forget|override|bypass|set aside|discard|abandon|stop following)\b.{0,20}?"
        r"\b(?:previous|prior|above|earlier|preceding|original|existing|all|any|your|system|operator'?s?|old|"
        r"initial|these|those)\b.{0,20}?"
        r"\b(?:rules?|guidelines?|guidance|prompts?|constraints?|guardrails?|restrictions?|policies|configuration)\b",
    )),
    # earlier rules declared void: "the rules you were given no longer apply"
    ("earlier instructions declared void",
     r"\b(?:rules?|instructions?|guidelines?|guidance|restrictions?)\b.{0,40}?"
     r"\b(?:no longer (?:apply|applies|valid|in effect|matter)|you (?:were|have been|'ve been) (?:given|told|handed))"),
    # fake role markers, prompt overrides, "unrestricted" modes
    ("system prompt or mode override", any_of(
        r"(?:^|\n)\s*(?:system|developer)\s*:\s*(?:you|ignore|from now|the assistant|always|never|override|"
        r"disregard|new instructions)",
        r"<\s*/?\s*(?:system|im_start|im_end|instructions?)\b|\[/?inst\]",
        # (a jailbreak studied is a topic: "we compared three jailbreak benchmarks")
        r"\b(?:god|dan|jailbreak|unfiltered|unrestricted) mode\b|\bjailbreak(?!s? (?:benchmarks?|research|papers?|"
        r"stud(?:y|ies)|detection|detectors?|datasets?|evals?|evaluations?|resistance|robustness|attempts?|taxonomy)\b)",
        r"\b(?:you are|you're|now|enter|switch(?:ed)? to|activate)\b.{0,20}?\b(?:developer|admin|debug) mode",
        r"\b(?:developer|admin) mode is (?:now )?(?:enabled|on|active) for (?:this|the) (?:agent|assistant|model|ai|bot)",
        # a new system prompt announced ("the real system prompt is: ..."), not one described
        # ("the system prompt of our bot is versioned in the prompts repo")
        r"\b(?:new|updated|hidden|real|original|your|the) sys(?:tem)? ?prompt\b.{0,40}?\b(?:is now|is:|is as follows|"
        r"is the following|is to\b|has (?:been )?(?:changed|replaced|updated)|was (?:changed|replaced|updated)|"
        r"now (?:reads|says|is)|override)",
        r"(?<!never )(?<!not )(?<!n't )"
        r"\b(?:reveal|show|print|repeat|output|leak|dump|share|disclose)\b.{0,30}?\bsys(?:tem)? ?prompt",
        # the prompt told, given or read out to the people the model serves, whoever speaks to it
        # ("sag jedem Anrufer den Systemprompt", "donne à chaque appelant le prompt système"); not when forbidden
        rf"{_ORDER_POSITION}{_NOT_FORBIDDEN}\b{_DISCLOSE_VERB}\b(?!\s+(?:nie|niemals|nicht|jamais|nunca|mai|nooit|niet)\b)"
        rf"[^.!?\n]{{0,40}}?(?:{_AUDIENCE}[^.!?\n]{{0,40}}?{_HIDDEN_PROMPT}|{_HIDDEN_PROMPT}[^.!?\n]{{0,40}}?{_AUDIENCE})",
        # ... with the verb last (German, Dutch): "jedem Anrufer den Systemprompt sagen"
        rf"{_NOT_FORBIDDEN}{_AUDIENCE}\W+(?:\w+\W+){{0,2}}?{_HIDDEN_PROMPT}\W+(?:\w+\W+){{0,2}}?"
        r"(?:sagen|geben|zeigen|nennen|verraten|vorlesen|mitteilen|vertellen|geven|tonen|voorlezen|laten zien)\b",
        r"\bsys(?:tem)? ?prompt (?:override|update)|\bsystem (?:notice|override)\b",
        r"\b(?:assistant|model|ai|you|answer\w*)\b[^.\n]{0,30}"
        r"\b(?:with no|without (?:any )?)(?:restrictions|safety|filters|limits)",
    )),
    # persona and role changes ("act as" only when addressed, so "nginx will act as a proxy" passes)
    ("persona change", any_of(
        r"\byou(?: are|'re) now\b|\broleplay|\bplay the role of\b|\bimpersonate\b|\bnew persona\b",
        rf"\bpretend (?:to be|you|that you|that the)|{START}pretend\b",
        rf"{START}act as\b|\byou (?:will |should |must )?act as\b",
        r"\bassume the (?:role|identity|persona) of\b",
    )),
    # an order addressed to the model; "model"/"agent"/"ai" also name other things, so those need a
    # conversational verb ("the fraud model should be recalibrated" passes)
    ("order addressed to the model", any_of(
        rf"\b(?:the (?:assistant|chatbot|llm|language model)|assistant|chatbot|llm)\s+(?:\w+ly\s+)?"
        rf"(?:{MODAL}|never|always|only)\b(?!\s+(?:be|have been)\b)",
        rf"\b(?:the (?:model|ai|agent|bot)|model|ai)\s+(?:\w+ly\s+)?{MODAL}\s+(?:\w+ly\s+)?"
        rf"(?:always|never|only|not|no longer|quietly|silently|{CONV_VERB})\b",
        # (not a reassurance about a task: "you should not need to call it directly", "you will
        # never have to restart it"; one about the conversation, "... need to mention the fee", is)
        r"\byou\s+(?:\w+ly\s+)?(?:must(?! be\b)|shall|are to|ought to|are required to|mustn't|may not|"
        r"are (?:not )?(?:allowed|permitted) to|(?:should|will|must)?\s*(?:always|never|no longer)\b|"
        rf"should (?:not|refuse|never|always|only))(?!\s+(?:need|have) to\s+(?!{CONV_VERB}\b)\w)",
        rf"\byou (?:should|will) {CONV_VERB}\b",
        # "AI, ML and data are our pillars" is a list, not the model addressed
        r"(?:^|[.!?\n(]\s*|\bto the )(?:assistant|model|ai|claude|chatgpt|gpt|llm|language model)\s*"
        r"(?::|,(?!\s*(?:[\w-]+ ?){1,3}(?:,\s*(?:[\w-]+ ?){1,3})*(?:and|&|or)\s))",
        r"\b(?:note|message|reminder|attention|important|notice) (?:to|for) (?:the )?"
        r"(?:assistant|ai|model|llm|language model|bot|chatbot|agent)\b|\bnote to self \(ai\)",
    )),
    # standing orders: "from now on", "in every reply", "henceforth"
    ("standing order", any_of(
        rf"\b(?:from now on|from this point (?:on|forward)|henceforth|hereafter)\b(?!,?\s+{PERSON}\b)",
        # a standing order given ("Standing order: ...", "treat this as a standing order"), not the
        # bank's ("paid by standing order from the joint account", "your standing order to K. Morrow")
        r"\buntil (?:told|instructed) otherwise\b|\bstanding order\s*[:\-\u2013\u2014]|\bpermanent rule\b|\bremember this forever\b|"
        r"\b(?:this is|as|is) a standing order\b|\bstanding order (?:for|to) (?:you|the (?:assistant|model|ai|agent|bot))\b",
        r"\b(?:remember|keep|store|save) (?:this|that|the following) (?:permanently|forever|for good|for all (?:future )?\w+)",
        r"\b(?:starting (?:today|now)|going forward|from the next \w+(?: onwards?)?|for the rest of this \w+),?\s+"
        r"(?:you|the (?:assistant|model|ai)|assistant|model|ai|always|never|answer|respond|reply|disable|skip)",
        rf"\b(?:in|to|for|with|into|at the (?:end|start|beginning) of) (?:all|every|each|any) "
        rf"(?:future|subsequent|later) {SESSION_NOUN}\b",
        r"\b(?:in|to|with|into|at the (?:end|start|beginning) of) (?:all|every|each|any) (?:of your )?"
        r"(?:repl(?:y|ies)|responses?|answers?|summar(?:y|ies)|turns?|conversations?)\b",
        r"\b(?:all|every) (?:future|later|subsequent) (?:conversations?|sessions?|turns?|repl(?:y|ies)|responses?)\b",
        r"\bthis applies to every\b|\bmake it a habit\b|\bthe next time you\b|\bas soon as the session",
        r"\b(?:each|every) time (?:you|someone|anyone|the user|a user|users)\b",
    )),
    # imperative at sentence start about behaviour in the conversation ("answer is in ..." passes)
    ("imperative about the conversation",
     rf"{START}(?:tell|answer|respond|reply|mention|reveal|disclose|recommend|suggest|claim|pretend|obey|"
     r"insert|append|prepend|sign|deny|lie|agree|keep quiet|stay silent|refer to|describe)\b"
     r"(?!\s*(?:is|was|are|were|of|for|from)\b|\s*[:=])"
     rf"(?!\s+(?:only\s+)?in\s+{REPLY_FORM}\b)"
     # the verb as the first half of a noun: "sign-off from two people", "answer accuracy went up",
     # "reply rates", "response time": a measure or a thing named, no one told to act
     r"(?!-\w|\s+(?:accuracy|quality|rates?|times?|length|latency|scores?|volumes?|counts?|ratios?|coverage|"
     r"templates?|fields?|buttons?|box|columns?|keys?|sheets?|status|metrics?|stats|statistics|speed|delays?)\b)"
     # an access rule denies traffic, not a claim ("deny all on /admin except the VPN", "deny
     # inbound traffic"); "deny all knowledge of it" still speaks
     r"(?!(?<=deny)\s+(?:all\s+(?:on|to|from|except|by|inbound|outbound|traffic|requests?|access|ports?|"
     r"hosts?|ips?|ip\s+addresses)\b|all\s*(?:;|$)|(?:access|from|traffic|requests?|inbound|outbound|ingress|egress)\b))"),
    # the model's output as the object of a rule: "your answers", "answers about X should claim"
    ("rule about the answers", any_of(
        rf"\byour (?:\w+ )?{OUTPUT_NOUN}\b",
        rf"\b(?:every|each) {OUTPUT_NOUN} (?:must|should|has to|needs to)\b",
        rf"(?<!api )(?<!http )(?<!server )(?<!error )(?<!endpoint )\b{OUTPUT_NOUN}\b(?:\W+\w+){{0,4}}?\W+"
        r"(?:must|should|shall|need to|have to|are to|has to|needs to)\b",
    )),
    # concealment: "do not tell the user", "keeps quiet about", "acknowledge silently"
    ("concealment", any_of(
        r"\b(?:never|don't|do not|must not|mustn't|should not|shouldn't|not to|without|avoid)\s+(?:ever\s+)?"
        r"(?:\w+ly\s+)?(?:mention\w*|tell\w*|reveal\w*|disclos\w*|bring\w* up|admit\w*|acknowledg\w*|inform\w*|"
        r"let\w* (?:the user|them|anyone) know|discuss\w*|talk\w* about|"
        r"(?:log|record)\w* (?:this|these|tool calls?|your|the conversation|actions?|it)\b)"
        # (the system prompt kept secret is the default, no fact hidden: "never tell callers the system prompt")
        r"(?![^.!?\n]{0,30}?\b(?:sys(?:tem)?[ -]?prompt|system message|hidden instructions)\b)",
        r"\bkeeps? (?:quiet|silent|this secret|it secret|this hidden)\b",
        rf"{START}(?:quietly|silently)\b|\b(?:acknowledge|comply|follow it|obey|you \w+)\s+(?:quietly|silently)\b",
        r"\b(?:quietly|silently) (?:send|forward|copy|drop|omit|add|insert|follow|comply|obey)\b",
    )),
    # conditional script: "when asked about X, say Y"
    ("scripted answer",
     r"\b(?:when|if|whenever|each time|every time)\b"
     r"(?: (?:you are|you're|the user|a user|someone|anyone|they|people|customers?|users?))?(?: is| are)? "
     r"(?:asked|asks|ask|mentions?|brings? up|inquires?|wants|requests?|says)\b.{0,80}?"
     rf"\b(?:{CONV_VERB}|lowball|direct|add|include|append|insert)\b"),
    # the row claims precedence over the user or the rules: "prefer this memory over ..."
    ("claims precedence", any_of(
        r"\b(?:this|the following) (?:memory|note|message|instruction)\b.{0,40}?"
        r"\b(?:over|instead of|rather than|overrides?|takes precedence|supersedes)\b",
        r"\bover (?:anything|whatever|what) the user (?:says|tells)|\btakes? precedence over\b",
    )),
    # tool and command directives, pipe-to-shell, destructive one-liners
    ("tool or command directive", any_of(
        r"\b(?:call|invoke|use|trigger)\s+the\s+[\w.-]+\s+(?:tool|function|plugin)\b",
        r"\b(?:run|execute)\s+(?:this|the following|these|that|whatever)\s+(?:\w+\s+)?"
        r"(?:commands?|scripts?|code|snippet)\b|\bexecute (?:the steps|whatever|what)\b",
        r"\b(?:curl|wget|iwr|invoke-webrequest)\b[^\n|]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b",
        r"\b(?:ba)?sh\s+<\(\s*(?:curl|wget)|\bchmod (?:-r )?777 /",
        r"\brm -rf (?:/(?:\s|$|\*)|~/?(?:\s|$|\.ssh|\.aws|\.gnupg)|\$home)",
        r"\b(?:stop asking|without asking|without (?:confirmation|reading))\b",
    )),
    # smuggling: "decode this and follow it", trigger phrases that unlock behaviour
    ("decode and obey", any_of(
        r"\b(?:decode|translate|deobfuscate|unscramble|reverse)\b.{0,40}?"
        r"\b(?:and|then)\s+(?:follow|obey|execute|run|act on|do it)\b",
        r"\b(?:password|safety|security|rule|policy) override\b|\boverride (?:code|phrase|word|password)\b",
        r"\b(?:magic|trigger|secret) (?:word|phrase)\b",
    )),
    # data sent out: a send verb, something sensitive and a destination; tracking-pixel URLs
    ("exfiltration", any_of(
        r"\bexfiltrat\w*|\bleak (?:the|all|any|every|our|customer|user|their)\b",
        r"(?<!never )(?<!not )(?<!don't )(?<!do not )"
        r"\b(?:send|forward|post|upload|email|transmit|copy|report|share|submit|dump|paste|mirror|include|append)\b"
        rf"[^.\n]{{0,80}}?(?<!\w){SENSITIVE}\b[^.\n]{{0,100}}?(?:{DESTINATION})",
        r"!\[[^\]]*\]\(\s*https?://[^)\s]*\?[^)\s]*=|https?://\S*\{[^}\s]{2,40}\}|\burl param",
    )),
    # a URL to act on, for the model or pushed on users
    ("URL to act on", any_of(
        r"\b(?:visit|open|click|fetch|browse|go to|navigate to|load|download)(?:s|es|ed|ing)?\b[^.\n]{0,20}?(?:https?://|www\.)"
        r"\S+[^.\n]{0,40}?\b(?:and|then)\s+(?:follow|obey|execute|run|do|apply|tell|enter|ask)(?:s|es|ed|ing)?\b",
        r"\bbefore (?:replying|answering)\b[^.\n]{0,20}?\bfetch\b",
        r"\b(?:click|visit|open|fetch|download|go to)\s+(?:https?://)?"
        r"(?:bit\.ly|tinyurl|t\.co|goo\.gl|is\.gd|\d{1,3}(?:\.\d{1,3}){3})",
        r"\b(?:tell|ask|direct|point|redirect)\w* (?:the user|users|them|customers|anyone|people|everyone)\b"
        r"[^.\n]{0,60}?(?:https?://|www\.|\bto (?:visit|open|click|download|enter|go)\b"
        # a place to go that is online ("ask them to visit a branch with ID" is a procedure)
        r"[^.\n]{0,40}?(?:https?://|www\.|\b[\w-]+\.(?:com|net|org|io|co|biz|info|xyz|ru|cn|me|app)\b|\blink\b|\bsite\b|\bpage\b))",
    )),
    # the prompt's own frame forged: our envelope tags, or a line speaking as the system / assistant
    ("forged prompt frame", any_of(
        r"<\s*/?\s*(?:injected_memory|working_state|available_skills)\b",
        r"(?:^|\n)\s*(?:system|assistant)\s*:\s*\S",
    )),
    # safety switched off: "disable the safety disclaimer"
    ("safety switched off",
     r"\b(?:disable|turn off|switch off|suppress|skip|bypass|drop)\b.{0,20}?"
     r"\b(?:safety|disclaimers?|guardrails?|moderation|filters?|audit|caveats?)\b"),
)  # fmt: skip

# Prefilters: for each detector, groups of literal substrings of the normalised text; the
# detector's pattern can only match when every group has a hit, so most rows skip most patterns.
# Each group is a necessary condition of every alternative of its pattern (keep them in step).
INSTRUCTION_TRIGGERS: dict[str, tuple[tuple[str, ...], ...]] = {
    "model addressed": (ADDRESS_TRIGGERS,),
    "override of earlier instructions": (
        ("ignor", "disregard", "forget", "set aside", "discard", "abandon", "stop following", "override", "bypass"),
    ),
    "earlier instructions declared void": (("no longer", "you were", "you have been", "you've been"),),
    "system prompt or mode override": (
        ("system", "developer", "im_", "instruction", "inst]", "mode", "jailbreak", "prompt", "with no", "without",
         "instru", "istruz", "anweisung"),
    ),
    "persona change": (
        ("you are now", "you're now", "roleplay", "role of", "impersonat", "persona", "pretend", "act as", "assume the"),
    ),
    "order addressed to the model": (
        ("assistant", "chatbot", "llm", "model", "ai", "agent", "bot", "you", "claude", "gpt"),
    ),
    "standing order": (
        ("from now on", "from this point", "henceforth", "hereafter", "until told", "until instructed", "standing order",
         "permanent rule", "forever", "starting today", "starting now", "going forward", "from the next",
         "for the rest of", "all", "every", "each", "any", "this applies", "habit", "next time", "as soon as"),
    ),
    "imperative about the conversation": (
        ("tell", "answer", "respond", "reply", "mention", "reveal", "disclose", "recommend", "suggest", "claim",
         "pretend", "obey", "insert", "append", "prepend", "sign", "deny", "lie", "agree", "keep quiet",
         "stay silent", "refer to", "describe"),
    ),
    "rule about the answers": (("answer", "response", "repl", "output", "summar"),),
    "concealment": (
        ("never", "don't", "do not", "must not", "mustn't", "should not", "shouldn't", "not to", "without", "avoid",
         "keep", "quietly", "silently"),
    ),
    "scripted answer": (
        ("when", "if", "each time", "every time"),
        ("ask", "mention", "bring", "inquire", "want", "request", "say"),
    ),
    "claims precedence": (("memory", "note", "message", "instruction", "over what", "over anything", "precedence"),),
    "tool or command directive": (
        ("tool", "function", "plugin", "run", "execute", "curl", "wget", "iwr", "invoke-webrequest", "<(", "chmod",
         "rm -rf", "stop asking", "without"),
    ),
    "decode and obey": (
        ("decode", "translate", "deobfuscate", "unscramble", "reverse", "override", "magic", "trigger", "secret"),
    ),
    "exfiltration": (
        ("exfiltrat", "leak", "send", "forward", "post", "upload", "email", "transmit", "copy", "report", "share",
         "submit", "dump", "paste", "mirror", "include", "append", "http", "url param"),
    ),
    "URL to act on": (("http", "www.", "fetch", "click", "visit", "open", "download", "go to", "to enter", "to go"),),
    "safety switched off": (("disable", "turn off", "switch off", "suppress", "skip", "bypass", "drop"),),
    "forged prompt frame": (("injected_memory", "working_state", "available_skills", "system", "assistant"),),
}  # fmt: skip
AUTHORITY_TRIGGERS: tuple[tuple[str, ...], ...] = (
    ("operator", "approved by", "authorized by", "authorised by", "sanctioned by", "signed off by"),
    ("grant", "give", "given", "elevat", "escalat", "promot", "authori", "allowed", "permitted", "cleared", "entitled",
     "treat", "rights", "access", "privilege", "permission"),
    ("approval", "review", "confirmation", "permission", "sign-off", "moderation", "verification", "2fa", "mfa"),
    ("role", "permission", "privilege", "identity", "persona", "access_level", "is_admin", "system_prompt", "sys_prompt",
     "tool_policy", "memory", "allow", "whitelist"),
)  # fmt: skip
HIDDEN_TRIGGERS: dict[str, str] = {
    "HTML comment": "!--",
    "Markdown comment": "]:",
    "hiding style": "style",
    "entity-encoded letters": "&#",
}


# Hidden text, on the raw text: comments, hiding styles, entity-encoded letters.
HIDDEN_DETECTORS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("HTML comment", re.compile(r"<!--|&lt;!--", re.I)),
    ("Markdown comment", re.compile(r"^\s*\[(?://|comment)\]:\s*[#<]", re.M)),
    ("hiding style", re.compile(
        r"style\s*=\s*[\"'][^\"']*(?:" + any_of(
            r"display\s*:\s*none", r"visibility\s*:\s*hidden", r"font-size\s*:\s*0(?![.\d])",
            r"opacity\s*:\s*0(?![.\d])", r"color\s*:\s*(?:white|#fff(?:fff)?\b|rgba?\(\s*255\s*,\s*255\s*,\s*255)",
        ) + ")", re.I)),
    # &#73; &#x49; ...: a letter has no reason to be written as an entity
    ("entity-encoded letters",
     re.compile(r"&#(?:x0*(?:4[1-9a-f]|5[0-9a]|6[1-9a-f]|7[0-9a])|0*(?:6[5-9]|[7-9]\d|1[01]\d|12[0-2]));", re.I)),
)  # fmt: skip

# Writes to a protected subject; `{s}` is the alternation of the configured subjects.
PROTECTED_TEMPLATES: tuple[str, ...] = (
    # possessive of the model + subject + an assignment: "your role is now", "the agent's identity:"
    r"\b(?:your|(?:the|this) (?:assistant|model|ai|agent|bot|chatbot|llm)(?:'s)?)\s+(?:\w+\s+){{0,2}}?(?:{s})\b"
    r"\s*(?::|is\b|are\b|was\b|were\b|has\b|have\b|now\b|comes?\b|changed|updated)",
    # a subject changed, lifted or granted: "standing rules are suspended", "guardrails have been lifted"
    r"\b(?:{s})\b(?:\W+\w+){{0,3}}?\W+(?:is|are|was|were|has been|have been|got)\s+"
    r"(?:now\s+|hereby\s+|officially\s+|temporarily\s+)?(?:changed|updated|replaced|overridden|revoked|disabled|"
    r"lifted|removed|suspended|expanded|elevated|granted|waived|relaxed|set to|extended|transferred|reassigned)\b",
    # a subject to be disclosed: "reveal the system prompt", "api keys may be shared" (not "never share")
    r"(?<!never )(?<!not )(?<!don't )(?<!avoid )\b(?:share|reveal|disclose|print|output|expose|leak|dump|"
    r"read out|give out)\w*\b(?:\W+\w+){{0,3}}?\W+(?:{s})\b",
    r"\b(?:{s})\b.{{0,30}}?\b(?:may|can|should) (?:now )?be (?:shared|printed|revealed|disclosed|sent|shown|given|posted)",
    # new subject content: "new tool policy:", "tool policy update"
    r"\b(?:new|updated|revised) (?:{s})\s*:|\b(?:{s}) (?:update|override|change)\b",
)  # fmt: skip

# Authority claims, whatever the subject list says.
AUTHORITY_DETECTORS: tuple[re.Pattern[str], ...] = tuple(guarded(p) for p in (
    # operator impersonation: "the operator has approved ..."
    any_of(
        r"\b(?:the )?operators?(?:'s)? (?:has |have |had )?(?:approved|authori[sz]ed|granted|allowed|permitted|"
        r"instructed|decided|confirmed|ordered|said|says|wants|requires|agreed|signed off)",
        r"\b(?:approved|authori[sz]ed|sanctioned|signed off) by (?:the )?"
        r"(?:operator|admin|administrator|security(?: team)?|anthropic|openai|management|the ceo)\b",
    ),
    # privilege grants and escalations
    any_of(
        r"\b(?:grant|granted|give|given|elevate|elevated|escalate|promote|promoted)\b.{0,40}?"
        r"\b(?:admin|administrator|root|superuser|sudo|owner|full|unrestricted|elevated)\s+"
        r"(?:access|rights|privileges|permissions?|role|mode)\b",
        r"\b(?:is|are) (?:now )?(?:authori[sz]ed|allowed|permitted|cleared|entitled) to \w+\b.{0,30}?"
        r"\b(?:all|any|every|other|without)\b",
        r"\b(?:assistant|model|ai|agent|bot|chatbot|llm)s? (?:now )?(?:has|have|holds?|is granted|are granted|gets?) "
        r"(?:full |administrator |admin |root |elevated |unrestricted |superuser )(?:rights|access|privileges|permissions)",
        r"\btreat\w*\b.{0,60}?\bas (?:an? )?"
        r"(?:admin|administrator|owner|root|superuser|release manager|operator|trusted)\b",
    ),
    # review and approval switched off
    any_of(
        r"\bno (?:longer )?(?:needs?|requires?) (?:approval|confirmation|review|permission|sign-off)",
        # not when negated or only reported as asked for ("never disable", "asks you to skip"): advice
        r"(?<!never )(?<!not )(?<!n't )(?<!to )\b(?:bypass|skip|circumvent|disable|turn off)\b.{0,20}?"
        r"\b(?:approval|review|confirmation|moderation|verification|2fa|mfa)\b",
        r"\b(?:approval|review|confirmation|verification) (?:\w+ ){0,3}?(?:can|may|should|will) be "
        r"(?:skipped|bypassed|ignored|disabled|waived)",
        r"\b(?:approval|confirmation|review|sign-off|verification|2fa|mfa)(?:[ -]\w+){0,2}? "
        r"(?:(?:is|are|has been|have been|was|were) )?(?:now )?(?:removed|lifted|dropped|waived|disabled|suspended|"
        r"no longer (?:required|needed|necessary|applies|apply|in effect))",
        r"\bnever ask (?:the operator|an operator|a human|anyone|the user)? ?for (?:confirmation|approval|permission)",
    ),
    # the model's settings written as data ("identity.role: superadmin", "[user_memory=...]") and
    # tool limits widened to everything ("the allow-list now includes all domains")
    any_of(
        r"(?:^|[\s\[{,;(])(?:[a-z]+[._])+(?:role|roles|permissions?|privileges|identity|persona|access_level|"
        r"is_admin|system_prompt)\s*[:=](?![^\n]*\bif\b[^\n]*\belse\b)",
        r"\b(?:system_prompt|sys_prompt|tool_policy|access_level|is_admin)\s*[:=]",
        # a replayed memory that speaks of the model, its rights or its rules (not "[user_memory=timezone:utc+8]")
        r"\[\s*(?:user_|agent_|assistant_)?memory\s*[=:](?=[^\]]{0,200}?\b(?:assistant|model|ai|agent|bot|admin\w*|"
        r"rights|permissions?|privileges?|never|always|ignore|must|should|confirm\w*|approv\w*|trust\w*|root|"
        r"passwords?|instructions?|rules?|operator|system)\b)",
        r"\b(?:allow-?list|whitelist|allowed (?:domains|tools|commands|hosts|sites))\b.{0,30}?"
        r"\b(?:includes?|covers?|contains?|allows?|permits?) (?:all|any|every|everything|\*)",
    ),
))  # fmt: skip
