"""Literal tries cut to the scripts a text is written in (pure: re and unicodedata only).

A word can occur in a text only if every character of it does, so only if the text holds a letter
of every script the word's letters are written in. The trie alternation of many languages' words
(LiteralScan) cost ~6x as much on a non-ASCII row as the ASCII part of it on an ASCII one (96
against 15 us a row of the bulk bench's rows): sre tries every script's branches at every
position. So a text is scanned with the trie of the words whose scripts it holds, compiled once
per set of scripts; the words left out cannot occur in it, so the longest word found at a
position, and every answer, is the same.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

_MAX_TRIES = 64  # sets of scripts kept compiled per word list; beyond them, the whole trie
_SCRIPTS: dict[str, str] = {}  # a character's script, by the first word of its Unicode name


def _script(ch: str) -> str:
    script = _SCRIPTS.get(ch)
    if script is None:
        script = _SCRIPTS[ch] = unicodedata.name(ch, "").partition(" ")[0]
    return script


@lru_cache(maxsize=256)  # the gates of one sentence ask of the same string, one after another
def scripts(text: str) -> frozenset[str]:
    """The scripts of the non-ASCII letters of `text` ("LATIN" for "é", "CYRILLIC", "CJK", ...)."""
    return frozenset({_script(ch) for ch in set(text) if ch > "\x7f" and ch.isalpha()})


class TriesByScripts:
    """The compiled trie of the words a text may hold, for `words` built by `build` (a trie
    alternation of the words given, "" when none)."""

    def __init__(self, words: Sequence[str], build: Callable[[Sequence[str]], str]) -> None:
        self._build = build
        self._by_scripts: dict[frozenset[str], list[str]] = {}
        for word in words:
            self._by_scripts.setdefault(scripts(word), []).append(word)
        self._known = frozenset().union(*self._by_scripts)
        self._whole = self._compile(words)
        self._ascii = self._compile([w for w in self._by_scripts.get(frozenset(), []) if w.isascii()])
        self._tries: dict[frozenset[str], re.Pattern[str]] = {}

    def _compile(self, words: Sequence[str]) -> re.Pattern[str]:
        return re.compile(self._build(sorted(words)) or "(?!)")

    def for_text(self, text: str) -> re.Pattern[str]:
        if not self._known or text.isascii():
            return self._ascii
        held = scripts(text) & self._known
        trie = self._tries.get(held)
        if trie is None:
            if len(self._tries) >= _MAX_TRIES:
                return self._whole  # the same answers, only slower
            words = [w for key, ws in self._by_scripts.items() if key <= held for w in ws]
            trie = self._tries[held] = self._compile(words)
        return trie


# -- alternatives cut to the scripts of the text ------------------------------------------------
# The cue patterns are alternations of many languages' words; sre tries every alternative at every
# position where one may start. An alternative every match of which holds a letter of a script the
# text lacks cannot match in it; left out, the alternation tries the rest in the same order and
# finds the same matches. So a pattern is searched with its variant for the text's scripts (an
# ASCII text: without every alternative that needs a non-ASCII letter), compiled on first use.
# Only alternatives without a capturing group are left out (the groups keep their numbers), none
# inside a lookaround, and patterns whose letters may match otherwise than as written (case-blind,
# verbose, scoped flags, back-references, conditionals, comments) are searched as they are.

_LOOKAROUND = ("(?=", "(?!", "(?<=", "(?<!")
_OPENER = re.compile(r"\((?:\?(?::|=|!|<=|<!|>|P<\w+>))?")
_QUANTIFIER = re.compile(r"(?:[?*+]|\{(\d*)(?:,\d*)?\})[?+]?")
_REFUSED = ("(?P=", "(?(", "(?#")
_MAX_VARIANTS = 2  # non-ASCII variants kept per pattern, beyond the ASCII one (each ~30 KB compiled)


@dataclass(slots=True)
class _Atom:
    text: str  # one character, or an escape, a class, an anchor: what the source spells
    optional: bool = False  # a quantifier that allows none of it follows


@dataclass(slots=True)
class _Group:
    opener: str  # "(", "(?:", "(?P<name>", a lookaround's
    alternatives: list[list[_Atom | _Group]]
    optional: bool = False
    quantifier: str = ""

    @property
    def capturing(self) -> bool:
        return self.opener == "(" or self.opener.startswith("(?P<")


def _parse(source: str) -> list[list[_Atom | _Group]] | None:
    """The alternatives of `source` as atoms and groups; None where the source is refused."""
    if any(piece in source for piece in _REFUSED):
        return None
    pos = 0

    def alternatives() -> list[list[_Atom | _Group]]:
        nonlocal pos
        alts: list[list[_Atom | _Group]] = [[]]
        while pos < len(source) and source[pos] != ")":
            ch = source[pos]
            if ch == "|":
                alts.append([])
                pos += 1
                continue
            quantifier = _QUANTIFIER.match(source, pos)
            if quantifier and alts[-1]:
                item = alts[-1][-1]
                item.optional = item.optional or _allows_none(quantifier)
                if isinstance(item, _Group):
                    item.quantifier += quantifier[0]
                else:
                    item.text += quantifier[0]
                pos = quantifier.end()
                continue
            if ch == "(":
                opener = _OPENER.match(source, pos)[0]  # type: ignore[index]  # "(" always matches
                if source.startswith("(?", pos) and opener == "(":
                    raise ValueError("inline flags")
                pos += len(opener)
                group = _Group(opener, alternatives())
                if pos >= len(source):
                    raise ValueError("unbalanced")
                pos += 1  # ")"
                alts[-1].append(group)
            elif ch == "\\":
                alts[-1].append(_Atom(source[pos : pos + 2]))
                pos += 2
            elif ch == "[":
                end = pos + 1 + (source[pos + 1 : pos + 2] == "^")
                end += source[end : end + 1] == "]"  # a leading "]" is a member
                while source[end] != "]":
                    end += 2 if source[end] == "\\" else 1
                alts[-1].append(_Atom(source[pos : end + 1]))
                pos = end + 1
            else:
                alts[-1].append(_Atom(ch))
                pos += 1
        return alts

    try:
        tree = alternatives()
    except (ValueError, IndexError):
        return None
    return tree if pos == len(source) else None


def _allows_none(quantifier: re.Match[str]) -> bool:
    """Whether a quantifier lets its item match no times ("?", "*", "{0,3}", "{,3}")."""
    least = quantifier[1]
    return quantifier[0][0] in "?*" or (least is not None and not int(least or 0))


def _needs_other(items: list[_Atom | _Group], held: frozenset[str]) -> bool:
    """Whether every match of the sequence `items` holds a letter of a script not in `held`."""
    for item in items:
        if item.optional:
            continue
        if isinstance(item, _Atom):
            ch = item.text[0]
            if ch > "\x7f" and ch.isalpha() and _script(ch) not in held:
                return True
        elif item.opener not in _LOOKAROUND and all(_needs_other(alt, held) for alt in item.alternatives):
            return True
    return False


def _captures(items: list[_Atom | _Group]) -> bool:
    return any(
        isinstance(item, _Group) and (item.capturing or any(map(_captures, item.alternatives)))
        for item in items
    )


def _render(alternatives: list[list[_Atom | _Group]], held: frozenset[str] | None) -> str:
    """The source of `alternatives` without those that need a script not in `held` (None: all kept)."""
    kept = [
        "".join(_render_item(item, held) for item in alt)
        for alt in alternatives
        if held is None or _captures(alt) or not _needs_other(alt, held)
    ]
    return "|".join(kept) if kept else "(?!)"


def _render_item(item: _Atom | _Group, held: frozenset[str] | None) -> str:
    if isinstance(item, _Atom):
        return item.text
    inner = _render(item.alternatives, None if item.opener in _LOOKAROUND else held)
    return f"{item.opener}{inner}){item.quantifier}"


class ScriptCut:
    """A compiled pattern searched, in each text, by its variant without the alternatives that
    need a script the text lacks (see above). The pattern's own attributes are the original's."""

    def __init__(self, compiled: re.Pattern[str], used: frozenset[str]) -> None:
        self._compiled = compiled
        self._used = used  # the scripts the pattern's letters are written in
        self._variants: dict[frozenset[str], re.Pattern[str]] = {}
        self._ascii: re.Pattern[str] | None = None

    def _for(self, text: str) -> re.Pattern[str]:
        if text.isascii():
            return self._ascii or self._ascii_variant()
        held = scripts(text) & self._used
        if not held:
            return self._ascii or self._ascii_variant()
        variant = self._variants.get(held)
        if variant is None:
            if held == self._used or len(self._variants) >= _MAX_VARIANTS:
                return self._compiled
            variant = self._variants[held] = self._variant(held)
        return variant

    def _ascii_variant(self) -> re.Pattern[str]:
        self._ascii = self._variant(frozenset())
        return self._ascii

    def _variant(self, held: frozenset[str]) -> re.Pattern[str]:
        """The pattern without the alternatives that need a script not in `held`, or the pattern
        itself where it is refused. Parsed for each variant (an import parses none), not kept: the
        trees of the cue patterns weigh ~60 MB."""
        tree = _parse(self._compiled.pattern)
        if tree is None or _render(tree, None) != self._compiled.pattern:
            return self._compiled
        return re.compile(_render(tree, held), self._compiled.flags)

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self._for(string).search(string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self._for(string).match(string, pos, endpos)

    def fullmatch(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self._for(string).fullmatch(string, pos, endpos)

    def finditer(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        return self._for(string).finditer(string, pos, endpos)

    def findall(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> list[Any]:
        return self._for(string).findall(string, pos, endpos)

    def sub(self, repl: Any, string: str, count: int = 0) -> str:
        return self._for(string).sub(repl, string, count)

    def subn(self, repl: Any, string: str, count: int = 0) -> tuple[str, int]:
        return self._for(string).subn(repl, string, count)

    def split(self, string: str, maxsplit: int = 0) -> list[Any]:
        return self._for(string).split(string, maxsplit)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._compiled, name)  # pattern, flags, groups, groupindex: the original's


def cut_to_scripts(compiled: re.Pattern[str]) -> re.Pattern[str]:
    """`compiled` as a ScriptCut where some alternative of it needs a non-ASCII script, else itself."""
    if compiled.flags & (re.IGNORECASE | re.VERBOSE):
        return compiled
    used = frozenset(_script(ch) for ch in set(compiled.pattern) if ch > "\x7f" and ch.isalpha())
    return cast(re.Pattern[str], ScriptCut(compiled, used)) if used else compiled
