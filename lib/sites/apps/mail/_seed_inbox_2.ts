/** The inbox of the seed, second part (messages 18-33, in id order). */
import type { SeedMessage } from "./_seed_types.ts";

export const INBOX_2: SeedMessage[] = [
  {
    folder: "inbox",
    from: "hannah",
    to: ["me"],
    subject: "Reminder: submit your March timesheet",
    date: "03-15 08:05",
    unread: true,
    labels: ["Work"],
    body: `Hi Alex,

A friendly reminder to submit your March timesheet by Tuesday, March 31. Timesheets submitted late are paid in the following cycle.

Thanks,
Hannah Kim
People Operations`,
  },
  {
    folder: "inbox",
    from: "hannah",
    to: ["me"],
    subject: "Benefits enrollment window closes March 20",
    date: "02-27 10:00",
    starred: true,
    labels: ["Work"],
    body: `Hi everyone,

The benefits enrollment window closes on Friday, March 20. If you want to change your health plan or add a dependant, please do it in the HR portal before then.

Hannah`,
  },
  {
    folder: "inbox",
    from: "kenji",
    to: ["me"],
    subject: "Scheduled maintenance: VPN, Saturday March 21",
    date: "03-11 16:00",
    labels: ["Work"],
    body: `Hi all,

The VPN will be unavailable on Saturday, March 21 from 22:00 to 02:00 while we upgrade the gateway. Email and the intranet stay available from the office network.

Kenji Watanabe
IT`,
  },
  {
    folder: "inbox",
    from: "kenji",
    to: ["me"],
    subject: "Your new laptop is ready for pickup",
    date: "02-24 15:30",
    body: `Hi Alex,

Your new laptop (14-inch, 32 GB RAM) is ready. You can pick it up at the IT desk on the 2nd floor any weekday between 9:00 and 17:00. Please bring the old one with you.

Kenji`,
  },
  {
    folder: "inbox",
    from: "jamie",
    to: ["me"],
    subject: "Mom's birthday dinner",
    date: "03-07 20:15",
    starred: true,
    labels: ["Personal"],
    body: `Hi Alex,

I booked a table for Mom's birthday: Saturday, March 28 at 7 pm at Lucia's Trattoria. Dad is bringing the cake. Can you take care of the flowers?

Jamie`,
  },
  {
    folder: "inbox",
    from: "jamie",
    to: ["me"],
    subject: "Photos from the lake trip",
    date: "02-22 18:00",
    labels: ["Personal"],
    body:
      `Finally sorted the photos from the lake trip. 214 of them! I put the best 40 in the shared album. The one of you falling off the paddleboard is number 17.

Jamie`,
  },
  {
    folder: "inbox",
    from: "oliver",
    to: ["me"],
    subject: "Tennis on Sunday?",
    date: "03-14 19:40",
    unread: true,
    labels: ["Personal"],
    body: `Hey Alex,

Court 2 is free on Sunday at 9:00. Want to play a couple of sets? Loser buys breakfast.

Oliver`,
  },
  {
    folder: "inbox",
    from: "ben",
    to: ["me"],
    subject: "Spring league sign-up",
    date: "03-02 12:00",
    labels: ["Personal"],
    body: `Hello members,

Sign-up for the spring doubles league is open. The fee is $120 per player and the deadline is Wednesday, March 18. Matches start on April 4.

Ben Walsh
Riverside Tennis Club`,
  },
  {
    folder: "inbox",
    from: "weekly",
    to: ["me"],
    subject: "The Weekly Brief: five tools for remote teams",
    date: "03-15 06:00",
    unread: true,
    body:
      `This week: five tools that remote teams actually keep using, why async stand-ups work, and a reader question about meeting-free Fridays.

You are receiving this because you subscribed to The Weekly Brief.`,
  },
  {
    folder: "inbox",
    from: "weekly",
    to: ["me"],
    subject: "The Weekly Brief: hiring in 2026",
    date: "03-08 06:00",
    body:
      `This week: what hiring managers are looking for in 2026, the rise of skills-based interviews, and three salary surveys compared.

You are receiving this because you subscribed to The Weekly Brief.`,
  },
  {
    folder: "inbox",
    from: "rachel",
    to: ["me"],
    cc: ["sofia"],
    subject: "Contract review: Northwind renewal",
    date: "03-10 15:45",
    starred: true,
    labels: ["Work"],
    body: `Hi Alex,

I've reviewed the Northwind renewal. Two points need attention before signing: the liability cap (clause 9.2) and the 60-day termination notice (clause 14.1). My notes are attached.

The current contract expires on April 30, 2026.

Rachel Stein
Stein & Partners`,
    attachments: [{
      name: "contract_notes.txt",
      type: "text/plain",
      content: `Northwind renewal - review notes (R. Stein)
9.2 Liability cap: proposed $50,000; recommend $150,000.
14.1 Termination: 60 days' notice; recommend 30 days.
Renewal term: 24 months.
Current contract expires 2026-04-30.`,
    }],
  },
  {
    folder: "inbox",
    from: "chloe",
    to: ["me"],
    subject: "Draft copy for the landing page",
    date: "03-09 09:50",
    unread: true,
    labels: ["Work"],
    body: `Bonjour Alex,

Here is the first draft of the landing page copy, attached as a text file. I kept the headline under eight words as you asked.

Chloé`,
    attachments: [{
      name: "landing_copy.md",
      type: "text/markdown",
      content: `# Logistics that keeps up with you

Same-day dispatch, real-time tracking and a team that answers the phone.

## Why teams switch to us
- 95% on-time delivery
- One invoice a month
- No long-term lock-in`,
    }],
  },
  {
    folder: "inbox",
    from: "grace",
    to: ["me"],
    subject: "Planned upgrade of your database cluster",
    date: "02-26 11:20",
    labels: ["Work"],
    body: `Hello Alex,

We will upgrade your managed database cluster (db-prod-2) to the new storage engine on Sunday, March 22, between 03:00 and 05:00 UTC. Expect up to 5 minutes of read-only mode.

Grace Adeyemi
CloudNest Hosting`,
  },
  {
    folder: "inbox",
    from: "emma",
    to: ["me"],
    subject: "Budget review call - Friday, March 20",
    date: "03-05 14:00",
    labels: ["Finance"],
    body: `Hi Alex,

Shall we hold the budget review call on Friday, March 20 at 11:00? I'll send a video link the day before. Please have the Q1 actuals ready.

Emma`,
  },
  {
    folder: "inbox",
    from: "sofia",
    to: ["me"],
    subject: "Team offsite survey",
    date: "02-18 09:00",
    labels: ["Work"],
    body: `Hi team,

Please fill in the offsite survey by February 25. We are choosing between a lake house in New Hampshire and a city hotel in Providence.

Sofia`,
  },
  {
    folder: "inbox",
    from: "marcus",
    to: ["me"],
    subject: "Re: Vendor cost sheet",
    date: "02-20 16:30",
    labels: ["Work"],
    body: `Alex,

Here's the vendor cost sheet with the February quotes added. Harbor Print came in cheapest for the brochures.

Marcus`,
    attachments: [{
      name: "vendor_costs.csv",
      type: "text/csv",
      content: `vendor,service,quote_usd
Harbor Print Co.,Brochures (2500),860.50
Quickprint Boston,Brochures (2500),1010.00
Northwind Logistics,Freight (monthly),4870.00
CloudNest Hosting,Hosting (monthly),2148.20`,
    }],
  },
];
