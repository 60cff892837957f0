/**
 * The phrasing helpers every template shares (docs/generation.md, "Phrasings"): the text artifacts of issue #31
 * (doubled punctuation after an abbreviation, "1 points") are ruled out here once, not per template.
 */

/** `text` ended with a period, unless it already ends with terminal punctuation (`Harbor Print Co.` stays as is). */
export function period(text: string): string {
  return /[.!?…]["'”’)]?$/.test(text.trimEnd()) ? text.trimEnd() : `${text.trimEnd()}.`;
}

/** `n` and its noun in the right number: `1 point`, `3 points`; `many` for an irregular plural. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** An address's local part that names no person: a service, a list, a department (`billing@`, `noreply@`). */
const personalAddress = (name: string, email: string): boolean => {
  const fold = (s: string) => s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z]/g, "");
  const first = fold(name.split(/\s+/)[0] ?? "");
  const local = email.split("@")[0].split(/[._+-]/).map(fold);
  return first.length > 1 && local.includes(first);
};

/**
 * The first name a message to the sender `name` <`email`> greets, or undefined when the sender is no person (a
 * newsletter, a shop, an organisation: "The Weekly Brief" <newsletter@...>): a person's address carries their first
 * name (`ben.walsh@` for Ben Walsh).
 */
export function firstNameOf(name: string, email: string): string | undefined {
  return personalAddress(name, email) ? name.split(/\s+/)[0] : undefined;
}

/**
 * An opening that greets the sender by first name when the sender is a person (`Hi Ben`, `Thanks, Ben`), and the
 * opening alone otherwise (`Hi`, `Thanks`): a reply never greets "The" of "The Weekly Brief".
 */
export function greeting(opening: string, name: string, email: string): string {
  const who = firstNameOf(name, email);
  if (!who) return opening;
  return /^(hi|hello|dear)$/i.test(opening) ? `${opening} ${who}` : `${opening}, ${who}`;
}

/** The first sentence of a review of `rating` stars (1 to 5): what a review's text says agrees with its rating. */
export function reviewMood(rating: number): string {
  const moods = [
    "Disappointed overall.",
    "Not great for me.",
    "Does the job.",
    "Very happy with it.",
    "Excellent buy.",
  ];
  const mood = moods[rating - 1];
  if (!mood) throw new Error(`a review's rating is 1 to 5 stars, not ${rating}`);
  return mood;
}

const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** The day of an ISO date `YYYY-MM-DD` written with another year after it: `10 March (2025)` for a year before. */
export function dayOfYear(iso: string, year: number): string {
  const [, m, d] = iso.split("-").map(Number);
  return `${d} ${MONTH_NAMES[m - 1]} (${year})`;
}
