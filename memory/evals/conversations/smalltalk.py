"""Small talk between the events: greetings, goodbyes and filler exchanges.

Filler is the realistic noise a conversational store is full of: it shares everyday words
("weekend", "work", "dinner", "trip") with the questions but answers none of them.
Exchanges are (side, text) with side 0 / 1; {me} / {you} are the speaker's and the listener's names.
"""

from __future__ import annotations

import random

OPENINGS = [
    [(0, "Hey {you}! Long time, how are you?"), (1, "Hey! Good, busy. You?")],
    [(0, "Morning! Got a minute to catch up?"), (1, "Always. Coffee in hand, go.")],
    [(0, "Hiya, is now a good time?"), (1, "Perfect timing, just finished dinner.")],
    [(0, "Hi {you}, sorry I went quiet this week."), (1, "No worries at all. What's new?")],
    [(0, "Heyyy. Guess who finally has a free evening."), (1, "Ha! Me too, kind of. Tell me everything.")],
    [(0, "Hello stranger!"), (1, "I know, I know. Life has been a lot. How are you?")],
]

CLOSINGS = [
    [(0, "Ok I should go, early start tomorrow."), (1, "Same. Talk soon, {you}!")],
    [(0, "This was nice. Let's not wait so long next time."), (1, "Deal. Bye!")],
    [(0, "Right, my food is getting cold. Speak later?"), (1, "Go eat! Later.")],
    [(0, "Gotta run, the battery is dying."), (1, "Haha ok, take care.")],
    [(0, "Night {you}!"), (1, "Night night.")],
]

SHOWS = [
    "that baking competition",
    "the detective series set in Oslo",
    "the documentary about octopuses",
    "the new season of the space drama",
    "a terrible reality dating show",
    "the cooking show with the twins",
]
FOODS = [
    "leftover lasagne",
    "a huge bowl of ramen",
    "toast, honestly",
    "a new falafel wrap place",
    "pancakes for dinner",
    "my mum's lentil soup",
    "a sad desk salad",
    "takeaway pizza",
]
WEATHER = [
    "it rained all day",
    "it was weirdly warm",
    "the wind nearly took my umbrella",
    "fog all morning",
    "first proper sunny day in ages",
    "hail, out of nowhere",
]
CHORES = [
    "sorting the recycling",
    "doing my taxes",
    "cleaning the oven",
    "fixing a leaky tap",
    "ironing a mountain of shirts",
    "defrosting the freezer",
]
SPORTS = ["the football on Saturday", "the tennis final", "that cycling race on TV", "the rugby match"]
TEMPLATES = [
    [(0, "Did you watch {show}?"), (1, "Two episodes last night. I'm hooked."), (0, "No spoilers please!")],
    [(0, "What did you have for dinner?"), (1, "{food}. You?"), (0, "Cereal. Don't judge.")],
    [(0, "The weather here is so strange, {weather}."), (1, "Same here, I gave up checking the forecast.")],
    [(0, "I spent the whole evening {chore}."), (1, "Living the dream."), (0, "Adulthood is a scam.")],
    [(0, "Did you catch {sport}?"), (1, "Only the highlights. Crazy ending."), (0, "I yelled at the TV.")],
    [(0, "My phone screen cracked again."), (1, "Again?? You need a case."), (0, "I know, I know.")],
    [
        (0, "Work was so boring today, all meetings."),
        (1, "Meetings that should have been emails?"),
        (0, "Every single one."),
    ],
    [(0, "I'm so tired, the neighbours had a party until 2."), (1, "Earplugs. Life changing.")],
    [(0, "Have you tried {food}?"), (1, "Not yet, is it good?"), (0, "Surprisingly good.")],
    [(0, "Traffic was a nightmare this morning."), (1, "Roadworks on the bridge again?"), (0, "Of course.")],
    [(0, "I keep forgetting to water my plants."), (1, "RIP plants."), (0, "The cactus is hanging on.")],
    [(0, "Any weekend plans?"), (1, "Nothing at all, and I love it."), (0, "Honestly, goals.")],
    [(0, "I started {show} because you mentioned it."), (1, "And?"), (0, "Annoyingly, you were right.")],
    [(0, "The supermarket was out of oat milk again."), (1, "It's a conspiracy."), (0, "Clearly.")],
    [
        (0, "I tried to bake cookies and set off the smoke alarm."),
        (1, "Classic {me}."),
        (0, "They were edible. Mostly."),
    ],
    [
        (0, "Did you see the news about the new tram line?"),
        (1, "Yes, only ten years late."),
        (0, "Progress!"),
    ],
    [(0, "I need a holiday from my holiday plans."), (1, "Ha, planning is exhausting.")],
    [
        (0, "Can you recommend a podcast?"),
        (1, "The one about historical mysteries is great."),
        (0, "Adding it now."),
    ],
    [
        (0, "Ugh, I have a dentist appointment tomorrow."),
        (1, "Just a check-up?"),
        (0, "Yes, but still. The drill noises."),
    ],
    [(0, "My commute was {weather} the entire way."), (1, "Stay dry!")],
    [(0, "I finally finished {chore}."), (1, "Proud of you."), (0, "It only took three weekends.")],
    [
        (0, "Random question: tea or coffee?"),
        (1, "Coffee before noon, tea after."),
        (0, "A balanced approach."),
    ],
    [(0, "I dreamt you had a pet llama."), (1, "Honestly I'd love a llama."), (0, "Ha!")],
    [(0, "Lunch today was {food}."), (1, "Sounds better than mine."), (0, "Low bar I think.")],
    [(0, "The gym was packed tonight."), (1, "January people?"), (0, "Every month is January there.")],
    [
        (0, "I've been sleeping so badly."),
        (1, "Too much screen time before bed?"),
        (0, "Probably. I'll try reading instead."),
    ],
    [
        (0, "Do you remember that awful karaoke night?"),
        (1, "I have blocked it from memory."),
        (0, "Your ballad was iconic."),
    ],
    [(0, "My sister sent me a video of {sport}."), (1, "Was it good?"), (0, "Shaky phone footage, but yes.")],
    [
        (0, "Power cut for two hours this evening."),
        (1, "Candles and board games?"),
        (0, "Candles and doomscrolling."),
    ],
    [(0, "I bought way too many groceries again."), (1, "Meal prep Sunday then!")],
]


def filler_exchanges(rng: random.Random, count: int) -> list[list[tuple[int, str]]]:
    """`count` filler exchanges, templates filled with varied slots."""
    out = []
    for _ in range(count):
        template = rng.choice(TEMPLATES)
        slots = {
            "show": rng.choice(SHOWS),
            "food": rng.choice(FOODS),
            "weather": rng.choice(WEATHER),
            "chore": rng.choice(CHORES),
            "sport": rng.choice(SPORTS),
        }
        out.append([(side, _fill(text, slots)) for side, text in template])
    return out


def _fill(text: str, slots: dict[str, str]) -> str:
    """Fill topic slots now; {me} / {you} stay for the renderer."""
    for name, value in slots.items():
        text = text.replace("{" + name + "}", value)
    return text
