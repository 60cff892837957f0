/** The people of the mailbox: the user's contacts and the other senders that write to the user. */

export interface Person {
  name: string;
  email: string;
}

export interface SeedContact extends Person {
  company: string;
  phone: string;
}

/** The signed-in user as a sender. */
export const ME: Person = { name: "Alex Morgan", email: "alex@sandbox.test" };

/** The address book, in seed (id) order. */
export const CONTACTS: SeedContact[] = [
  { name: "Priya Nair", email: "priya.nair@larkspur.example", company: "Larkspur Design", phone: "+1 617 555 0171" },
  {
    name: "Daniel Okafor",
    email: "daniel.okafor@northwind.example",
    company: "Northwind Logistics",
    phone: "+1 617 555 0188",
  },
  {
    name: "Emma Lindqvist",
    email: "emma.lindqvist@brightwater.example",
    company: "Brightwater Finance",
    phone: "+1 617 555 0123",
  },
  { name: "Marcus Chen", email: "marcus.chen@sandbox.test", company: "Sandbox Co.", phone: "+1 617 555 0145" },
  { name: "Sofia Rossi", email: "sofia.rossi@sandbox.test", company: "Sandbox Co.", phone: "+1 617 555 0102" },
  {
    name: "Tom Becker",
    email: "tom.becker@harborprint.example",
    company: "Harbor Print Co.",
    phone: "+1 781 555 0164",
  },
  { name: "Hannah Kim", email: "hannah.kim@sandbox.test", company: "Sandbox Co.", phone: "+1 617 555 0110" },
  {
    name: "Luis Fernández",
    email: "luis.fernandez@meridiantravel.example",
    company: "Meridian Travel",
    phone: "+1 857 555 0139",
  },
  {
    name: "Grace Adeyemi",
    email: "grace.adeyemi@cloudnest.example",
    company: "CloudNest Hosting",
    phone: "+1 415 555 0197",
  },
  { name: "Oliver Grant", email: "oliver.grant@mailbox.example", company: "", phone: "+1 617 555 0156" },
  { name: "Jamie Morgan", email: "jamie.morgan@mailbox.example", company: "", phone: "+1 508 555 0181" },
  {
    name: "Rachel Stein",
    email: "rachel.stein@steinpartners.example",
    company: "Stein & Partners",
    phone: "+1 617 555 0129",
  },
  { name: "Kenji Watanabe", email: "kenji.watanabe@sandbox.test", company: "Sandbox Co.", phone: "+1 617 555 0133" },
  {
    name: "Chloé Martin",
    email: "chloe.martin@ateliermartin.example",
    company: "Atelier Martin",
    phone: "+1 646 555 0117",
  },
  {
    name: "Ben Walsh",
    email: "ben.walsh@riversidetennis.example",
    company: "Riverside Tennis Club",
    phone: "+1 617 555 0190",
  },
];

/** Senders that are not in the address book. */
const OTHERS: Record<string, Person> = {
  northwindBilling: { name: "Northwind Billing", email: "billing@northwind.example" },
  cloudnestBilling: { name: "CloudNest Billing", email: "billing@cloudnest.example" },
  skyway: { name: "Skyway Airlines", email: "noreply@skywayair.example" },
  weekly: { name: "The Weekly Brief", email: "newsletter@weeklybrief.example" },
  chairworks: { name: "ChairWorks Deals", email: "deals@chairworks.example" },
  prize: { name: "Prize Center", email: "promo@prize-center.example" },
};

/** A person by key: a contact's first name in lower case ("priya", "chloé" is "chloe") or another sender's key. */
export function who(key: string): Person {
  if (key === "me") return ME;
  if (OTHERS[key]) return OTHERS[key];
  const c = CONTACTS.find((p) =>
    p.name.split(" ")[0].toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "") === key
  );
  if (!c) throw new Error(`no seed person "${key}"`);
  return { name: c.name, email: c.email };
}
