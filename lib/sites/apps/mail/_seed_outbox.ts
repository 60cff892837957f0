/** Sent (messages 44-52), Drafts (53-55) and Trash (56-60) of the seed, in id order. */
import type { SeedMessage } from "./_seed_types.ts";

const SENT: SeedMessage[] = [
  {
    folder: "sent",
    from: "me",
    to: ["sofia"],
    subject: "Re: Team offsite survey",
    date: "02-18 11:30",
    labels: ["Work"],
    body: `Hi Sofia,

Done - I voted for the lake house. Happy to help with the logistics.

Alex`,
  },
  {
    folder: "sent",
    from: "me",
    to: ["priya"],
    subject: "Re: Font licensing question",
    date: "03-03 10:02",
    labels: ["Work"],
    body: `Hi Priya,

We only have the desktop license. Go ahead and buy the web license ($349 per year); put it on the website refresh budget.

Alex`,
  },
  {
    folder: "sent",
    from: "me",
    to: ["tom"],
    subject: "Brochure print quantities",
    date: "02-24 09:10",
    labels: ["Work"],
    body: `Hi Tom,

We'd like 2,500 tri-fold brochures on matte paper. Could you send a proof by the end of the week?

Alex`,
  },
  {
    folder: "sent",
    from: "me",
    to: ["luis"],
    subject: "Lisbon trip in April",
    date: "03-05 16:20",
    labels: ["Travel"],
    body: `Hi Luis,

I'm attending a conference in Lisbon, April 8-11. Could you find me a hotel near the venue for April 8-12, under 170 EUR per night?

Alex`,
  },
  {
    folder: "sent",
    from: "me",
    to: ["daniel"],
    cc: ["marcus"],
    subject: "Re: February shipment summary",
    date: "03-04 15:40",
    labels: ["Work"],
    body: `Thanks Daniel, this is great. Marcus will include the numbers in the Q2 planning deck.

Alex`,
  },
  {
    folder: "sent",
    from: "me",
    to: ["jamie"],
    subject: "Re: Mom's birthday dinner",
    date: "03-07 21:00",
    labels: ["Personal"],
    body: `Sure, I'll get the flowers. Peonies, right?

Alex`,
  },
  {
    folder: "sent",
    from: "me",
    to: ["emma"],
    subject: "Question about the advisory fee",
    date: "02-26 13:00",
    labels: ["Finance"],
    body: `Hi Emma,

Does the Q1 advisory fee include the two budget workshops, or are they billed separately?

Alex`,
  },
  {
    folder: "sent",
    from: "me",
    to: ["chloe"],
    subject: "Landing page brief",
    date: "02-27 15:00",
    labels: ["Work"],
    body: `Hi Chloé,

The brief for the landing page is attached. Headline under eight words, friendly but not cute.

Alex`,
    attachments: [{
      name: "brief.txt",
      type: "text/plain",
      content: `Landing page brief
Audience: operations managers at mid-size retailers
Tone: friendly, confident, no jargon
Headline: under 8 words
Deadline for first draft: 2026-03-10`,
    }],
  },
  {
    folder: "sent",
    from: "me",
    to: ["marcus"],
    subject: "Vendor cost sheet",
    date: "02-20 14:00",
    labels: ["Work"],
    body: `Marcus,

Could you add the February quotes to the vendor cost sheet and send it back?

Alex`,
  },
];

const DRAFTS: SeedMessage[] = [
  {
    folder: "drafts",
    from: "me",
    to: ["rachel"],
    subject: "Re: Contract review: Northwind renewal",
    date: "03-11 09:00",
    labels: ["Work"],
    body: `Hi Rachel,

Thanks for the notes. I agree on the liability cap. On the termination notice,`,
  },
  {
    folder: "drafts",
    from: "me",
    to: [],
    subject: "Ideas for the spring newsletter",
    date: "03-13 18:00",
    body: `- customer story: Northwind depot
- new tracking page
- team photo from the offsite`,
  },
  {
    folder: "drafts",
    from: "me",
    to: ["hannah"],
    subject: "Vacation request: April 7-14",
    date: "03-14 17:30",
    body: `Hi Hannah,

I'd like to request vacation from April 7 to April 14 (5 working days).`,
  },
];

const TRASH: SeedMessage[] = [
  {
    folder: "trash",
    from: "chairworks",
    to: ["me"],
    subject: "Flash sale: 40% off office chairs",
    date: "03-10 07:00",
    body: `48 hours only: 40% off all ergonomic office chairs. Free delivery over $300.`,
  },
  {
    folder: "trash",
    from: "prize",
    to: ["me"],
    subject: "You've won a gift card!",
    date: "03-12 03:14",
    unread: true,
    body: `Congratulations! Click the link to claim your $500 gift card. Offer expires in 24 hours.`,
  },
  {
    folder: "trash",
    from: "marcus",
    to: ["me"],
    subject: "Lunch order",
    date: "03-02 11:20",
    body: `Ordering sandwiches for the team meeting. Turkey or veggie?`,
  },
  {
    folder: "trash",
    from: "weekly",
    to: ["me"],
    subject: "The Weekly Brief: the four-day week",
    date: "03-01 06:00",
    body: `This week: what a year of four-day weeks taught three companies.`,
  },
  {
    folder: "trash",
    from: "ben",
    to: ["me"],
    subject: "Court 3 closed for resurfacing",
    date: "02-20 09:00",
    body: `Court 3 is closed from February 23 to March 6 for resurfacing. Courts 1, 2 and 4 are open as usual.`,
  },
];

export const OUTBOX_AND_TRASH: SeedMessage[] = [...SENT, ...DRAFTS, ...TRASH];
