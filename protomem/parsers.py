"""The API's only body parser: strict JSON, refused with a 400 (never a 500) when it is hostile.

What DRF's JSONParser lets through and this one refuses:
- bytes that are not UTF-8 (RFC 8259 §8.1: JSON between systems is UTF-8; a declared charset
  is ignored rather than trusted, so an unknown one cannot raise LookupError);
- nesting deeper than MAX_JSON_DEPTH (deep enough input makes json's C scanner raise
  RecursionError, which DRF does not catch);
- NUL characters and unpaired surrogates in strings or keys: SQLite stores them, PostgreSQL
  refuses them (text and jsonb), and a lone surrogate cannot even be encoded to UTF-8 on the
  way to the database;
- NaN / Infinity literals (not JSON).
The body size is bounded before this runs (DATA_UPLOAD_MAX_MEMORY_SIZE, answered 413).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import JSONParser

MAX_JSON_DEPTH = 32
# Only escapes can smuggle these in: strict json refuses raw control characters in strings, and
# text decoded from valid UTF-8 holds no surrogates.
_NUL_OR_SURROGATE_ESCAPE = re.compile(r"\\u(?:0000|[dD][89a-fA-F][0-9a-fA-F]{2})")


class PayloadTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "Request body too large."
    default_code = "payload_too_large"

    def __init__(self, *, limit: int | None = None) -> None:
        super().__init__(f"Request body too large (the limit is {limit} bytes)." if limit else None)


def _strict_constant(name: str) -> Any:
    raise ParseError(f"JSON parse error - {name} is not valid JSON.")


def _bad_string(text: str) -> str | None:
    if "\x00" in text:
        return "JSON strings may not contain NUL (\\u0000) characters."
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return "JSON strings may not contain unpaired surrogate escapes."
    return None


def check_json_value(value: Any, *, max_depth: int = MAX_JSON_DEPTH, check_strings: bool = True) -> None:
    """Raise ParseError if `value` nests deeper than max_depth or holds a NUL / lone surrogate."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping):
            children: Any = item.values()
            keys: Any = item.keys()
        elif isinstance(item, list):
            children, keys = item, ()
        else:
            if check_strings and isinstance(item, str) and (problem := _bad_string(item)):
                raise ParseError(problem)
            continue
        if depth > max_depth:
            raise ParseError(f"JSON nested deeper than {max_depth} levels.")
        if check_strings:
            for key in keys:
                if problem := _bad_string(key):
                    raise ParseError(problem)
        stack.extend((child, depth + 1) for child in children)


class StrictJSONParser(JSONParser):
    """application/json, UTF-8 only, bounded depth, no NUL / lone surrogates (400 otherwise)."""

    def parse(
        self, stream: IO[bytes] | None, media_type: str | None = None, parser_context: Any = None
    ) -> Any:
        if stream is None:
            return {}
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read() if limit is None else stream.read(limit + 1)
        if limit is not None and len(raw) > limit:
            raise PayloadTooLarge(limit=limit)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ParseError(f"Request body is not valid UTF-8 (bad byte at offset {exc.start}).") from None
        try:
            value = json.loads(text, parse_constant=_strict_constant)
        except RecursionError:
            raise ParseError(f"JSON nested deeper than {MAX_JSON_DEPTH} levels.") from None
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        check_json_value(value, check_strings=bool(_NUL_OR_SURROGATE_ESCAPE.search(text)))
        return value
