/** Archive (messages 34-43) of the seed, in id order. */
import type { SeedMessage } from "./_seed_types.ts";

export const ARCHIVE: SeedMessage[] = [
  {
    folder: "archive",
    from: "priya",
    to: ["me"],
    subject: "Kickoff notes",
    date: "02-16 10:00",
    labels: ["Work"],
    body: `Hi Alex,

Thanks for the kickoff today. Summary: the website refresh launches on May 4, design sign-off by April 15, and we meet every second Monday.

Priya`,
  },
  {
    folder: "archive",
    from: "rachel",
    to: ["me"],
    subject: "Invoice SP-0219 for legal services",
    date: "02-19 09:00",
    labels: ["Finance"],
    body: `Dear Alex,

Please find attached invoice SP-0219 for legal services in January (contract drafting, 6.5 hours). Amount: $1,950.00. This invoice has been paid - thank you.

Rachel Stein`,
    attachments: [{
      name: "invoice_SP-0219.txt",
      type: "text/plain",
      content: `STEIN & PARTNERS - INVOICE SP-0219
Client: Sandbox Co.
Contract drafting, 6.5 h x $300 ...... $1,950.00
TOTAL ................................ $1,950.00
Status: PAID 2026-02-27`,
    }],
  },
  {
    folder: "archive",
    from: "skyway",
    to: ["me"],
    subject: "Your trip to Chicago: receipt",
    date: "02-17 21:00",
    labels: ["Travel"],
    body: `Thank you for flying Skyway Airlines.

Receipt for confirmation code HB3K9P, Boston (BOS) to Chicago (ORD), February 23-25, 2026.
Fare: $412.60 (paid by card ending in 4421).`,
  },
  {
    folder: "archive",
    from: "daniel",
    to: ["me"],
    subject: "Contract renewal timeline",
    date: "02-23 11:00",
    labels: ["Work"],
    body: `Alex,

For the renewal: we'd like to have the new contract signed by April 15, two weeks before the current one expires. Our legal team will send the draft to Rachel.

Daniel`,
  },
  {
    folder: "archive",
    from: "hannah",
    to: ["me"],
    subject: "Welcome to the wellness program",
    date: "02-17 12:00",
    labels: ["Personal"],
    body: `Hi Alex,

You're enrolled in the wellness program. Your gym reimbursement is up to $50 per month; submit receipts through the HR portal.

Hannah`,
  },
  {
    folder: "archive",
    from: "oliver",
    to: ["me"],
    subject: "Re: Book recommendations",
    date: "02-21 20:00",
    labels: ["Personal"],
    body:
      `Thanks for the list! I started with "The Overstory" and I'm already hooked. My recommendation for you: "Piranesi". Short and strange, you'll love it.

Oliver`,
  },
  {
    folder: "archive",
    from: "tom",
    to: ["me"],
    subject: "Proof approved - brochure",
    date: "02-25 10:30",
    labels: ["Work"],
    body: `Hi Alex,

Got your approval on the proof. The brochures go to press on March 6 and should ship by March 9.

Tom`,
  },
  {
    folder: "archive",
    from: "sofia",
    to: ["me"],
    subject: "Performance review schedule",
    date: "02-28 10:00",
    labels: ["Work"],
    body: `Hi Alex,

Your mid-year review is booked for Monday, April 20 at 10:00. Please complete the self-assessment in the HR portal by April 13.

Sofia`,
  },
  {
    folder: "archive",
    from: "kenji",
    to: ["me"],
    subject: "Password policy update",
    date: "02-19 15:00",
    body: `Hi all,

From March 1, passwords must be at least 14 characters and two-factor authentication is required for all accounts.

Kenji`,
  },
  {
    folder: "archive",
    from: "luis",
    to: ["me"],
    subject: "Welcome to Meridian Travel",
    date: "02-16 13:00",
    labels: ["Travel"],
    body: `Hi Alex,

Welcome aboard! I'm your travel agent at Meridian Travel. Send me your dates and preferences and I'll take care of flights and hotels.

Luis Fernández`,
  },
];
