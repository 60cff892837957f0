/**
 * The tracker's hand-written seed lists: people, projects, sprints, 60 issues, comments and history. Issue lines are
 * `PROJECT|title|type|labels|status|priority|assignee|estimate|sprint|due|created`, with status T/P/R/D, priority
 * L/M/H/U, assignee a person id (0: unassigned), sprint a sprint id (0: none), due `MM-DD` ("" for none) and created
 * `MM-DD HH:MM`, all in 2026.
 */

export const PEOPLE = [
  { id: 1, name: "Alex Morgan", email: "alex@sandbox.test", role: "Engineering manager" },
  { id: 2, name: "Priya Shah", email: "priya@sandbox.test", role: "Frontend engineer" },
  { id: 3, name: "Marcus Chen", email: "marcus@sandbox.test", role: "Backend engineer" },
  { id: 4, name: "Elena Rossi", email: "elena@sandbox.test", role: "Product designer" },
  { id: 5, name: "Diego Alvarez", email: "diego@sandbox.test", role: "Full-stack engineer" },
  { id: 6, name: "Hannah Becker", email: "hannah@sandbox.test", role: "Technical writer" },
];

export const PROJECTS = [
  {
    id: 1,
    key: "WEB",
    name: "Website Redesign",
    lead_id: 4,
    description: "The new marketing site: navigation, pricing, blog and accessibility work.",
  },
  {
    id: 2,
    key: "API",
    name: "Payments API",
    lead_id: 3,
    description: "Charges, refunds, webhooks and payouts for every storefront.",
  },
  {
    id: 3,
    key: "MOB",
    name: "Mobile App",
    lead_id: 2,
    description: "The iOS and Android shopping app, release 3.2.",
  },
];

export const SPRINTS = [
  { id: 1, name: "Sprint 11", start_date: "2026-02-09", end_date: "2026-02-22", state: "closed" },
  { id: 2, name: "Sprint 12", start_date: "2026-02-23", end_date: "2026-03-08", state: "closed" },
  { id: 3, name: "Sprint 13", start_date: "2026-03-09", end_date: "2026-03-22", state: "active" },
  { id: 4, name: "Sprint 14", start_date: "2026-03-23", end_date: "2026-04-05", state: "planned" },
];

export const ISSUE_LINES = `
WEB|Redesign homepage hero section|feature|ui|D|H|4|5|1|02-20|02-02 09:10
WEB|Fix broken links in footer|bug|bug,ui|D|L|6|1|1|02-18|02-02 11:40
WEB|Migrate blog to new CMS|task|backend|D|M|3|8|2|03-06|02-03 14:05
WEB|Add cookie consent banner|feature|ui,security|D|H|2|3|2|03-05|02-04 10:30
WEB|Improve Lighthouse score on product pages|task|performance|R|M|3|5|3|03-20|02-05 16:20
WEB|Pricing page shows wrong currency symbol|bug|bug,ui|D|U|2|2|2|02-27|02-06 08:55
WEB|Build new navigation mega menu|feature|ui|P|M|4|8|3|03-21|02-09 13:00
WEB|Write style guide for marketing pages|task|docs|T|L|6|3|0|04-10|02-10 15:45
WEB|Checkout button unresponsive on Safari|bug|bug|P|U|1|3|3|03-17|02-11 09:30
WEB|Add search autocomplete|feature|ui,backend|T|M|5|5|4|03-31|02-12 17:10
WEB|Optimize hero images with AVIF|task|performance|R|L|3|2|3|03-19|02-16 10:05
WEB|Accessibility audit of signup form|task|ui|P|H|4|5|3|03-18|02-17 11:20
WEB|Contact form sends duplicate emails|bug|bug,backend|T|H|5|3|3|03-16|02-19 14:35
WEB|Localize site into German|feature|ui|T|M|0|13|0|04-30|02-20 09:00
WEB|Set up visual regression tests|task||T|M|3|5|4|04-03|02-24 16:00
WEB|Dark mode toggle|feature|ui|T|L|0|8|0||02-26 12:15
WEB|Update privacy policy page|task|docs,security|R|M|6|1|3|03-16|03-02 10:40
WEB|404 page missing site header|bug|bug,ui|D|L|4|1|3|03-12|03-04 15:25
WEB|Add customer testimonials carousel|feature|ui|T|L|2|3|4|04-02|03-09 11:50
WEB|Sitemap.xml excludes blog posts|bug|bug|T|M|5|2|0|03-27|03-11 08:45
API|Design refund endpoint|feature|backend|D|H|5|5|1|02-19|02-02 10:00
API|Rotate webhook signing secrets|task|security|D|H|3|3|1|02-20|02-03 09:20
API|Add idempotency keys to charges|feature|backend|D|U|5|8|2|03-04|02-04 13:45
API|Payment session API returns 500 for EUR|bug|bug,backend|P|U|3|3|3|03-16|02-05 11:10
API|Document rate limits|task|docs|R|L|6|2|3|03-20|02-06 15:30
API|Upgrade Postgres to 16|task|backend,performance|T|M|3|8|4|04-01|02-09 10:25
API|Payout report totals off by one cent|bug|bug|R|H|2|3|3|03-18|02-10 12:40
API|Add 3-D Secure challenge flow|feature|security,backend|P|H|5|13|3|03-22|02-11 16:50
API|Reduce p95 latency of /charges|task|performance|T|M|1|5|4|04-03|02-13 09:05
API|OpenAPI spec out of date|bug|docs|D|L|6|2|2|03-03|02-16 14:15
API|Support partial captures|feature|backend|T|M|0|8|0|04-20|02-18 10:50
API|Audit logging for admin actions|feature|security|T|H|3|5|4|04-05|02-19 13:30
API|Retry failed webhooks with backoff|feature|backend|P|M|2|5|3|03-20|02-23 11:15
API|Currency conversion uses stale rates|bug|bug,backend|T|U|5|3|3|03-13|02-25 09:40
API|Deprecate v1 tokens endpoint|task|backend|T|L|0|2|0|05-01|02-27 15:05
API|Add dispute evidence upload|feature|backend|T|M|2|8|0|04-15|03-02 12:30
API|Load test checkout flow|task|performance|R|M|1|3|3|03-19|03-03 16:10
API|Fix flaky settlement job test|bug|bug|D|M|3|2|3|03-11|03-05 10:20
API|SDK examples for Python|task|docs|T|L|6|3|4|04-02|03-10 14:00
API|Sandbox keys leak into logs|bug|bug,security|P|U|3|2|3|03-16|03-12 09:35
MOB|Onboarding screens v2|feature|ui|D|H|4|8|1|02-21|02-02 12:20
MOB|App crashes on Android 12 launch|bug|bug|D|U|2|3|1|02-16|02-03 08:30
MOB|Push notification service migration|task|backend|P|H|5|8|3|03-20|02-04 15:50
MOB|Biometric login|feature|security|D|M|1|5|2|03-06|02-05 10:45
MOB|Offline mode for order history|feature|backend|T|M|2|13|4|04-04|02-06 13:35
MOB|Dark mode colors too low contrast|bug|bug,ui|R|M|4|2|3|03-18|02-09 09:50
MOB|In-app payments with new API|feature|backend|T|H|1|8|4|04-03|02-10 11:05
MOB|Reduce app bundle size|task|performance|P|L|3|5|3|03-21|02-12 14:25
MOB|Tablet layout for settings|feature|ui|T|L|0|3|0||02-13 16:40
MOB|Crash when rotating during checkout|bug|bug|R|H|2|3|3|03-17|02-16 09:15
MOB|App Store screenshots refresh|task|docs|D|L|6|1|2|03-02|02-17 12:55
MOB|Deep links open wrong screen|bug|bug|T|H|4|2|3|03-19|02-18 15:20
MOB|Add haptic feedback to buttons|feature|ui|T|L|6|1|0|04-10|02-20 10:10
MOB|Accessibility labels for icons|task|ui|P|M|4|3|3|03-20|02-24 14:45
MOB|Analytics events for checkout|task|backend|T|M|5|3|4|04-01|02-26 11:30
MOB|Login token refresh loop|bug|bug,security|P|U|1|5|3|03-16|03-02 09:05
MOB|Widget for order tracking|feature|ui|T|L|0|8|0|05-15|03-04 13:15
MOB|Update React Native to 0.76|task|backend|T|M|3|8|4|04-05|03-06 10:00
MOB|Release notes for 3.2|task|docs|R|L|6|1|3|03-18|03-09 16:30
MOB|Image cache grows without limit|bug|bug,performance|T|M|2|3|3|03-20|03-12 11:45
`;

/** Which issue waits on which: [blocked, blocker]. */
export const BLOCKS: [string, string][] = [
  ["WEB-9", "API-4"],
  ["MOB-7", "API-8"],
  ["MOB-12", "MOB-3"],
];

/** Comment lines: `ISSUE|author id|MM-DD HH:MM|text`. */
export const COMMENT_LINES = `
WEB-1|2|02-03 10:15|Hero copy is final; waiting on the illustration set.
WEB-1|4|02-12 16:40|Illustrations delivered, moving to review.
WEB-3|3|02-24 09:05|Export from the old CMS finished: 212 posts, 9 with broken embeds.
WEB-5|3|03-10 11:30|Mobile score is now 91, desktop 97.
WEB-5|1|03-12 14:20|Nice. Can we get the category pages above 90 too?
WEB-7|4|02-10 09:45|First mock-ups are in the design file, three columns per panel.
WEB-7|2|03-11 15:10|Keyboard navigation still missing for the second level.
WEB-9|1|02-11 10:02|Reproduced on Safari 17.3; the request never leaves the browser.
WEB-9|3|03-10 09:40|Root cause is the 500 from the payment session endpoint, see API-4.
WEB-12|4|03-09 13:25|Found 14 issues, 3 of them contrast failures.
WEB-13|6|02-20 08:50|Customer support reports every message arrives twice.
WEB-13|5|03-13 17:05|Probably the retry in the mail queue; will check tomorrow.
WEB-17|6|03-03 10:00|Legal sent the new wording for section 4.
WEB-20|5|03-11 09:30|The generator filters on the old post type.
API-4|3|02-05 12:00|Only EUR and CHF accounts are affected.
API-4|1|03-09 09:15|This blocks the Safari checkout fix, please prioritise.
API-4|3|03-13 18:20|Fix is ready, adding tests for the rounding path.
API-7|2|03-04 14:35|Off by one cent in 7 of 1,200 payouts last week.
API-7|3|03-12 11:05|Switched to integer cents everywhere, needs review.
API-8|5|02-12 10:10|Using the issuer redirect flow for the first version.
API-8|1|03-09 16:45|Mobile needs this before in-app payments can start.
API-13|2|02-24 15:30|Backoff schedule: 1m, 5m, 30m, 2h, 12h.
API-14|5|02-25 10:20|Rates are cached for 24 hours instead of 1 hour.
API-14|1|03-14 09:00|Now overdue, who can take it on Monday?
API-17|1|03-04 10:30|Target is 300 checkouts per second for 10 minutes.
API-18|3|03-06 08:40|The job depended on wall clock time; now uses the test clock.
API-20|3|03-12 10:00|Found in staging logs only so far.
API-20|6|03-13 12:15|Security review scheduled for Tuesday.
MOB-2|2|02-03 09:10|Crash is in the splash screen animation library.
MOB-3|5|02-05 11:00|Moving from the old provider to the new one in two steps.
MOB-3|1|03-10 10:45|Deep links depend on the new payload format, see MOB-12.
MOB-5|2|02-07 14:00|Needs a local database; proposing SQLite.
MOB-6|4|03-10 13:35|Contrast of secondary text is 3.1:1, needs 4.5:1.
MOB-8|3|02-13 09:20|Removed two unused icon fonts, saved 1.8 MB.
MOB-10|2|02-17 10:40|Only on Android tablets.
MOB-10|4|03-12 15:55|Fixed by keeping the checkout state in the view model.
MOB-12|4|02-19 09:30|Links from emails open the home screen instead of the order.
MOB-16|1|03-02 09:30|Users get logged out every few minutes on iOS 17.
MOB-16|5|03-13 16:00|The refresh token is stored twice; cleaning up the keychain.
MOB-19|6|03-10 11:10|Draft is in the shared folder, waiting for the final feature list.
`;

/** History lines: `ISSUE|actor id|MM-DD HH:MM|field|old|new`. */
export const HISTORY_LINES = `
WEB-1|4|02-12 16:41|status|in_progress|review
WEB-1|1|02-19 10:00|status|review|done
WEB-5|3|03-12 15:00|status|in_progress|review
WEB-6|2|02-26 11:30|status|in_progress|done
WEB-7|4|03-09 09:30|status|todo|in_progress
WEB-9|1|03-09 09:10|priority|high|urgent
WEB-9|1|03-09 09:12|status|todo|in_progress
WEB-17|6|03-13 14:00|status|in_progress|review
WEB-18|4|03-12 09:20|status|review|done
API-3|5|03-04 17:30|status|review|done
API-4|3|03-09 10:00|status|todo|in_progress
API-7|2|03-12 11:10|status|in_progress|review
API-8|5|03-09 09:40|status|todo|in_progress
API-14|1|03-14 09:01|priority|high|urgent
API-18|3|03-11 15:45|status|review|done
API-20|3|03-12 09:40|priority|high|urgent
MOB-3|5|03-09 10:20|status|todo|in_progress
MOB-4|1|03-06 12:00|status|review|done
MOB-6|4|03-13 11:00|status|in_progress|review
MOB-10|2|03-12 16:00|status|in_progress|review
MOB-12|4|03-10 10:50|assignee|Priya Shah|Elena Rossi
MOB-16|1|03-02 09:31|priority|high|urgent
MOB-16|5|03-09 10:30|status|todo|in_progress
MOB-19|6|03-14 17:20|status|in_progress|review
`;

/** Alex Morgan's inbox, newest first on the page: issue|actor id|MM-DD HH:MM|text|read (1) or unread (0). */
export const NOTIFICATION_LINES = `
API-11|5|03-13 16:05|Diego Alvarez commented: partial captures need a new ledger entry type|0
WEB-8|4|03-13 11:20|Elena Rossi moved the issue to In progress|0
MOB-15|2|03-12 17:45|Priya Shah mentioned you: can you confirm the event names?|0
API-14|3|03-12 09:30|Marcus Chen added you as a watcher|1
WEB-20|6|03-11 14:10|Hannah Becker commented: the sitemap skips posts from 2025|0
MOB-5|5|03-10 10:00|Diego Alvarez assigned the issue to you|1
API-4|3|03-09 15:25|Marcus Chen commented: only EUR and CHF accounts are affected|1
`;
