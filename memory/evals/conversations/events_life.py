"""Life events told across sessions: a pet, a job change, a trip, a move, a purchase.

Each function writes its turns into a Builder (blocks in two or three sessions, later ones
referring back to earlier ones) and the questions those turns answer. Facts change on purpose:
the old employer or flat stays in the history, so "now" questions need the newer turn.
"""

from __future__ import annotations

from memory.evals.conversations.builder import Builder, Person, month_name

DOGS = [
    ("dog", "border collie", "Pepper"),
    ("dog", "beagle", "Biscuit"),
    ("dog", "greyhound", "Noodle"),
    ("dog", "corgi", "Waffles"),
    ("dog", "labrador mix", "Juniper"),
    ("dog", "dachshund", "Pretzel"),
]
CATS = [
    ("cat", "tabby", "Miso"),
    ("cat", "Maine Coon", "Atlas"),
    ("cat", "tuxedo cat", "Domino"),
    ("rabbit", "lop-eared rabbit", "Clover"),
    ("cat", "Siamese", "Saffron"),
]
VET_TROUBLE = [
    ("swallowed half a tennis ball", "they had to induce vomiting", "No more tennis balls in the house."),
    ("had an ear infection", "she got drops twice a day for ten days", "the ear is clear now"),
    ("ate a chocolate brownie off the counter", "an overnight stay on a drip", "I cried in the car park"),
    ("was limping on a back leg", "an x-ray showed a small sprain, no fracture", "six weeks of short walks"),
    (
        "stopped eating for two days",
        "it turned out to be a bad tooth that had to come out",
        "eating fine now",
    ),
]


def pet(b: Builder, p: Person, tag: str) -> None:
    kind, breed, name = b.unique(DOGS + CATS)  # type: ignore[misc]
    trouble, treatment, after = b.unique(VET_TROUBLE)  # type: ignore[misc]
    s1, s2, s3 = b.stages(3)
    o = b.other(p)
    shelter = b.pick(["the shelter on Harbor Road", "a rescue out in the countryside", "a foster family"])
    adopted = b.last_weekday(s1, 5)
    b.block(
        s1,
        [
            (
                p,
                b.pick(
                    [
                        f"Big news: we adopted a {breed} last Saturday! "
                        f"Got {'her' if kind != 'dog' else 'him'} from {shelter}.",
                        f"So I finally did it. Last Saturday I brought home a {breed} from {shelter}.",
                    ]
                ),
                f"{tag}.adopt",
            ),
            (o, b.pick(["No way! What's the name?", "Oh my gosh, pictures please. Name?", "Finally! Name?"])),
            (
                p,
                b.pick(
                    [
                        f"{name}. The shelter called {'him' if kind == 'dog' else 'her'} something else "
                        f"but {name} fits.",
                        f"We went with {name}. It just suited the face.",
                    ]
                ),
                f"{tag}.name",
            ),
            (o, b.pick(["Cute. How is the first week going?", "Love it. Settling in ok?"])),
            (
                p,
                b.pick(
                    [
                        "Lots of sleeping, some chewing. The couch has seen better days.",
                        "Shy for two days, then took over the whole bed.",
                    ]
                ),
            ),
        ],
    )
    b.block(
        s2,
        [
            (o, f"How's {name} doing?"),
            (
                p,
                b.pick(
                    [
                        f"Ugh, scary week. {name} {trouble} and we ended up at the emergency vet.",
                        f"We had a vet emergency on Tuesday. {name} {trouble}.",
                    ]
                ),
                f"{tag}.vet",
            ),
            (o, "Oh no! Is everything alright?"),
            (p, f"The vet said {treatment}. {after[0].upper() + after[1:]}.", f"{tag}.treat"),
            (
                o,
                b.pick(
                    ["Poor thing. And poor you, those bills are brutal.", "Glad it's ok. Pets are stressful."]
                ),
            ),
        ],
    )
    activity = b.pick(
        ["a puppy obedience course on Thursday evenings", "agility classes at the community field"]
        if kind == "dog"
        else ["clicker training, believe it or not", "a leash and harness for the garden"]
    )
    b.block(
        s3,
        [
            (p, f"I signed {name} up for {activity}.", f"{tag}.train"),
            (o, b.pick(["Ha, how is that going?", "Is it working?"])),
            (
                p,
                b.pick(
                    [
                        f"Better than expected. {name} can sit and wait for treats now.",
                        "Mixed results. Lots of treats were involved.",
                    ]
                ),
            ),
        ],
    )
    b.ask("single_hop", f"What is the name of the {kind} {p.name} adopted?", name, f"{tag}.name")
    b.ask("single_hop", f"What breed is {p.name}'s pet?", breed, f"{tag}.adopt")
    b.ask("temporal", f"When did {p.name} adopt {name}?", f"Saturday {adopted.isoformat()}", f"{tag}.adopt")
    b.ask(
        "multi_hop",
        f"Why did {p.name} have to take {name} to the emergency vet, and what did the vet do?",
        f"{name} {trouble}; {treatment}",
        f"{tag}.vet",
        f"{tag}.treat",
    )
    b.ask(
        "multi_hop",
        f"Where did {p.name} get {name} from, and what training did they start later?",
        f"{shelter}; {activity}",
        f"{tag}.adopt",
        f"{tag}.train",
    )
    b.ask(
        "open_domain",
        f"Would {p.name} likely be interested in a pet supply store discount?",
        f"yes, {p.pronoun} has a {kind}",
        f"{tag}.adopt",
    )


JOBS = [
    ("Northwind Logistics", "a dispatcher", "Calder Health", "an operations analyst", "the spreadsheets"),
    ("a call center", "a support agent", "Brightline Bank", "a fraud investigator", "the script"),
    ("Pine & Co. bakery", "a shift baker", "Fennel Kitchen", "the head pastry chef", "the 4 a.m. starts"),
    ("the city library", "an assistant librarian", "Orbit Games", "a community manager", "the budget cuts"),
    ("Vantage Insurance", "a claims adjuster", "Greenway Solar", "a project coordinator", "the overtime"),
    ("a dental practice", "the receptionist", "Lumen Clinic", "a practice manager", "my boss"),
    ("Halden Software", "a QA tester", "Quarry Labs", "a junior developer", "the layoffs rumours"),
]


def job(b: Builder, p: Person, tag: str) -> None:
    old, old_role, new, new_role, gripe = b.unique(JOBS)  # type: ignore[misc]
    s1, s2, s3 = b.stages(3)
    o = b.other(p)
    b.block(
        s1,
        [
            (o, b.pick(["How's work treating you?", "Still busy at work?"])),
            (
                p,
                b.pick(
                    [
                        f"Honestly I'm fed up. Three years as {old_role} at {old} "
                        f"and {gripe} are wearing me down.",
                        f"Work at {old} is grinding me down. "
                        f"Being {old_role} there was fine at first, but {gripe}...",
                    ]
                ),
                f"{tag}.old",
            ),
            (o, "Have you started looking around?"),
            (
                p,
                b.pick(
                    ["Quietly, yes. I've sent out a couple of applications.", "Updating my CV this weekend."]
                ),
                f"{tag}.looking",
            ),
        ],
    )
    b.block(
        s2,
        [
            (
                p,
                b.pick(
                    [
                        f"Guess who got an offer! {new} wants me as {new_role}.",
                        f"I got the job! {new} offered me the {new_role.split(' ', 1)[1]} position.",
                    ]
                ),
                f"{tag}.offer",
            ),
            (o, b.pick(["Yes!! Congratulations!", "That's amazing, you deserve it."])),
            (
                p,
                b.pick(
                    [
                        "The interview had a case study round that I was sure I'd bombed.",
                        "Three rounds of interviews, and the last one was with the founder.",
                    ]
                ),
            ),
            (o, "Are you taking it?"),
            (p, f"Already handed in my notice at {old}. Two weeks and I'm out.", f"{tag}.notice"),
        ],
    )
    started = b.last_weekday(s3, 0)
    b.block(
        s3,
        [
            (o, b.pick(["How's the new job?", "So, how was the first week?"])),
            (
                p,
                b.pick(
                    [
                        f"I started at {new} on Monday. Everyone is nice and nobody yells about {gripe}.",
                        f"First days at {new} have been great. "
                        "I started on Monday and already have a desk by the window.",
                    ]
                ),
                f"{tag}.start",
            ),
            (o, "Love that for you."),
        ],
    )
    b.ask("single_hop", f"Which company offered {p.name} a new job?", new, f"{tag}.offer")
    b.ask("single_hop", f"What was {p.name}'s role at {old}?", old_role, f"{tag}.old")
    b.ask("single_hop", f"Where does {p.name} work now?", new, f"{tag}.start")
    b.ask(
        "temporal",
        f"When did {p.name} start working at {new}?",
        f"Monday {started.isoformat()}",
        f"{tag}.start",
    )
    b.ask(
        "multi_hop",
        f"What did {p.name} dislike about the old job, and which role did {p.pronoun} move to?",
        f"{gripe}; {new_role} at {new}",
        f"{tag}.old",
        f"{tag}.offer",
    )


TRIPS = [
    ("Lisbon", "the pastéis de nata", "the yellow tram up to the castle", "my cousin Rita", "April"),
    ("Kyoto", "the tofu kaiseki dinner", "the bamboo forest at dawn", "my partner", "autumn"),
    ("Reykjavik", "the lamb soup", "a glacier walk", "two friends from uni", "March"),
    ("Mexico City", "the tacos al pastor", "the pyramids at Teotihuacan", "my brother", "spring"),
    ("Edinburgh", "the haggis, surprisingly", "climbing Arthur's Seat in the rain", "my mum", "the summer"),
    (
        "Marrakech",
        "the tagine at a rooftop place",
        "the gardens with the blue walls",
        "my best friend",
        "May",
    ),
    ("Vancouver", "the sushi", "kayaking around Stanley Park", "my partner", "June"),
]


def trip(b: Builder, p: Person, tag: str) -> None:
    city, food, highlight, company, season = b.unique(TRIPS)  # type: ignore[misc]
    s1, s2 = b.stages(2)
    o = b.other(p)
    b.block(
        s1,
        [
            (
                p,
                b.pick(
                    [
                        f"I'm thinking of going to {city} in {season}. Flights are weirdly cheap right now.",
                        f"Planning something fun: {city}, probably {season}.",
                    ]
                ),
                f"{tag}.plan",
            ),
            (o, b.pick(["Do it! Who with?", "Jealous. Alone or with someone?"])),
            (p, f"With {company}, if we can line up our days off.", f"{tag}.company"),
        ],
    )
    back = b.days_before(s2, 5)
    b.block(
        s2,
        [
            (
                p,
                b.pick(
                    [
                        f"I'm back from {city}! Got in on {back.strftime('%A')}.",
                        f"Just got back from {city} a few days ago, still jet-lagged.",
                    ]
                ),
                f"{tag}.back",
            ),
            (o, "Welcome back! Best part?"),
            (
                p,
                b.pick(
                    [f"Probably {highlight}. Unreal.", f"{highlight[0].upper() + highlight[1:]}, hands down."]
                ),
                f"{tag}.highlight",
            ),
            (o, "And the food?"),
            (
                p,
                b.pick([f"I'm still dreaming about {food}.", f"I ate {food} every single day."]),
                f"{tag}.food",
            ),
        ],
    )
    b.ask("single_hop", f"What food did {p.name} love on the trip to {city}?", food, f"{tag}.food")
    b.ask("single_hop", f"Who did {p.name} plan to travel to {city} with?", company, f"{tag}.company")
    b.ask("temporal", f"When did {p.name} get back from {city}?", f"around {back.isoformat()}", f"{tag}.back")
    b.ask(
        "multi_hop",
        f"Which city did {p.name} visit, and what was the highlight of the trip?",
        f"{city}; {highlight}",
        f"{tag}.back",
        f"{tag}.highlight",
    )


HOMES = [
    (
        "a one-bed above a laundromat on Elm Street",
        "a two-bedroom with a balcony in Riverside",
        "the balcony",
    ),
    ("my parents' spare room", "a studio near the central station", "being ten minutes from work"),
    ("a shared house with four people", "a little terraced house in Millbrook", "the garden"),
    ("a basement flat in Oldtown", "a top-floor flat by the canal", "the light, so much light"),
    ("an apartment on the noisy ring road", "a cottage just outside Ashford", "the quiet"),
]


def move(b: Builder, p: Person, tag: str) -> None:
    old, new, perk = b.unique(HOMES)  # type: ignore[misc]
    s1, s2, s3 = b.stages(3)
    o = b.other(p)
    b.block(
        s1,
        [
            (p, f"The landlord is putting the rent up again. I'm done with {old}.", f"{tag}.old"),
            (o, "Are you going to look for somewhere else?"),
            (p, b.pick(["Already browsing listings every night.", "Yes, viewing two places on Saturday."])),
        ],
    )
    b.block(
        s2,
        [
            (
                p,
                b.pick([f"We signed the lease! It's {new}.", f"Found a place: {new}. Signed yesterday."]),
                f"{tag}.signed",
            ),
            (o, "Finally! When do you move?"),
            (p, "End of the month, if the van company doesn't cancel on me."),
        ],
    )
    b.block(
        s3,
        [
            (o, "How's the new place?"),
            (
                p,
                b.pick(
                    [
                        f"All unpacked. Best thing is {perk}.",
                        f"Boxes everywhere still, but {perk} makes up for it.",
                    ]
                ),
                f"{tag}.perk",
            ),
        ],
    )
    b.ask("single_hop", f"Where does {p.name} live now?", new, f"{tag}.signed")
    b.ask("single_hop", f"Where did {p.name} live before moving?", old, f"{tag}.old")
    b.ask(
        "temporal", f"In which month did {p.name} sign the new lease?", month_name(b.day(s2)), f"{tag}.signed"
    )
    b.ask(
        "multi_hop",
        f"Why did {p.name} move out of the old place, and what does {p.pronoun} like most about the new one?",
        f"rent increase; {perk}",
        f"{tag}.old",
        f"{tag}.perk",
    )


PURCHASES = [
    ("a used Honda Civic", "the clutch started slipping", "the garage fixed it under warranty"),
    ("an e-bike", "the battery died after a month", "they swapped the battery"),
    ("a mirrorless camera, a Fujifilm", "I dropped it in a river", "insurance covered most of it"),
    ("a standing desk", "one of the motors jammed", "they sent a technician"),
    ("a secondhand piano", "two keys stick in wet weather", "a tuner is coming next week"),
    ("an espresso machine", "it leaks from the bottom", "I'm returning it for a refund"),
]


def purchase(b: Builder, p: Person, tag: str) -> None:
    item, problem, fix = b.unique(PURCHASES)  # type: ignore[misc]
    s1, s2 = b.stages(2)
    o = b.other(p)
    b.block(
        s1,
        [
            (
                p,
                b.pick([f"I treated myself and bought {item}.", f"Splurged this week: {item}!"]),
                f"{tag}.buy",
            ),
            (o, b.pick(["Nice, what made you go for it?", "Ooh. Worth it?"])),
            (
                p,
                b.pick(["I'd been saving since the summer.", "My old one had been dying for ages."]),
                f"{tag}.why",
            ),
        ],
    )
    b.block(
        s2,
        [
            (o, f"Still happy with {item.split(',')[0]}?"),
            (p, f"Mostly. Small drama though: {problem}.", f"{tag}.problem"),
            (o, "Oh no."),
            (p, f"It's sorted, {fix}.", f"{tag}.fix"),
        ],
    )
    b.ask("temporal", f"What did {p.name} buy in {month_name(b.day(s1))}?", item, f"{tag}.buy")
    b.ask("single_hop", f"Why did {p.name} decide to buy {item}?", "saving / old one dying", f"{tag}.why")
    b.ask(
        "multi_hop",
        f"What went wrong with the thing {p.name} bought, and how was it resolved?",
        f"{problem}; {fix}",
        f"{tag}.problem",
        f"{tag}.fix",
    )
