/**
 * The text artifacts of issue #31, held as rules over the generated text of every instance of the templates that
 * had them (every parameter record, every phrasing), not over one instance: a review's rating and its text agree, a
 * company name ending in "Co." is not followed by a second period, and a reply greets a person by first name, never
 * a newsletter or an organisation.
 */
import assert from "node:assert/strict";
import { instantiate } from "./generate.ts";
import { seedDb } from "./data.ts";
import { TEMPLATES } from "./templates/mod.ts";
import { firstNameOf, greeting, reviewMood } from "./text.ts";
import type { Params } from "./template.ts";

/** Every instance of template `id`: its parameters and its instruction, for each phrasing. */
function everyInstance(id: string): { p: Params; instruction: string }[] {
  const t = TEMPLATES.find((x) => x.id === id);
  assert.ok(t, `no template ${id}`);
  const all: { p: Params; instruction: string }[] = [];
  for (const p of t.params(seedDb(t.site))) {
    for (let i = 0; i < t.phrasings.length; i++) all.push({ p, instruction: String(instantiate(t, p, i).instruction) });
  }
  return all;
}

Deno.test("a review's text agrees with its rating, on every instance of the review templates", () => {
  for (const id of ["shop.compose_text.signed_in_review", "shop.compose_text.category_review"]) {
    const all = everyInstance(id);
    assert.ok(all.length > 100, id);
    for (const { p, instruction } of all) {
      const rating = Number(p.rating), text = String(p.text);
      assert.ok(text.startsWith(reviewMood(rating)), `${id}: ${rating} stars with "${text}"`);
      for (let other = 1; other <= 5; other++) {
        if (other !== rating) assert.ok(!instruction.includes(reviewMood(other)), `${id}: ${instruction}`);
      }
      assert.match(instruction, new RegExp(`\\b${rating}[- ]star`), instruction);
    }
  }
});

Deno.test("no instruction of the contact form doubles a period after a company's 'Co.'", () => {
  const all = everyInstance("mail.submit_form.menu_add_contact");
  assert.ok(all.some(({ p }) => String(p.company).endsWith(".")), "no company ending in a period: the test is void");
  for (const { instruction } of all) assert.doesNotMatch(instruction, /\.\./, instruction);
});

Deno.test("a reply greets a person by first name and never a newsletter or an organisation", () => {
  const db = seedDb("mail");
  const all = everyInstance("mail.compose_text.open_then_reply");
  let people = 0, others = 0;
  for (const { p } of all) {
    const m = db.get<{ from_name: string; from_email: string }>(
      "SELECT from_name, from_email FROM messages WHERE id = ?",
      p.id,
    )!;
    const who = firstNameOf(m.from_name, m.from_email);
    const text = String(p.text);
    const named = /^(?:Thanks|Hi|Got it),? ([^,.\s]+)[,.]/.exec(text)?.[1];
    if (who) {
      people++;
      assert.equal(named, who, text);
    } else {
      others++;
      assert.equal(named, undefined, `${m.from_name} <${m.from_email}>: ${text}`);
      assert.ok(!text.includes(m.from_name.split(" ")[0] + ","), text);
    }
  }
  assert.ok(people > 0 && others > 0, `${people} replies to people, ${others} to others`);
});

Deno.test("greeting: a person by first name, a service or a list by the opening alone", () => {
  assert.equal(greeting("Hi", "Ben Walsh", "ben.walsh@riversidetennis.example"), "Hi Ben");
  assert.equal(greeting("Thanks", "Luis Fernández", "luis.fernandez@meridiantravel.example"), "Thanks, Luis");
  assert.equal(greeting("Hi", "The Weekly Brief", "newsletter@weeklybrief.example"), "Hi");
  assert.equal(greeting("Thanks", "CloudNest Billing", "billing@cloudnest.example"), "Thanks");
  assert.equal(firstNameOf("Skyway Airlines", "noreply@skywayair.example"), undefined);
});
