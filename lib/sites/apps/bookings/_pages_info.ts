/**
 * Reference pages of the building, as intranet booking sites carry them: the catering menu, whose dishes' diets
 * are icons only (`<img alt="vegan" title="vegan">`, the words exist nowhere else on the page), and the facilities
 * handbook, a long read-only note in a scrolling text box (what is near its end shows only once it is scrolled).
 * Static content: no table, nothing a task writes.
 */
import type { Hono } from "hono";
import { html } from "hono/html";
import type { SandboxEnv } from "../../types.ts";
import { BASE, type Ctx, page } from "./_views.ts";

/** Diet marks: the icon's colour and its words (alt and title). */
const DIETS = {
  vegan: ["16a34a", "vegan"],
  vegetarian: ["65a30d", "vegetarian"],
  glutenFree: ["ca8a04", "gluten-free"],
  gluten: ["b45309", "contains gluten"],
  nuts: ["92400e", "contains nuts"],
} as const;
type Diet = keyof typeof DIETS;

/** The lunch dishes: name, what it is, its diet marks. */
export const DISHES: readonly [string, string, Diet[]][] = [
  ["Lentil soup", "Red lentils, cumin, a slice of sourdough", ["vegan", "gluten"]],
  ["Chicken wrap", "Grilled chicken, slaw, flour tortilla", ["gluten"]],
  ["Chickpea curry", "Chickpeas, spinach and coconut, with rice", ["vegan", "glutenFree"]],
  ["Quinoa salad", "Quinoa, feta, cucumber and mint", ["vegetarian", "glutenFree"]],
  ["Falafel pitta", "Falafel, hummus and pickles in a pitta", ["vegan", "gluten"]],
  ["Satay noodles", "Rice noodles, tofu, peanut sauce", ["vegan", "glutenFree", "nuts"]],
  ["Mushroom risotto", "Arborio rice, mushrooms, parmesan", ["vegetarian", "glutenFree"]],
];

/** A diet icon: a small coloured disc as an SVG data URL, named only by its alt and title. */
function dietIcon(d: Diet) {
  const [colour, words] = DIETS[d];
  const svg = `<svg xmlns='http://www.w3.org/2000/svg' width='16' height='16'>` +
    `<circle cx='8' cy='8' r='7' fill='%23${colour}'/></svg>`;
  return html`
    <img class="diet" src="data:image/svg+xml,${svg}" alt="${words}" title="${words}" width="16"
      height="16">
  `;
}

function menu(c: Ctx) {
  return page(c, {
    title: "Catering menu",
    crumbs: [{ href: `${BASE}/catering/menu`, label: "Catering menu" }],
    body: html`
      <h1>Catering menu</h1>
      <p class="muted">Lunch dishes for meetings, ordered from a booking's page. Hover an icon to see what it means.</p>
      <ul class="dishes" id="dishes" style="list-style:none;padding:0;max-width:560px">${DISHES.map((
        [name, what, diets],
      ) =>
        html`
          <li
            style="padding:8px 0;border-bottom:1px solid #e5e7eb"><strong>${name}</strong> ${diets.map(
              dietIcon,
            )}<br><span class="muted">${what}</span></li>
        `
      )}</ul>
    `,
  });
}

/** The handbook's sections: heading, lines. The lake wing's Wi-Fi comes last, far below the box's first view. */
const HANDBOOK: readonly [string, string[]][] = [
  ["Opening hours", [
    "The building opens at 07:00 and closes at 20:00 on weekdays.",
    "At weekends the main entrance stays locked; use the side door with your badge.",
  ]],
  ["Tower wing", [
    "Rooms Aurora to Delta are in the tower wing, floors 3 to 5.",
    "Tower wing Wi-Fi: network TOWER-GUEST, password kite-2290.",
    "The tower lifts stop at floor 5; the roof terrace is closed in winter.",
  ]],
  ["Cleaning", [
    "Rooms are cleaned every evening after 18:00.",
    "Leave whiteboards as you found them; markers are in the top drawer.",
    "Report spills to the front desk on extension 100.",
  ]],
  ["Equipment", [
    "Every room has an HDMI cable and a USB-C adapter; projector rooms keep the remote on the wall.",
    "Video rooms have a camera bar; switch it on at the wall panel.",
    "Borrowed equipment goes back to the front desk by 17:00.",
  ]],
  ["Safety", [
    "Fire exits are at both ends of every floor; the assembly point is the car park.",
    "First aiders wear green lanyards; the kit is beside the front desk.",
    "Fire drills happen on the first Monday of the month at 10:00.",
  ]],
  ["Parking", [
    "Visitor parking is on level -1; register number plates at the front desk.",
    "Bicycle racks are by the side door; showers are on floor 1.",
  ]],
  ["Accessibility", [
    "Step-free access is through the main entrance; all lifts reach every floor.",
    "Hearing loops are fitted in Harbor, Iris and Kestrel.",
  ]],
  ["Deliveries", [
    "Catering arrives 15 minutes before a booking starts and is collected after it ends.",
    "Parcels for staff go to the post room on floor 1.",
  ]],
  ["Garden wing", [
    "Rooms Ember to Granite are in the garden wing, ground floor.",
    "Garden wing Wi-Fi: network GARDEN-GUEST, password fern-8124.",
  ]],
  ["Lake wing", [
    "Rooms Harbor to Lumen are in the lake wing, floors 1 and 2.",
    "Lake wing Wi-Fi: network LAKE-GUEST, password heron-4471.",
    "The lake wing's terrace doors stay closed during meetings.",
  ]],
];

/** The handbook as the text box holds it: headings, their lines, a blank line between sections. */
export const HANDBOOK_TEXT = HANDBOOK.map(([head, lines]) => `${head.toUpperCase()}\n${lines.join("\n")}`)
  .join("\n\n") + "\n";

function handbook(c: Ctx) {
  return page(c, {
    title: "Facilities handbook",
    crumbs: [{ href: `${BASE}/handbook`, label: "Facilities handbook" }],
    body: html`
      <h1>Facilities handbook</h1>
      <p class="muted">What to know about the building before your meeting. Scroll the box to read it all.</p>
      <label for="handbook" class="muted" style="display:block">Handbook</label>
      <textarea id="handbook" readonly rows="10" cols="80"
        style="width:640px;font:14px/1.5 Georgia,serif;resize:none">${HANDBOOK_TEXT}</textarea>
    `,
  });
}

/** Mounts the catering menu and the handbook. */
export function mountInfoPages(app: Hono<SandboxEnv>): void {
  app.get("/catering/menu", menu);
  app.get("/handbook", handbook);
}
