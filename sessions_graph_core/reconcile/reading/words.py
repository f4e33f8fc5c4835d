"""The words the clause reader reads by name: verbs of choosing, changing, ending, handing over, serving;
nouns of groups, decisions and memberships."""

TEAM_WORDS = {"team", "company"}
# Words of a thing held by its name ("a Netflix subscription"; "sub" is how chat says it).
MEMBERSHIPS = {"subscription", "membership", "account", "contract", "licence", "license", "sub"}
SUBSCRIBE_VERBS = {"pay", "subscribe", "unsubscribe", "renew"}
# Verbs of renting: what one rents is held as a subscription is ("I rent a parking space"), by its words.
RENT_VERBS = {"rent", "lease"}
# Objects that name no thing of their own but all one does: "we track work in Trello" is our tracker, as
# "we track everything in Trello" is ("we track the roadmap in Trello" is the roadmap's).
WHATEVER_WE_DO = {"work", "everything", "thing", "stuff", "all"}
# Verbs that move a thing to a new value: "switched feature flags to Unleash".
SWITCH_VERBS = {"switch", "move", "migrate", "shift", "port", "transition", "change"}
# Verbs by which one finds a new one of a thing in place of the old: "found a new physio, Dr. Kowalski".
FINDING_VERBS = {"get", "find", "hire", "pick", "choose"}
# Verbs by which a thing of ours is kept in a named tool: "we keep our passwords in Bitwarden".
KEEP_VERBS = {"keep", "store", "track", "manage"}
# Verbs of becoming: their complement is a state, as after "be".
STATE_VERBS = {"go", "turn", "become", "stay", "remain"}
# Verbs by which things are sent somewhere: "logs go to Papertrail" fills the project's "logs".
ROUTE_VERBS = {"go", "flow", "ship", "route", "live", "sit", "land", "stream", "feed", "run"}
# "another team", "some tool": no named value ("a" is no sign: "a Pixel 8", "a keto diet").
INDEFINITE = {"another", "some", "any", "other", "each", "every"}
# Modifiers that say a role was held and is no longer: "my former employer", "our previous CTO".
FORMER_WORDS = {"former", "previous", "ex"}
# Verbs whose value is a thing of some kind: the kind, or a noun beside the verb, names the attribute.
GENERIC_VERBS = {
    "use", "switch", "move", "migrate", "go", "pick", "choose", "adopt", "replace", "swap", "drop", "standardise",
    "standardize", "install", "upgrade", "downgrade", "change", "transition", "shift", "port", "opt", "settle",
    "run", "be", "rewrite", "deploy", "host", "buy", "get", "start", "begin", "select", "prefer", "eat", "become",
    "convert", "land", "roll", "bring", "bank", "track", "chat", "write", "build", "store", "keep", "pay",
    "trade", "exchange", "decide", "rebuild", "reimplement", "live", "put", "place", "stick", "revert", "ditch", "dump",
    "scrap",
}
# Nouns of a change: "we finished the move from Oracle to PostgreSQL" moves as "we moved" does.
TRANSITION_NOUNS = {"move", "migration", "switch", "transition", "switchover", "changeover", "port"}
# Verbs that end what the slot held when no new value follows.
ENDING_VERBS = {"stop", "quit", "cancel", "leave", "sell", "abandon", "ditch", "deprecate", "remove", "uninstall",
                "kill", "ax", "axe", "scrap", "dump",
                "retire", "end", "discontinue", "give", "step", "drop", "lose", "resign", "sunset", "decommission",
                "close", "shut", "terminate", "delete", "unsubscribe"}
# The particles with which some of them end ("" for none): "gave up", "gave away", "stepped down", "stepped away
# from"; "ended up using X" ends nothing.
ENDING_PARTICLES = {"give": {"up", "away"}, "step": {"down", "away"}, "end": {""}}
# Verbs by which one thing is given up for another: "we ditched LastPass for Bitwarden" is a change of value,
# not an ending (nor "swapped A for B", "traded A for B").
TRADE_VERBS = {"replace", "swap", "drop", "ditch", "dump", "scrap", "trade", "exchange"}
# Verbs that end what they are said of only with their particle: "we turned off X" ends X as "we shut X" does
# ("we turned to X", "we switched to X" end nothing).
PHRASAL_ENDINGS = {("turn", "off"), ("switch", "off"), ("wind", "down"), ("phase", "out")}
# Verbs with a particle by which one comes to a choice: "we ended up picking Vercel", "we wound up using X".
ARRIVALS = {("end", "up"), ("wind", "up")}
# Verbs by which a thing held for a time ends by itself ("my gym membership expired", "I let the Datadog
# contract lapse", "the subscription ran out"), with the particle each needs.
LAPSE_VERBS = {"expire": "", "lapse": "", "run": "out", "end": ""}
# Verbs by which someone takes a role ("Carol is taking over ownership of X from Alice").
TAKE_VERBS = {"take", "inherit", "assume", "succeed"}
HAND_VERBS = {"hand", "transfer", "pass", "give", "reassign", "move"}
DECIDERS = {"we", "i", "team", "let", "us"}
# Verbs by which a thing is sent through a service: "we send email through Mailgun" fills the project's email.
SEND_VERBS = {"send", "ship", "route", "push", "stream", "forward", "pipe", "deliver", "process", "handle", "accept", "collect"}
SEND_PREPOSITIONS = ("through", "via", "to", "with", "into")
HABIT_VERBS = {"drink", "smoke", "play", "practice", "practise", "eat"}
SOURCE_VERBS = {"get", "buy", "order", "take", "receive", "borrow", "rent", "bring", "keep", "store"}
SERVE_VERBS = {"run", "power", "handle", "process", "orchestrate", "host", "serve", "store", "schedule", "track",
               "monitor", "back", "drive", "build", "deploy"}
# Verbs by which a named provider serves a thing of ours: "Octopus supplies our electricity".
PROVIDE_VERBS = {"supply", "provide", "do", "manage", "insure", "cover"}
RESCHEDULE_VERBS = {"move", "push", "shift", "reschedule", "change", "bring", "switch"}
# Attributes the frame fallback leaves to the rules: the holder and value of a role are the other way
# round ("Dana owns X"), a schedule wants a time, and a name, a number or an address their own form.
FRAMED_BY_RULES = {"owner", "lead", "maintainer", "schedule", "name", "phone number", "email"}
CHOICE_VERBS = {"use", "switch", "adopt", "choose", "pick", "migrate", "move", "standardise", "standardize", "go",
                "replace", "swap", "drop", "rewrite", "deploy", "host", "write", "select", "opt", "settle", "decide",
                "stick", "revert"}  # "we're sticking with Postgres", "we reverted to Jenkins": a choice kept or taken back
ASPECT_VERBS = {"start", "begin", "continue", "keep", "finish", "complete", "try"}
# Verbs that take a decision back ("we scrapped the plan to use Kafka", "we walked back the move to Kafka").
REVERSING_VERBS = {"scrap", "reverse", "undo", "abandon", "drop", "cancel", "ditch", "shelve", "overturn", "kill"}
REVERSING_PARTICLES = {"walk": "back", "roll": "back", "call": "off", "back": "out"}
# Adverbs by which a clause adds a value to those held rather than changing one ("we also use Grafana").
ADDING_ADVERBS = {"also", "too", "additionally"}
# Words by which a value points back at what a slot holds ("the same car", "our usual CI").
REFERRING_WORDS = {"same", "usual", "existing", "current"}
# What a decision is called when a sentence says what it is ("the plan is to use X", "the decision on CI is X"):
# no holder of a slot of its own (extraction/spacy._with_choice reads such a sentence as the choice it says).
DECISION_NOUNS = {"plan", "decision", "choice", "pick", "call", "verdict", "consensus", "conclusion"}
INTENT_VERBS = {"decide", "agree", "plan", "want", "choose", "opt", "need", "vote", "elect", "go"}  # "go": "going to use"
RATIONALE_MARKERS = {"because", "since", "as", "so"}
GROUP_NOUNS = {"team", "department", "group", "squad", "club", "org", "organisation", "organization", "committee",
               "division", "unit", "chapter", "guild", "band", "crew", "office", "company"}
# Verbs by which "the N I <verb>" is mine: "the phone I use", "the dentist we go to", "the car I drive".
USING_VERBS = {"use", "have", "own", "drive", "ride", "go", "see", "pay", "bank", "rely", "be"}
# Every verb a rule of the clause reader reads by name: WordNet judges endings only among the others.
LISTED_VERBS = (GENERIC_VERBS | ENDING_VERBS | TRADE_VERBS | set(LAPSE_VERBS) | TAKE_VERBS | HAND_VERBS | SEND_VERBS
                | HABIT_VERBS | SOURCE_VERBS | SERVE_VERBS | PROVIDE_VERBS | RESCHEDULE_VERBS | CHOICE_VERBS | ASPECT_VERBS
                | REVERSING_VERBS | INTENT_VERBS | USING_VERBS | SUBSCRIBE_VERBS | RENT_VERBS | SWITCH_VERBS
                | FINDING_VERBS | KEEP_VERBS | STATE_VERBS | ROUTE_VERBS | {"be", "have", "do"})
