/** The inbox of the seed, first part (messages 1-17, in id order). */
import type { SeedMessage } from "./_seed_types.ts";

export const INBOX_1: SeedMessage[] = [
  {
    folder: "inbox",
    from: "sofia",
    to: ["me"],
    subject: "Q2 planning meeting moved to Thursday",
    date: "03-13 15:20",
    unread: true,
    starred: true,
    labels: ["Work"],
    body: `Hi Alex,

Quick heads-up: the Q2 planning meeting is moving from Wednesday to Thursday, March 19, 2026, at 2:30 pm in the Harbor conference room (3rd floor). It should take about 90 minutes.

Please bring the updated vendor cost sheet and your notes on the onboarding project. Marcus will present the logistics numbers.

Thanks,
Sofia`,
  },
  {
    folder: "inbox",
    from: "priya",
    to: ["me"],
    subject: "Homepage mockups v3",
    date: "03-14 16:42",
    unread: true,
    labels: ["Work"],
    body: `Hi Alex,

Version 3 of the homepage mockups is up on the shared board. I tightened the hero section and swapped the stock photo for the warehouse shot you liked.

My notes on what changed are attached. Could you send feedback by Wednesday, March 18?

Best,
Priya`,
    attachments: [{
      name: "mockup_notes.txt",
      type: "text/plain",
      content: `Homepage mockups v3 - change notes
1. Hero: headline shortened to "Logistics that keeps up with you".
2. Hero image: warehouse at dusk (replaces stock photo).
3. Pricing teaser moved above the testimonials.
4. Footer: added the careers link.
Open question: keep the blue CTA or test the orange one?`,
    }],
  },
  {
    folder: "inbox",
    from: "priya",
    to: ["me"],
    subject: "Re: Color palette for the spring campaign",
    date: "03-12 11:05",
    unread: true,
    labels: ["Work"],
    body: `Alex,

I narrowed the palette down to three options. My favourite is option B (deep teal #0F766E with a warm sand accent #E7D8C9). It prints well and passes contrast checks.

Let me know which one you want to take to Sofia.

Priya`,
  },
  {
    folder: "inbox",
    from: "priya",
    to: ["me"],
    subject: "Lunch on Friday?",
    date: "03-10 12:30",
    unread: true,
    labels: ["Personal"],
    body: `Hey Alex,

Are you free for lunch this Friday? There's a new ramen place on Hanover Street I've been wanting to try. 12:30 works for me.

Priya`,
  },
  {
    folder: "inbox",
    from: "priya",
    to: ["me"],
    subject: "Font licensing question",
    date: "03-03 09:15",
    labels: ["Work"],
    body: `Hi Alex,

Do we have a web license for the Halden Sans family, or only the desktop one? If we only have desktop, the web license is $349 per year for up to 500k page views.

Thanks,
Priya`,
  },
  {
    folder: "inbox",
    from: "northwindBilling",
    to: ["me"],
    subject: "Invoice NW-5521 for February shipments",
    date: "03-02 08:00",
    labels: ["Finance"],
    body: `Dear customer,

Please find attached invoice NW-5521 for the shipments handled in February 2026.

Amount due: $4,870.00
Due date: March 31, 2026

Payment can be made by bank transfer to the account listed on the invoice.

Northwind Logistics - Billing`,
    attachments: [{
      name: "invoice_NW-5521.txt",
      type: "text/plain",
      content: `NORTHWIND LOGISTICS - INVOICE NW-5521
Bill to: Sandbox Co., attn. Alex Morgan
Period: February 2026

Palletised freight, 38 shipments ........ $3,990.00
Cold-chain surcharge ..................... $540.00
Fuel surcharge ........................... $340.00
TOTAL DUE ................................ $4,870.00
Due date: 2026-03-31`,
    }],
  },
  {
    folder: "inbox",
    from: "cloudnestBilling",
    to: ["me"],
    subject: "Your CloudNest invoice CN-2026-03 is ready",
    date: "03-01 06:00",
    unread: true,
    labels: ["Finance"],
    body: `Hello Alex,

Your CloudNest invoice CN-2026-03 for the billing period February 1 - February 28, 2026 is ready.

Total: $2,148.20
The card ending in 4421 will be charged on March 15, 2026.

CloudNest Hosting`,
  },
  {
    folder: "inbox",
    from: "cloudnestBilling",
    to: ["me"],
    subject: "Your CloudNest invoice CN-2026-02 is ready",
    date: "02-01 06:00",
    labels: ["Finance"],
    body: `Hello Alex,

Your CloudNest invoice CN-2026-02 for the billing period January 1 - January 31, 2026 is ready.

Total: $2,315.75
The card ending in 4421 will be charged on February 15, 2026.

CloudNest Hosting`,
  },
  {
    folder: "inbox",
    from: "tom",
    to: ["me"],
    subject: "Invoice HP-1187 - brochure print run",
    date: "03-09 14:10",
    starred: true,
    labels: ["Finance"],
    body: `Hi Alex,

The brochures shipped this morning (2,500 copies, tri-fold, matte). Invoice HP-1187 is attached: $860.50, payable within 30 days.

Thanks for the quick proof approval.

Tom Becker
Harbor Print Co.`,
    attachments: [{
      name: "invoice_HP-1187.txt",
      type: "text/plain",
      content: `HARBOR PRINT CO. - INVOICE HP-1187
Customer: Sandbox Co.
Tri-fold brochure, matte, 2,500 copies ..... $795.00
Delivery ................................... $65.50
TOTAL ...................................... $860.50
Terms: net 30`,
    }],
  },
  {
    folder: "inbox",
    from: "emma",
    to: ["me"],
    subject: "Q1 advisory fee invoice BW-0312",
    date: "03-11 10:00",
    unread: true,
    labels: ["Finance"],
    body: `Dear Alex,

Attached is invoice BW-0312 for our Q1 advisory services. The amount is $3,400.00, due by April 10, 2026.

As discussed, the fee covers the cash-flow review and the two budget workshops.

Kind regards,
Emma Lindqvist
Brightwater Finance`,
    attachments: [{
      name: "invoice_BW-0312.txt",
      type: "text/plain",
      content: `BRIGHTWATER FINANCE - INVOICE BW-0312
Client: Sandbox Co.
Q1 2026 advisory retainer ............ $2,600.00
Budget workshops (2 x $400) .......... $800.00
TOTAL ................................ $3,400.00
Due: 2026-04-10`,
    }],
  },
  {
    folder: "inbox",
    from: "skyway",
    to: ["me"],
    subject: "Your flight confirmation: Boston to Lisbon",
    date: "03-06 19:22",
    starred: true,
    labels: ["Travel"],
    body: `Thank you for booking with Skyway Airlines.

Confirmation code: QX7L2M
Flight SK 482, Boston (BOS) to Lisbon (LIS)
Departs Tuesday, April 7, 2026 at 18:45, arrives April 8 at 06:55.
Return: flight SK 483 on Sunday, April 12, 2026 at 10:15.

Your itinerary is attached.`,
    attachments: [{
      name: "itinerary_QX7L2M.txt",
      type: "text/plain",
      content: `SKYWAY AIRLINES - ITINERARY
Passenger: MORGAN/ALEX
Confirmation: QX7L2M
SK 482  07APR26  BOS 18:45 -> LIS 06:55 (+1)  Seat 23C
SK 483  12APR26  LIS 10:15 -> BOS 13:05       Seat 22A
Baggage: 1 checked bag, 23 kg`,
    }],
  },
  {
    folder: "inbox",
    from: "luis",
    to: ["me"],
    subject: "Hotel options in Lisbon",
    date: "03-08 10:40",
    labels: ["Travel"],
    body: `Hi Alex,

For April 8-12 I found three hotels within walking distance of the conference venue:

1. Hotel Miradouro - 145 EUR per night, breakfast included
2. Casa do Rio - 168 EUR per night
3. Lisboa Central Suites - 122 EUR per night, no breakfast

Tell me which one you prefer and I'll book it.

Luis Fernández
Meridian Travel`,
  },
  {
    folder: "inbox",
    from: "luis",
    to: ["me"],
    subject: "Re: Hotel options in Lisbon - booking confirmed",
    date: "03-12 17:05",
    unread: true,
    labels: ["Travel"],
    body: `Hi Alex,

You're all set: Hotel Miradouro, check-in Wednesday, April 8, check-out Sunday, April 12 (4 nights, 145 EUR per night, 580 EUR in total). Booking reference MER-88213.

Free cancellation until April 1.

Luis`,
  },
  {
    folder: "inbox",
    from: "daniel",
    to: ["me"],
    subject: "Warehouse walkthrough next week",
    date: "03-13 09:30",
    unread: true,
    labels: ["Work"],
    body: `Hi Alex,

Could we do the warehouse walkthrough on Tuesday, March 24, 2026 at 10:00 am at our Chelsea depot (41 Marginal Street)? It takes about an hour. Safety shoes are required on the floor; we have spares at reception.

Let me know if that works.

Daniel Okafor
Northwind Logistics`,
  },
  {
    folder: "inbox",
    from: "daniel",
    to: ["me"],
    subject: "February shipment summary",
    date: "03-04 13:00",
    labels: ["Work"],
    body: `Hi Alex,

Attached is the shipment summary for February: 38 shipments, 2 delayed (both weather related), 0 damaged.

Daniel`,
    attachments: [{
      name: "shipments_feb.csv",
      type: "text/csv",
      content: `week,shipments,delayed,damaged
2026-W06,9,0,0
2026-W07,11,1,0
2026-W08,8,1,0
2026-W09,10,0,0`,
    }],
  },
  {
    folder: "inbox",
    from: "marcus",
    to: ["me"],
    subject: "Logistics numbers for Thursday",
    date: "03-14 11:10",
    labels: ["Work"],
    body: `Alex,

I've got the logistics numbers ready for the planning meeting. Headline: on-time delivery went from 91% in January to 95% in February. I'll keep it to ten minutes.

Marcus`,
  },
  {
    folder: "inbox",
    from: "marcus",
    to: ["me"],
    subject: "Coffee machine on 3rd floor is fixed",
    date: "03-05 08:45",
    body: `Good news: the coffee machine on the 3rd floor is working again. The technician replaced the pump.

Marcus`,
  },
];
