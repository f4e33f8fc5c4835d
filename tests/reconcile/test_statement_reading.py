"""How the statement reader copes with the small spaCy model's parses and with everyday phrasings
(the real en_core_web_sm; each case names the parse it works around)."""

from __future__ import annotations

import pytest

from sessions_graph_core.ontology.model import DEFAULT_MODEL
from sessions_graph_core.reconcile.extraction.base import SpacyBackend


@pytest.fixture(scope="module")
def spacy_backend() -> SpacyBackend:
    return SpacyBackend()


def slots(backend: SpacyBackend, text: str) -> list[tuple[str, str | None]]:
    return [(f.slot, f.value) for f in backend.extract([text], DEFAULT_MODEL)[0].facts if f.slot]


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
def test_misparsed_statements_still_fill_their_slot(spacy_backend: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy_backend, text) == expected


def test_another_team_is_not_our_team(spacy_backend: SpacyBackend) -> None:
    found = slots(spacy_backend, "Oscar moved to another team, my team lead is Fatima now.")
    assert found == [("me/lead", "Fatima")]


def test_subscriptions_are_one_slot_per_thing_subscribed_to(spacy_backend: SpacyBackend) -> None:
    assert slots(spacy_backend, "I have a Netflix subscription.") == [("me/netflix subscription", "Netflix")]
    assert slots(spacy_backend, "We pay for a Zoom subscription.") == [("@project/zoom subscription", "Zoom")]
    # Ended, and so is whatever else held Zoom (the pending "*zoom" slot finds it in the store).
    assert slots(spacy_backend, "We no longer pay for Zoom.") == [("@project/zoom subscription", ""), ("@project/*zoom", "")]
    assert ("me/netflix subscription", "") in slots(spacy_backend, "I cancelled my Netflix subscription.")


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
    spacy_backend: SpacyBackend, text: str, expected: list
) -> None:
    assert slots(spacy_backend, text) == expected


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
        ("I have a gym membership at Equinox.", [("me/equinox membership", "Equinox")]),
        ("I unsubscribed from Spotify.", [("me/spotify subscription", ""), ("me/*spotify", "")]),
        ("I'm a member of the chess club.", [("me/chess club membership", "chess club")]),
        ("We switched feature flags to Unleash.", [("@project/feature flags", "Unleash")]),
        ("Deployments now go through Argo CD.", [("@project/deployments", "Argo CD")]),
        ("We've replaced Kong with Traefik as our API gateway.", [("@project/api gateway", "Traefik")]),
        ("The frontend has been rebuilt in React.", [("frontend/framework", "React")]),
        ("I started a new job at Atlassian.", [("me/employer", "Atlassian")]),
    ],
)
def test_everyday_phrasings_fill_the_slot_they_name(spacy_backend: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy_backend, text) == expected


def test_a_dentist_and_a_doctor_are_different_slots(spacy_backend: SpacyBackend) -> None:
    assert slots(spacy_backend, "My dentist is Dr. Hall.") == [("me/dentist", "Dr. Hall")]
    assert slots(spacy_backend, "My doctor is Dr. Klein.") == [("me/doctor", "Dr. Klein")]
