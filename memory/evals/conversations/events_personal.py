"""Personal threads: an injury, a hobby, a family occasion, a training goal, and standing
preferences (diet, fears, allergies, tastes) that open-domain questions have to infer from.
"""

from __future__ import annotations

from memory.evals.conversations.builder import Builder, Person, month_name

INJURIES = [
    (
        "sprained my ankle",
        "playing five-a-side football",
        "the physio has me doing balance exercises on a cushion",
    ),
    ("tore a muscle in my calf", "sprinting for a bus", "a sports massage and a lot of stretching"),
    ("hurt my lower back", "carrying a sofa up the stairs", "yoga twice a week, the physio swears by it"),
    ("broke my wrist", "slipping on ice outside the gym", "a cast for six weeks and then grip exercises"),
    ("got tendonitis in my elbow", "too much bouldering", "rest, ice, and a brace at night"),
]


def injury(b: Builder, p: Person, tag: str) -> None:
    hurt, how, rehab = b.unique(INJURIES)  # type: ignore[misc]
    s1, s2, s3 = b.stages(3)
    o = b.other(p)
    b.block(
        s1,
        [
            (o, b.pick(["Why are you walking funny?", "You sounded off on the phone, all ok?"])),
            (p, f"I {hurt} on {b.last_weekday(s1, 6).strftime('%A')}, {how}.", f"{tag}.hurt"),
            (o, "Ouch. Did you get it checked?"),
            (p, "Urgent care said nothing's broken... well, mostly. They told me to rest."),
        ],
    )
    b.block(
        s2,
        [
            (o, "How's the recovery going?"),
            (p, f"Slowly. What's helping is {rehab}.", f"{tag}.rehab"),
        ],
    )
    b.block(
        s3,
        [
            (
                p,
                b.pick(
                    [
                        "I'm fully back to normal, by the way. No pain at all this week.",
                        "Good news: the doctor signed me off, I'm healed.",
                    ]
                ),
                f"{tag}.healed",
            ),
            (o, "Finally! Celebrate carefully."),
        ],
    )
    b.ask("single_hop", f"How did {p.name} get injured?", how, f"{tag}.hurt")
    b.ask("temporal", f"In which month did {p.name} get hurt?", month_name(b.day(s1)), f"{tag}.hurt")
    b.ask(
        "multi_hop",
        f"What injury did {p.name} have and what helped with the recovery?",
        f"{hurt}; {rehab}",
        f"{tag}.hurt",
        f"{tag}.rehab",
    )
    b.ask(
        "temporal", f"By when had {p.name} recovered from the injury?", b.day(s3).isoformat(), f"{tag}.healed"
    )


HOBBIES = [
    (
        "pottery",
        "a wheel-throwing class at the arts centre",
        "my first bowl that didn't collapse",
        "a student exhibition",
        "Would {name} enjoy a weekend ceramics workshop?",
    ),
    (
        "climbing",
        "the bouldering gym near the station",
        "a purple V4 I'd been stuck on for weeks",
        "an indoor climbing competition",
        "Would {name} enjoy an outdoor crag trip?",
    ),
    (
        "chess",
        "a chess club in the back of a cafe",
        "beating the club champion in a blitz game",
        "a rapid tournament",
        "Would {name} like a book of classic grandmaster games?",
    ),
    (
        "guitar",
        "online lessons with a teacher in Seville",
        "playing a whole song without looking at my hands",
        "an open mic night",
        "Would {name} be interested in tickets to a flamenco concert?",
    ),
    (
        "sourdough baking",
        "a starter my neighbour gave me",
        "a loaf with a proper open crumb",
        "the village bake-off",
        "Would {name} appreciate a cast-iron dutch oven as a present?",
    ),
    (
        "birdwatching",
        "a group that meets at the wetlands on Sundays",
        "spotting a kingfisher",
        "the winter bird count",
        "Would {name} enjoy a guided nature reserve walk at dawn?",
    ),
    (
        "gardening",
        "an allotment plot I got off the waiting list",
        "my first proper tomato harvest",
        "the allotment society show",
        "Would {name} like a subscription to a seed catalogue?",
    ),
]


def hobby(b: Builder, p: Person, tag: str) -> None:
    name, where, win, event, open_q = b.unique(HOBBIES)  # type: ignore[misc]
    s1, s2, s3 = b.stages(3)
    o = b.other(p)
    b.block(
        s1,
        [
            (
                p,
                b.pick(
                    [
                        f"I've picked up a new thing: {name}. I go to {where}.",
                        f"So I started {name}, through {where}.",
                    ]
                ),
                f"{tag}.start",
            ),
            (o, b.pick(["Since when are you into that?", "Ha, I didn't see that coming."])),
            (p, "I needed something that isn't a screen. It's weirdly calming."),
        ],
    )
    b.block(
        s2,
        [
            (p, f"Proud moment this week: {win}!", f"{tag}.win"),
            (o, "Look at you! Progress."),
        ],
    )
    b.block(
        s3,
        [
            (p, f"I signed up for {event}. Terrified.", f"{tag}.event"),
            (o, "You'll be great. Tell me how it goes."),
        ],
    )
    b.ask("single_hop", f"Where does {p.name} do {name}?", where, f"{tag}.start")
    b.ask("temporal", f"When did {p.name} start {name}?", month_name(b.day(s1)), f"{tag}.start")
    b.ask(
        "multi_hop",
        f"What hobby did {p.name} take up and what event did {p.pronoun} sign up for?",
        f"{name}; {event}",
        f"{tag}.start",
        f"{tag}.event",
    )
    b.ask(
        "open_domain",
        open_q.format(name=p.name),
        f"likely yes: {p.pronoun} took up {name}",
        f"{tag}.start",
        f"{tag}.win",
    )


FAMILY = [
    ("wedding", "my sister Hannah", "a barn venue in the hills", "she's marrying her college boyfriend, Tom"),
    ("naming party", "my brother Jonas", "a community hall in Westbury", "their baby girl Ida turns one"),
    ("anniversary", "my parents", "a dinner boat on the lake", "forty years married"),
    (
        "graduation",
        "my little cousin Priya",
        "the old university hall",
        "a nursing degree, first in the family",
    ),
    ("retirement party", "my dad", "his favourite pub", "thirty-five years at the railway"),
]


def family(b: Builder, p: Person, tag: str) -> None:
    what, who, where, detail = b.unique(FAMILY)  # type: ignore[misc]
    s1, s2 = b.stages(2)
    o = b.other(p)
    b.block(
        s1,
        [
            (
                p,
                f"Family news: {who} has a {what} coming up. {detail[0].upper() + detail[1:]}.",
                f"{tag}.news",
            ),
            (o, "Aw, that's lovely. Where?"),
            (p, f"At {where}. I've been asked to give a little speech.", f"{tag}.where"),
        ],
    )
    b.block(
        s2,
        [
            (o, f"How did the {what} go?"),
            (
                p,
                b.pick(
                    ["Everyone cried, including me during the speech.", "Perfect day. My speech got laughs."]
                ),
                f"{tag}.went",
            ),
        ],
    )
    b.ask(
        "single_hop",
        f"Where was the {what} of {p.name}'s {who.removeprefix('my ')} held?",
        where,
        f"{tag}.where",
    )
    b.ask(
        "multi_hop",
        f"Whose {what} was it, and what role did {p.name} have at it?",
        f"{who}; gave a speech",
        f"{tag}.news",
        f"{tag}.where",
    )
    b.ask(
        "temporal", f"When did {p.name} tell {o.name} about the {what}?", month_name(b.day(s1)), f"{tag}.news"
    )


GOALS = [
    ("the Riverside half marathon", "running", "1:58:40", "intervals on Tuesdays and a long run on Sunday"),
    ("a 100 km charity bike ride", "cycling", "just under five hours", "hill repeats and spin classes"),
    ("the open-water swim across the bay", "swimming", "41 minutes", "lake swims at 6 a.m."),
    ("the level B2 Spanish exam", "studying", "a pass with 84 points", "an hour of flashcards every night"),
]


def goal(b: Builder, p: Person, tag: str) -> None:
    target, activity, result, plan = b.unique(GOALS)  # type: ignore[misc]
    s1, s2, s3 = b.stages(3)
    o = b.other(p)
    b.block(
        s1,
        [
            (p, f"I registered for {target}. No backing out now.", f"{tag}.register"),
            (o, "That's brave. How are you preparing?"),
            (p, f"The plan is {plan}.", f"{tag}.plan"),
        ],
    )
    b.block(
        s2,
        [
            (o, f"How's the {activity} going?"),
            (
                p,
                b.pick(
                    ["Some days great, some days I want to quit.", "Harder than I thought, but improving."]
                ),
            ),
        ],
    )
    b.block(
        s3,
        [
            (p, f"Done! I finished {target} last weekend. Result: {result}.", f"{tag}.result"),
            (o, "Incredible, congratulations!"),
        ],
    )
    b.ask("single_hop", f"What result did {p.name} get in {target}?", result, f"{tag}.result")
    b.ask(
        "temporal",
        f"When did {p.name} complete {target}?",
        b.last_weekday(s3, 5).isoformat(),
        f"{tag}.result",
    )
    b.ask(
        "multi_hop",
        f"How did {p.name} prepare for {target}, and how did it go?",
        f"{plan}; {result}",
        f"{tag}.plan",
        f"{tag}.result",
    )


PREFERENCES = [
    (
        "I've been fully vegetarian for six years, so the barbecue was all grilled halloumi for me.",
        "Would {name} enjoy a steakhouse dinner for a birthday treat?",
        "no, vegetarian",
    ),
    (
        "I get dizzy on anything higher than a step ladder. Glass floors are my nightmare.",
        "Would {name} enjoy a skydiving voucher?",
        "no, afraid of heights",
    ),
    (
        "Cats make my eyes swell shut within ten minutes, it's ridiculous.",
        "Could {name} comfortably house-sit for a friend with three cats?",
        "no, allergic to cats",
    ),
    (
        "My ideal Sunday is old jazz records, Coltrane mostly, and a pot of coffee.",
        "Would {name} enjoy an evening at a jazz club?",
        "yes, loves jazz",
    ),
    (
        "I can't stand the cold. Anything under ten degrees and I'm miserable.",
        "Would {name} enjoy a winter holiday in Lapland?",
        "probably not, hates cold",
    ),
    (
        "I don't drink alcohol at all, never liked the taste.",
        "Would {name} enjoy a wine-tasting tour?",
        "no, does not drink",
    ),
    (
        "I read every night before bed, mostly historical novels.",
        "Would {name} appreciate a bookshop gift card?",
        "yes, reads every night",
    ),
    (
        "Crowds stress me out. Festivals are my personal hell.",
        "Would {name} enjoy a big three-day music festival?",
        "no, dislikes crowds",
    ),
    (
        "I've been learning to cook Thai food, I make my own curry paste now.",
        "Would {name} enjoy a cooking class in Bangkok?",
        "yes, cooks Thai food",
    ),
    (
        "Early mornings are my thing. I'm up at five without an alarm.",
        "Would {name} be happy with a sunrise hike that starts at 5 a.m.?",
        "yes, early riser",
    ),
]


def preferences(b: Builder, p: Person, tag: str, count: int = 3) -> None:
    o = b.other(p)
    for n in range(count):
        statement, question, answer = b.unique(PREFERENCES)  # type: ignore[misc]
        session = b.rng.randrange(b.sessions)
        lead = b.pick(["What did you get up to at the weekend?", "Anything fun lately?", "How was Sunday?"])
        b.block(session, [(o, lead), (p, statement, f"{tag}.{n}")])
        b.ask("open_domain", question.format(name=p.name), answer, f"{tag}.{n}")
