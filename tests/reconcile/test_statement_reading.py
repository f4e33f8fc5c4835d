"""How the statement reader copes with the small spaCy model's parses and with everyday phrasings
(the real en_core_web_sm; each case names the parse it works around)."""

from __future__ import annotations

import pytest
from reading_helpers import slots

from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "lead" parsed as the root noun with "is" under it, "team" as its subject.
        ("My team lead is Oscar.", [("me/lead", "Oscar")]),
        # The name tagged as an adverb, so the verb has no subject.
        ("Raj handed the infra team over to Mei.", [("infra team/lead", "Mei")]),
        # "MongoDB" tagged as punctuation: "as the database ..." split off as a sentence of its own.
        ("We'll use MongoDB as the database for the catalog service.", [("catalog service/database", "MongoDB")]),
        # "task" and "tracking" both tagged as objects of "switched".
        ("We switched task tracking to Linear.", [("@project/issue tracker", "Linear")]),
        # "Spotify" tagged as a verb.
        ("I use Spotify for music.", [("me/music", "Spotify")]),
        # "vegan" tagged as the object of "went".
        ("I went vegan in January.", [("me/diet", "vegan")]),
        # A product the tagger took for a city is not a location.
        ("Logs go to Papertrail.", [("@project/logs", "Papertrail")]),
        # "RabbitMQ" tagged as punctuation.
        ("Our queue is RabbitMQ.", [("@project/message broker", "RabbitMQ")]),
        # "provisioning" tagged as a verb, "Ansible" as an adjective.
        ("We use Ansible for provisioning.", [("@project/infrastructure as code", "Ansible")]),
    ],
)
def test_misparsed_statements_still_fill_their_slot(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


def test_another_team_is_not_our_team(spacy: SpacyBackend) -> None:
    found = slots(spacy, "Oscar moved to another team, my team lead is Fatima now.")
    assert found == [("me/lead", "Fatima")]


def test_subscriptions_are_one_slot_per_thing_subscribed_to(spacy: SpacyBackend) -> None:
    assert slots(spacy, "I have a Netflix subscription.") == [("me/netflix subscription", "Netflix")]
    assert slots(spacy, "We pay for a Zoom subscription.") == [("@project/zoom subscription", "Zoom")]
    # Ended, and so is whatever else held Zoom (the pending "*zoom" slot finds it in the store).
    assert slots(spacy, "We no longer pay for Zoom.") == [("@project/zoom subscription", ""), ("@project/*zoom", "")]
    assert ("me/netflix subscription", "") in slots(spacy, "I cancelled my Netflix subscription.")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We've cancelled PagerDuty.", [("@project/*pagerduty", "")]),
        ("We stopped using Papertrail.", [("@project/*papertrail", "")]),
        ("We replaced Papertrail with Loki.", [("@project/*papertrail", "Loki")]),
        # The second clause's new value is the new value of what the first one ended.
        ("I cancelled Spotify and switched to Apple Music.", [("me/*spotify", ""), ("me/*spotify", "Apple Music")]),
    ],
)
def test_a_change_of_a_value_of_no_known_kind_waits_for_the_slot_that_held_it(
    spacy: SpacyBackend, text: str, expected: list
) -> None:
    assert slots(spacy, text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I traded my Focus for a Subaru.", [("me/car", "Subaru")]),
        ("I see Dr. Brooks as my dentist now.", [("me/dentist", "Dr. Brooks")]),
        ("Stripe processes our payments now.", [("@project/payments", "Stripe")]),
        ("Payments are processed by Braintree.", [("@project/payments", "Braintree")]),
        ("I switched gyms to PureGym.", [("me/gym", "PureGym")]),
        ("We have a new landlord, Mrs. Gomez.", [("me/landlord", "Mrs. Gomez")]),  # a household's "we" is the user
        ("We moved to Denver in the spring.", [("me/location", "Denver")]),
        ("Ownership of the billing service passed to Leo.", [("billing service/owner", "Leo")]),
        ("I have a gym membership at Equinox.", [("me/gym membership", "Equinox")]),
        ("I unsubscribed from Spotify.", [("me/spotify subscription", ""), ("me/*spotify", "")]),
        ("I'm a member of the chess club.", [("me/chess club membership", "chess club")]),
        ("We switched feature flags to Unleash.", [("@project/feature flags", "Unleash")]),
        ("Deployments now go through Argo CD.", [("@project/deployment tool", "Argo CD")]),  # "deployments" names it
        # The old value named also changes whatever slot held it (the store keeps one where both meet).
        ("We've replaced Kong with Traefik as our API gateway.", [("@project/api gateway", "Traefik"), ("@project/*kong", "Traefik")]),
        ("The frontend has been rebuilt in React.", [("frontend/framework", "React")]),
        ("I started a new job at Atlassian.", [("me/employer", "Atlassian")]),
    ],
)
def test_everyday_phrasings_fill_the_slot_they_name(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


def test_a_dentist_and_a_doctor_are_different_slots(spacy: SpacyBackend) -> None:
    assert slots(spacy, "My dentist is Dr. Hall.") == [("me/dentist", "Dr. Hall")]
    assert slots(spacy, "My doctor is Dr. Klein.") == [("me/doctor", "Dr. Klein")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "she" is the person named before it in the same text, whether or not the model typed her.
        ("Ana told me that she lives in Lima now.", [("ana/location", "Lima")]),
        ("I met Dana's brother Luis. He lives in Madrid.", [("luis/location", "Madrid")]),
        # A person named beside a noun is that person, not "my sister ana".
        ("My sister Ana lives in Quito.", [("ana/location", "Quito")]),
        # "it" with no referent in its text is left to the pipeline (earlier turns of the session).
        ("It runs on Postgres now.", [("@thing/database", "Postgres")]),
        # "its" is its clause's subject.
        ("The inventory service uses MySQL as its database.", [("inventory service/database", "MySQL")]),
    ],
)
def test_pronouns_are_the_entity_in_focus(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A name after "to" the parser took for a verb (advcl, relcl).
        ("We deploy the app to Netlify these days.", [("app/hosting", "Netlify")]),
        ("We've ported the backend to Go.", [("backend/language", "Go")]),
        # "my partner and I": I say it of me.
        ("My partner and I live in Leeds.", [("me/location", "Leeds")]),
        # A role and its holder beside it, after any verb.
        ("I started seeing a new therapist, Dr. Lin.", [("me/therapist", "Dr. Lin")]),
        # A listed kind paid for is that attribute, not a subscription to "the Pro plan".
        ("I'm paying for the Pro plan now.", [("me/plan", "Pro plan")]),
        # Another model of a listed value is the same kind ("Galaxy S23" is listed).
        ("I have a Samsung Galaxy S21.", [("me/phone", "Samsung Galaxy S21")]),
        # The place of the home moved into.
        ("I just moved into a flat in San Jose.", [("me/location", "San Jose")]),
        # When an event is held is its schedule.
        ("We do our retros on Fridays.", [("retro/schedule", "Fridays")]),
        # A generic head word ("layer") adds nothing to the attribute before it.
        ("We've switched our caching layer to Redis.", [("@project/cache", "Redis")]),
        # The subject parsed as a compound of the verb.
        ("All our documentation lives in Confluence now.", [("@project/docs", "Confluence")]),
        # "runs through" is no "runs" (leads); a hyphenated attribute is spaced as said.
        ("Our on-call rotation runs through PagerDuty.", [("@project/incident management", "PagerDuty")]),
        # A role taken over with no "of": the team's, as "Sam is our scrum master" says.
        ("Lucy took over as scrum master.", [("@project/scrum master", "Lucy")]),
    ],
)
def test_more_everyday_phrasings_fill_their_slot(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "My manager, Priya, is great.",  # an adjective is no manager
        "I bought a car on Monday.",  # a day is no car
    ],
)
def test_a_word_of_the_wrong_kind_fills_no_slot(spacy: SpacyBackend, text: str) -> None:
    found = slots(spacy, text)
    assert not any(value in {"great", "Monday"} for _, value in found), found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "got rid of X" ends X, whatever slot held it.
        ("We got rid of New Relic.", [("@project/*new relic", "")]),
        # A person "at" a named organisation works for it; "at home" names no value of a home.
        ("I'm at KPMG now.", [("me/employer", "KPMG")]),
        ("I'm still at Stripe.", [("me/employer", "Stripe")]),
        # A place one works in is no employer (nor home).
        ("I work in Lisbon.", [("me/work location", "Lisbon")]),
        # The number the parser split in two ("555/npadvmod -0100") is one value.
        ("My phone number is 555-0100.", [("me/phone number", "555-0100")]),
        # The name after the comma hangs on the outer verb, the role on the inner one.
        ("I've started going to a new dentist, Dr. Kim.", [("me/dentist", "Dr. Kim")]),
        # Sent through a service: what is sent is the attribute, as in "email goes out through X".
        ("We send email through Mailgun.", [("@project/email", "Mailgun")]),
        ("Email goes out through SendGrid now.", [("@project/email", "SendGrid")]),
        # An event's schedule: one holder for "our retro" and "retros" (tagged NNP at the sentence start).
        ("Our retro is on Fridays.", [("retro/schedule", "Fridays")]),
        ("Retros are on Thursdays now.", [("retro/schedule", "Thursdays")]),
        # A job title is a role of its holder, not the manager of a product; the name tagged as an
        # adverb ("Raj/ADV is our product manager/nsubj") is the subject.
        ("Raj is our product manager.", [("@project/product manager", "Raj")]),
        ("Our new product manager is Ellen.", [("@project/product manager", "Ellen")]),
        # "X is home", "X is the database": the name is the value of the role said after it.
        ("Cork is home now.", [("me/location", "Cork")]),
        ("Postgres is the database now.", [("@project/database", "Postgres")]),
        # The subject the parser made a conjunct of the first clause ("Priya/conj is/conj").
        ("Tom left and Priya is now tech lead of the mobile team.", [("mobile team/lead", "Priya")]),
        # Tickets are what an issue tracker tracks; deployment tools are a kind of their own.
        ("We use Jira for tickets.", [("@project/issue tracker", "Jira")]),
        ("Tickets are tracked in Linear now.", [("@project/issue tracker", "Linear")]),
        ("We'll deploy with Helm.", [("@project/deployment tool", "Helm")]),
        ("We agreed to use Kustomize instead of Helm since it's simpler.", [("@project/deployment tool", "Kustomize")]),
        # Being off a name ends whatever held it; a name stopped does too, whichever word named its slot.
        ("We're off Heroku now.", [("@project/*heroku", "")]),
        ("We stopped using Stripe.", [("@project/payments", ""), ("@project/*stripe", "")]),
        # A name of a relational kind by its entity label only ("Netflix/GPE") ends no home: it waits.
        ("I cancelled Netflix.", [("me/*netflix", "")]),
        # A bare title after "became" is the project's role; the one in it is the subject.
        ("Maria left and Paul became CTO.", [("@project/cto", "Paul")]),
        # On call with no "for": the project's rotation.
        ("Now Zoe is on call.", [("@project/on-call", "Zoe")]),
        # A role and its holder after a colon and an adverb.
        ("I have a new dentist now: Dr. Yu.", [("me/dentist", "Dr. Yu")]),
        # An event moved to a time the tagger did not type ("10:15/CARDINAL").
        ("We moved standup to 10:15.", [("standup/schedule", "10:15")]),
        # "call X home": the name parsed as a compound of "home".
        ("I now call Lyon home.", [("me/location", "Lyon")]),
        # A job said with its employer after "at".
        ("I got a job at Microsoft.", [("me/employer", "Microsoft")]),
        # A possessor's words are its own: the support team's manager, not the support's.
        ("The support team's manager is now Ann.", [("support team/manager", "Ann")]),
        # "for a month" says how long, not what for.
        ("We've been using Linear for a month now.", [("@project/issue tracker", "Linear")]),
        # Leadership of a team is its lead; a thing moved to a cloud is hosted there, not handed to it.
        ("Leadership of the SRE team went to Mia.", [("sre team/lead", "Mia")]),
        ("The cluster got moved to Azure.", [("cluster/hosting", "Azure")]),
        # "Splunk/NOUN": a name the tagger called a noun still receives what is routed to it.
        ("Our logs go to Splunk.", [("@project/logs", "Splunk")]),
        ("We send our logs to Datadog now.", [("@project/logs", "Datadog")]),
        # A name the tagger hung on "is" as an adverb ("Java/advmod").
        ("Our main language is Java.", [("@project/language", "Java")]),
        # A time after a verb of an attribute is when, not what ("start at" is also joining an employer).
        ("My shift now starts at 9am.", [("my shift/schedule", "9am")]),
        # Working in a language is the language, not an employer.
        ("Our team works in Python.", [("@project/language", "Python")]),
        # "different" says which gym, not whose.
        ("I switched to a different gym, PureGym.", [("me/gym", "PureGym")]),
        # A bare noun moved to a name, as "X goes through Y" says.
        ("Design work moved to Penpot.", [("@project/design work", "Penpot")]),
        # A listed value the parser took for a verb after "to" ("switched to keto/VERB").
        ("I switched to keto.", [("me/diet", "keto")]),
        # A change said as a noun: "the move from A to B".
        ("We've finished the move from Oracle to PostgreSQL.", [("@project/database", "PostgreSQL"), ("@project/*oracle", "PostgreSQL")]),
        # "the team's" is ours.
        ("The team's roadmap is in Aha.", [("@project/roadmap tool", "Aha")]),
        # A thing that lives on a host is hosted there.
        ("The landing page lives on Netlify now.", [("landing page/hosting", "Netlify")]),
        # Verbs of a kind: billing through a payments provider, caching in a cache.
        ("Subscriptions are now billed through Stripe.", [("subscriptions/payments", "Stripe")]),
        ("Sessions are cached in Redis now.", [("sessions/cache", "Redis")]),
        # A content delivery network is a kind of its own, not hosting.
        ("We moved the CDN to Cloudflare.", [("@project/cdn", "Cloudflare")]),
        # A name of a listed kind serving a thing (tagged X or ADV by the small model).
        ("CircleCI runs our builds.", [("@project/ci", "CircleCI")]),
        ("Airflow orchestrates the data pipeline.", [("data pipeline/orchestrator", "Airflow")]),
        # Processing a named attribute through a provider.
        ("We process payments with PayPal.", [("@project/payments", "PayPal")]),
        # "the scrum master" held by a name the tagger called a noun; negated, it ends.
        ("Eva is the scrum master.", [("@project/scrum master", "Eva")]),
        ("Eva is no longer the scrum master.", [("@project/scrum master", "")]),
        ("The team chose Jest for testing.", [("@project/test framework", "Jest")]),
        # A team relocating is the team's move, not the user's home ("we moved" is the household's).
        ("The team relocated to Munich.", [("@project/location", "Munich")]),
        # "the company" is ours; "the new CEO" held by the one named.
        ("The company's CEO is Anna.", [("@project/ceo", "Anna")]),
        ("Anna stepped down and Ben is the new CEO.", [("@project/ceo", "Ben")]),
        # Names of a listed kind the tagger lost: "CockroachDB/CCONJ/punct", "Render/VERB", "CircleCI/X/intj".
        ("CockroachDB replaced Postgres for the orders service.", [("orders service/database", "CockroachDB")]),
        ("Render now hosts the API.", [("api/hosting", "Render")]),
        ("We're on CircleCI for CI now.", [("@project/ci", "CircleCI")]),
        # "based out of" ("out/prep of/prep"), "put X on Y".
        ("I'm now based out of Florence.", [("me/location", "Florence")]),
        ("We've put the API on Render.", [("api/hosting", "Render")]),
        # Hired "as our new designer": the role is ours, the one hired holds it.
        ("We hired Max as our new designer.", [("@project/designer", "Max")]),
        # Routed "via" a name; "from" after "is" for a provider; a name's own possessive is its name.
        ("Our newsletter now goes out via Buttondown.", [("@project/email provider", "Buttondown")]),
        ("My internet is from Comcast now.", [("me/internet provider", "Comcast")]),
        ("My gym is Gold's Gym.", [("me/gym", "Gold's Gym")]),
        # "going to use" is an intention, as "decided to use" is: a decision.
        ("We're going to use Terraform for infrastructure.", [("@project/infrastructure as code", "Terraform")]),
    ],
)
def test_this_rounds_constructions_fill_their_slot(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "I have a cat.",  # a common noun is no product the embedder may place ("cat" ~ the terminal "Kitty")
        "I'm at home.",  # the attribute's own word is no value of it
        "Kafka is a message broker.",  # "a": a definition, not the one broker in use
        "I went to the dentist.",  # a role with no one named fills nothing
        "I get my groceries from Tesco.",  # where a thing is got from is no old value
        "I'm from Spain.",  # where one is from is no home
    ],
)
def test_statements_that_name_no_value_fill_no_slot(spacy: SpacyBackend, text: str) -> None:
    assert slots(spacy, text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I drink coffee every morning.", [("me/coffee habit", "coffee")]),
        ("I play tennis on Sundays.", [("me/tennis habit", "tennis")]),
        # Ended: the habit itself, or (a bare noun given up) whatever held it.
        ("I stopped playing tennis.", [("me/tennis habit", "")]),
        ("I gave up coffee.", [("me/*coffee", "")]),
        # Once is no habit; another thing drunk is another habit, never a change of this one.
        ("I drank coffee yesterday.", []),
        ("I drink tea.", [("me/tea habit", "tea")]),
    ],
)
def test_habits_are_one_slot_per_thing(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


@pytest.mark.parametrize(
    ("text", "wrong"),
    [
        ("My brother moved to Bergen.", "me/brother"),  # "Bergen/ORG": a relative moving is no service of mine
        ("We went with Sidekiq for jobs.", "@project/employer"),  # "jobs" is no employer: a role is not plural
    ],
)
def test_a_reading_of_the_wrong_attribute_is_not_made(spacy: SpacyBackend, text: str, wrong: str) -> None:
    assert wrong not in {slot for slot, _ in slots(spacy, text)}
