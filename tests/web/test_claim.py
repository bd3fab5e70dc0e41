"""Claim after sign-in (issue 49, api.md "Share links"): a person takes part through a share
link as a guest, without an account; later they sign in on the same phone and the app offers
to claim that guest; claimed, the same participant (same id, their expense still theirs) is
their account's, and the owner's phone shows the new name live."""
from __future__ import annotations

import re
import uuid

from playwright.sync_api import expect

from tests.web.conftest import call
from tests.web.test_web_app import add_expense, create_group, sign_in


def test_a_share_link_guest_signs_in_later_and_claims_the_guest(phones):
    owner, phone = phones(), phones()
    sign_in(owner, "Olga")
    name = f"Ski week {uuid.uuid4().hex[:4]}"
    group_id = create_group(owner, name, guests=("Bo",))
    owner.page.get_by_role("button", name="Create share link").click()
    link = owner.page.get_by_role("textbox", name="Share link").input_value()
    _, roster = call(owner.url, "GET", f"/groups/{group_id}/participants", owner.token())
    roster = roster["items"] if isinstance(roster, dict) else roster
    bo = next(p["participantId"] for p in roster if p["displayName"] == "Bo")

    page = phone.page
    page.goto(link)
    page.get_by_role("radio", name="Bo").check()
    page.get_by_role("button", name="Join").click()
    expect(page.get_by_text("You take part as Bo through a share link.")).to_be_visible()
    add_expense(page, "Taxi", "12.00")
    expect(page.get_by_text("Bo paid €12.00")).to_be_visible()
    page.wait_for_function("() => !document.querySelector('.pending')")  # sent, not queued
    page.get_by_role("link", name="Balances").click()  # statements are not a link's to read
    expect(page.get_by_role("list", name="Balances").get_by_text("Bo", exact=True)).to_be_visible()
    expect(page.get_by_role("link", name="Bo: statement")).to_have_count(0)

    # Signing in keeps the guest aside; home then offers the claim.
    page.get_by_role("button", name="Sign in to keep it").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Sign in")
    sign_in(phone, "Bea")
    offer = page.get_by_role("region", name="Are you Bo?")
    expect(offer).to_contain_text(f"You took part in {name} as Bo through a share link.")
    phone.assert_accessible("home, claim offered")
    phone.shot("claim")
    # The link session's hour is over by now (as if they signed in later): the claim renews
    # it through the link it came from, and sends the fresh one.
    page.evaluate("""() => { const kept = JSON.parse(localStorage.getItem('tailspend.claimable'));
      kept.session.expiresAt = new Date(Date.now() - 1000).toISOString();
      localStorage.setItem('tailspend.claimable', JSON.stringify(kept)); }""")
    page.reload()
    with page.expect_response(lambda r: r.url.endswith("/links/session")) as renewed:
        offer.get_by_role("button", name="Claim Bo").click()
    assert renewed.value.status == 201

    expect(page.get_by_role("heading", level=1)).to_have_text(name)
    assert re.search(rf"/groups/{group_id}$", page.url)
    expect(page.get_by_role("link", name="Edit Taxi")).to_be_visible()  # a member now, not a guest
    expect(page.get_by_text("through a share link")).to_have_count(0)
    phone.assert_accessible("group, claimed")

    token = phone.token()
    _, group = call(phone.url, "GET", f"/groups/{group_id}", token)
    assert group["myParticipantId"] == bo  # the same participant, now this account's
    _, roster = call(phone.url, "GET", f"/groups/{group_id}/participants", token)
    roster = roster["items"] if isinstance(roster, dict) else roster
    claimed = next(p for p in roster if p["participantId"] == bo)
    assert (claimed["type"], claimed["displayName"]) == ("USER", "Bea")
    _, expenses = call(phone.url, "GET", f"/groups/{group_id}/expenses", token)
    [taxi] = expenses["items"]
    assert taxi["payments"] == [{"participantId": bo, "amount": 1200}]

    # The owner's phone follows live: Bo is Bea now.
    owner.page.get_by_role("link", name="People").click()
    expect(owner.page.get_by_role("list", name="People").get_by_text("Bea", exact=True)).to_be_visible(timeout=5000)

    # Home no longer offers it; the group is listed.
    page.get_by_role("link", name="Groups").click()
    expect(page.get_by_role("link", name=re.compile(re.escape(name)))).to_be_visible()
    expect(page.get_by_role("region", name="Are you Bo?")).to_have_count(0)


def test_a_claim_of_a_guest_claimed_meanwhile_is_refused_in_words(phones):
    owner, phone = phones(), phones()
    sign_in(owner, "Omar")
    group_id = create_group(owner, f"Lake {uuid.uuid4().hex[:4]}", guests=("Ed",))
    owner.page.get_by_role("button", name="Create share link").click()
    link = owner.page.get_by_role("textbox", name="Share link").input_value()

    page = phone.page
    page.goto(link)
    page.get_by_role("radio", name="Ed").check()
    page.get_by_role("button", name="Join").click()
    expect(page.get_by_text("You take part as Ed through a share link.")).to_be_visible()
    session = page.evaluate("JSON.parse(localStorage.getItem('tailspend.session'))")
    page.get_by_role("button", name="Sign in to keep it").click()
    # Someone else claims Ed with the same session first.
    status, other = call(phone.url, "POST", "/dev/tokens", None,
                         {"email": f"ed-{uuid.uuid4().hex[:8]}@example.com", "displayName": "Ed"})
    assert status == 201
    status, reply = call(phone.url, "POST", f"/groups/{group_id}/links/claim", other["accessToken"],
                         {"sessionToken": session["token"]})
    assert status == 200, reply

    sign_in(phone, "Eve")
    offer = page.get_by_role("region", name="Are you Ed?")
    offer.get_by_role("button", name="Claim Ed").click()
    expect(offer.get_by_role("alert")).to_have_text("Ed has already been claimed by an account.")
    expect(page.get_by_role("heading", level=1)).to_have_text("Your groups")  # still signed in
    offer.get_by_role("button", name="Not now").click()
    expect(page.get_by_role("region", name="Are you Ed?")).to_have_count(0)
