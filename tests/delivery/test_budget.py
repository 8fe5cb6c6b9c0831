"""delivery.budget: pure fitting and shedding (no database)."""

from __future__ import annotations

import pytest

from delivery.budget import (
    MIN_CEILING_CHARS,
    Envelope,
    FitResult,
    Item,
    Part,
    Shed,
    approx_tokens,
    ceiling_chars,
    fit,
)

ENV = Envelope(header="<env>", footer="</env>")


def lines(prefix: str, n: int, width: int = 10) -> tuple[Item, ...]:
    return tuple(Item(key=f"{prefix}{i}", text=f"{prefix}{i}".ljust(width, ".")) for i in range(n))


def parts(*, rag: int = 3, digest: int = 2, hot: int = 1, skills: int = 2, ws: bool = True) -> list[Part]:
    out = [
        Part(key="digest", label="D", items=lines("d", digest), priority=4, header="#D", in_envelope=True),
        Part(
            key="hot",
            label="H",
            items=lines("h", hot),
            priority=2,
            shed=Shed.NEVER,
            header="#H",
            in_envelope=True,
        ),
        Part(key="rag", label="R", items=lines("r", rag), priority=5, header="#R", in_envelope=True),
        Part(
            key="skills",
            label="S",
            items=tuple(
                Item(key=f"s{i}", text=f"- s{i}: a long description", short=f"- s{i}") for i in range(skills)
            ),
            priority=3,
            shed=Shed.REDUCE,
            header="<sk>",
            footer="</sk>",
        ),
    ]
    if ws:
        out.append(
            Part(
                key="ws",
                label="W",
                items=(Item(key="ws", text="doing x\nthen y"),),
                priority=1,
                shed=Shed.NEVER,
                header="<ws>",
                footer="</ws>",
            )
        )
    return out


FULL_TEXT = (
    "<env>\n"
    "#D\nd0........\nd1........\n\n"
    "#H\nh0........\n\n"
    "#R\nr0........\nr1........\nr2........\n"
    "</env>\n\n"
    "<sk>\n- s0: a long description\n- s1: a long description\n</sk>\n\n"
    "<ws>\ndoing x\nthen y\n</ws>"
)


def kept(result: FitResult, key: str) -> tuple[object, ...]:
    part = result.part(key)
    assert part is not None
    return part.kept_keys


def test_ceiling_is_pct_of_window_in_chars_with_floor():
    # 8% of 128k tokens = 10,240 tokens = 40,960 chars
    assert ceiling_chars(window_tokens=128_000, budget_pct=8) == 40_960
    # 8% of 32k = 10,240 chars: below the floor
    assert ceiling_chars(window_tokens=32_000, budget_pct=8) == MIN_CEILING_CHARS == 16_000
    assert ceiling_chars(window_tokens=0, budget_pct=8) is None
    assert ceiling_chars(window_tokens=128_000, budget_pct=0) is None
    assert approx_tokens(4003) == 1000


def test_unbounded_renders_everything_in_order():
    result = fit(parts(), ceiling=None, envelope=ENV)
    assert result.text == FULL_TEXT
    assert result.chars_used == len(FULL_TEXT)
    assert result.overflow == ()
    assert not result.over_budget
    assert [p.key for p in result.parts] == ["digest", "hot", "rag", "skills", "ws"]


def test_fits_exactly_at_the_ceiling_without_shedding():
    result = fit(parts(), ceiling=len(FULL_TEXT), envelope=ENV)
    assert result.text == FULL_TEXT
    assert result.overflow == ()


def test_rag_sheds_one_whole_hit_at_a_time_from_the_end():
    # one char over: the lowest-ranked hit (11 chars with its newline) goes, nothing else
    result = fit(parts(), ceiling=len(FULL_TEXT) - 1, envelope=ENV)
    assert kept(result, "rag") == ("r0", "r1")
    assert kept(result, "digest") == ("d0", "d1")
    assert result.chars_used == len(FULL_TEXT) - 11
    assert [(o.key, o.items_dropped, o.chars_dropped) for o in result.overflow] == [("rag", 1, 11)]
    assert "r2" not in result.text


def test_rag_section_drops_with_its_header_then_digest_sheds_from_the_end():
    # all of RAG (header + 3 lines + separator) is 3*11 + 2 + 2 = 37 chars; one more forces a digest entry
    result = fit(parts(), ceiling=len(FULL_TEXT) - 38, envelope=ENV)
    assert kept(result, "rag") == ()
    assert "#R" not in result.text
    assert kept(result, "digest") == ("d0",)
    overflow = {o.key: (o.items_dropped, o.chars_dropped) for o in result.overflow}
    assert overflow == {"rag": (3, 37), "digest": (1, 11)}
    assert result.chars_used == len(FULL_TEXT) - 48


def test_then_skill_descriptions_shed_one_row_at_a_time_down_to_names():
    # everything droppable gone (rag 37, digest 2*11+3+2=27) and one skill description (22 chars)
    result = fit(parts(), ceiling=len(FULL_TEXT) - 37 - 27 - 1, envelope=ENV)
    assert kept(result, "digest") == ()
    skills = result.part("skills")
    assert skills is not None
    assert skills.kept_keys == ("s0", "s1")
    assert skills.reduced_keys == ("s1",)
    assert skills.text == "<sk>\n- s0: a long description\n- s1\n</sk>"
    assert skills.truncated


def test_skill_names_are_the_floor_and_standing_context_is_never_shed():
    result = fit(parts(), ceiling=10, envelope=ENV)
    assert (
        result.text
        == "<env>\n#H\nh0........\n</env>\n\n<sk>\n- s0\n- s1\n</sk>\n\n<ws>\ndoing x\nthen y\n</ws>"
    )
    assert result.over_budget
    assert result.standing_chars == len("#H\nh0........") + len("<ws>\ndoing x\nthen y\n</ws>")
    overflow = {o.key: o.items_dropped for o in result.overflow}
    assert overflow == {"rag": 3, "digest": 2, "skills": 2}
    assert sum(o.chars_dropped for o in result.overflow) == len(FULL_TEXT) - result.chars_used


def test_envelope_disappears_when_no_envelope_part_remains():
    only_droppable = [
        Part(key="rag", label="R", items=lines("r", 2), priority=5, header="#R", in_envelope=True),
        Part(key="ws", label="W", items=(Item(key="ws", text="state"),), priority=1, shed=Shed.NEVER),
    ]
    result = fit(only_droppable, ceiling=5, envelope=ENV)
    assert result.text == "state"
    assert not result.over_budget


def test_custom_shed_sequence_and_renderer():
    seen: list[list[int]] = []

    def render(indexes):
        seen.append(list(indexes))
        return "\n".join(["DIGEST", *(f"entry {i}" for i in indexes)]) if indexes else ""

    digest = Part(key="digest", label="D", items=lines("d", 3), priority=4, render=render)
    skills = Part(
        key="skills",
        label="S",
        items=tuple(Item(key=n, text=f"- {n}: desc", short=f"- {n}") for n in ("a", "b", "c")),
        priority=3,
        shed=Shed.REDUCE,
        shed_sequence=(0, 2, 1),
    )
    full = fit([digest, skills], ceiling=None, envelope=ENV)
    assert full.text == "DIGEST\nentry 0\nentry 1\nentry 2\n\n- a: desc\n- b: desc\n- c: desc"
    result = fit([digest, skills], ceiling=len("- a\n- b: desc\n- c"), envelope=ENV)
    assert result.text == "- a\n- b: desc\n- c"
    assert seen[-1] == []  # the renderer is handed the kept indexes: none remain
    assert [0, 1] in seen  # one entry at a time, from the end
    assert result.part("skills").reduced_keys == ("a", "c")  # type: ignore[union-attr]
    assert result.part("digest").dropped_keys == ("d0", "d1", "d2")  # type: ignore[union-attr]


@pytest.mark.parametrize("ceiling", [None, *range(0, len(FULL_TEXT) + 2, 7)])
def test_size_accounting_matches_rendered_text(ceiling):
    result = fit(parts(), ceiling=ceiling, envelope=ENV)
    assert result.chars_used == len(result.text)
    dropped = sum(o.chars_dropped for o in result.overflow)
    assert dropped == len(FULL_TEXT) - result.chars_used
    if ceiling is not None and not result.over_budget:
        assert result.chars_used <= ceiling
    # every kept line appears whole
    for part in result.parts:
        for line in part.text.splitlines():
            assert line in FULL_TEXT.splitlines() or line.startswith("- s")


def test_shedding_stops_as_soon_as_it_fits():
    # shedding for RAG only; the digest and skills stay whole
    result = fit(parts(rag=5), ceiling=len(fit(parts(rag=2), ceiling=None, envelope=ENV).text), envelope=ENV)
    assert kept(result, "rag") == ("r0", "r1")
    assert kept(result, "digest") == ("d0", "d1")
    assert result.part("skills").reduced_keys == ()  # type: ignore[union-attr]
