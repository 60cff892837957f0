/**
 * Templates on the mail app (lib/sites/apps/mail): sign-in, folders, search, message pages, labels, replies,
 * compose with the contact combobox, attachments, contacts, settings and questions about the mailbox. Every
 * parameter is read from the app's seed (messages, attachments, contacts, settings); most templates start mid-chain.
 */
import type { AppDb } from "../../sites/db.ts";
import { DEFAULT_USER } from "../../sites/session.ts";
import { LABELS, MOVE_TARGETS, PAGE_SIZES, READING_PANES } from "../../sites/apps/mail/_model.ts";
import {
  answeredInstead,
  answerQuestion,
  authenticateByForm,
  chooseFromCombobox,
  chooseRadio,
  confirmDialog,
  type ControlPlace,
  copyToClipboard,
  downloadFile,
  endsOnSibling,
  formSegment,
  goal,
  layered,
  navigateMenu,
  openDetail,
  openNewTab,
  paginate,
  postPath,
  procedure,
  search,
  selectOption,
  signedOutAfter,
  toggleButton,
  toggleCheckbox,
} from "../macros/mod.ts";
import type { ActionJson, AnyTemplate, ConditionJson, NearMiss, Params } from "../template.ts";
import { greeting, period } from "../text.ts";
import { messageTrashed } from "./_common.ts";

// ---------------------------------------------------------------------------------------------------------------
// Reading the seed

interface Msg {
  id: number;
  folder: string;
  from_name: string;
  from_email: string;
  to_addrs: string;
  subject: string;
  body: string;
  date: string;
  starred: number;
  labels: string;
}

interface ContactRow {
  id: number;
  name: string;
  email: string;
  company: string;
}

interface AttRow {
  id: number;
  message_id: number;
  name: string;
}

const MSG_COLS = "id, folder, from_name, from_email, to_addrs, subject, body, date, starred, labels";

const allMessages = (db: AppDb) => db.all<Msg>(`SELECT ${MSG_COLS} FROM messages ORDER BY id`);
const message = (db: AppDb, id: number) => db.get<Msg>(`SELECT ${MSG_COLS} FROM messages WHERE id = ?`, id)!;
const contacts = (db: AppDb) => db.all<ContactRow>("SELECT id, name, email, company FROM contacts ORDER BY id");
const attachments = (db: AppDb) => db.all<AttRow>("SELECT id, message_id, name FROM attachments ORDER BY id");
const settings = (db: AppDb) =>
  db.get<{ signature: string; reading_pane: string; page_size: number }>(
    "SELECT signature, reading_pane, page_size FROM settings WHERE id = 1",
  )!;
const pageSize = (db: AppDb) => settings(db).page_size;
/** The id the next inserted message gets (SQLite's max + 1). */
const nextMessageId = (db: AppDb) => db.get<{ n: number }>("SELECT MAX(id) + 1 AS n FROM messages")!.n;

/** A folder's messages in list order (newest first), as the folder page lists them. */
const folderList = (db: AppDb, folder: string) =>
  db.all<Msg>(`SELECT ${MSG_COLS} FROM messages WHERE folder = ? ORDER BY date DESC, id DESC`, folder);

/** The search's matches in list order, as /mail/search lists them (Trash not included). */
function searchList(db: AppDb, q: string): Msg[] {
  const like = `%${q.replace(/[\\%_]/g, (ch) => "\\" + ch)}%`;
  return db.all<Msg>(
    `SELECT ${MSG_COLS} FROM messages WHERE folder != 'trash' AND (subject LIKE ? ESCAPE '\\' OR from_name LIKE ? ESCAPE '\\'
     OR from_email LIKE ? ESCAPE '\\' OR body LIKE ? ESCAPE '\\') ORDER BY date DESC, id DESC`,
    like,
    like,
    like,
    like,
  );
}

/** The page (1-based) of its folder's list a message is on. */
function folderPage(db: AppDb, m: Msg): number {
  const i = folderList(db, m.folder).findIndex((x) => x.id === m.id);
  return Math.floor(i / pageSize(db)) + 1;
}

/** The message listed next to `m` in its folder (the one after it, or before it for the last). */
function folderSibling(db: AppDb, m: Msg): Msg {
  const list = folderList(db, m.folder);
  const i = list.findIndex((x) => x.id === m.id);
  return list[i + 1 < list.length ? i + 1 : i - 1];
}

const title = (f: string) => f.charAt(0).toUpperCase() + f.slice(1);
const firstName = (name: string) => name.split(" ")[0];
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October"];
const longDay = (iso: string) => `${MONTHS[Number(iso.slice(5, 7)) - 1]} ${Number(iso.slice(8, 10))}`;
/** The subject a reply gets (the app adds "Re: " unless it is there). */
const reSubject = (s: string) => /^re:/i.test(s) ? s : `Re: ${s}`;
const plainSubject = (s: string) => s.replace(/^re:\s*/i, "");
/** Letters only, for addresses (`Fernández` → `fernandez`). */
const ascii = (s: string) => s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z]/g, "");

/** Words of a subject that can be searched for on their own (letters only, 5 or more). */
const subjectWords = (s: string) => [...new Set(s.match(/\b[A-Za-z]{5,}\b/g) ?? [])];

// ---------------------------------------------------------------------------------------------------------------
// Shared steps and conditions

const MENU = (path: string) => ({ click: { selector: `.topbar .menu a[href='/mail/${path}']` } });
const NO_WRITES: ConditionJson = { no_writes: true };
const SEARCH = (q: string): ActionJson[] => [
  { input: { selector: "#search-q", text: q } },
  { click: { selector: "#search-button" } },
];
/** From a folder's page 1: to the message's page of the list, then the message. */
const openFromFolder = (db: AppDb, m: Msg): ActionJson[] => folderOpen(db, m).steps;

/** open_detail from a folder: the message's page of the list, then its row's link. */
const folderOpen = (db: AppDb, m: Msg) => {
  const page = folderPage(db, m);
  return openDetail(
    `/mail/${m.folder}`,
    { click: { selector: `#msg-${m.id}` } },
    `/mail/messages/${m.id}`,
    page > 1 ? [{ click: { selector: `#page-${page}` } }] : [],
  );
};
/** The search results page for `q` was shown (the form sends spaces as `+`, other characters %-encoded). */
const searched = (q: string): ConditionJson => ({
  visited: {
    regex: `^/mail/search\\?(.*&)?q=${
      q.split(" ").map((w) => encodeURIComponent(w).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("(\\+|%20)")
    }(&|$)`,
    flags: "i",
  },
});
const changed = (
  table: string,
  key: number | null,
  after: Record<string, unknown>,
  before?: Record<string, unknown>,
) => ({
  change: {
    site: "mail",
    table,
    op: "update",
    ...(key === null ? {} : { key }),
    after,
    ...(before ? { before } : {}),
  },
  ever: true,
});
/** Message `id`'s row as the asked write leaves it at the end: updated from `before` to `after`. */
const messageUpdated = (id: number, after: Record<string, unknown>, before: Record<string, unknown>) => ({
  change: { site: "mail", table: "messages", op: "update", key: id, after, before },
});
/** A collateral star of a message (a write nobody asked for). */
const starWitness = (m: Msg) => changed("messages", m.id, { starred: m.starred ? 0 : 1 });

/** The row a sent message must be: the whole insert, listed field by field. */
function sentRow(o: { to: string; subject: string; body: string; replyTo?: number }): Record<string, unknown> {
  return {
    folder: { exact: "sent" },
    in_reply_to: o.replyTo ?? { present: false },
    to_addrs: { exact: o.to },
    cc_addrs: { exact: "" },
    subject: { norm: o.subject },
    body: { text: o.body },
    starred: 0,
    labels: { exact: "" },
    forward_of: { present: false },
  };
}
const inserted = (table: string, after: Record<string, unknown>) => ({
  change: { site: "mail", table, op: "insert", after },
});
const insertedEver = (table: string, after: Record<string, unknown>, times?: number) => ({
  change: { site: "mail", table, op: "insert", after },
  ever: true,
  ...(times === undefined ? {} : { times }),
});

/** The files an upload may take (fixtures/uploads, the episode's upload folder). */
const UPLOADS = ["notes.txt", "pixel.png", "signed_contract.txt"] as const;
const otherUpload = (f: string) => UPLOADS[(UPLOADS.indexOf(f as typeof UPLOADS[number]) + 1) % UPLOADS.length];

/** Messages people sent the user (Inbox and Archive). */
const received = (db: AppDb) => allMessages(db).filter((m) => m.folder === "inbox" || m.folder === "archive");
/** Messages outside Trash. */
const live = (db: AppDb) => allMessages(db).filter((m) => m.folder !== "trash");

// ---------------------------------------------------------------------------------------------------------------
// Sign in first (authenticate_by_form prefix, a logged-out start)

const loginOpen = layered<{ id: number; subject: string; from: string; folder: string }>({
  id: "mail.open_detail.login_open_message",
  site: "mail",
  macro: "open_detail",
  prefix: ["authenticate_by_form"],
  summary: "sign in, then open one message of a folder",
  params: (db) => allMessages(db).map((m) => ({ id: m.id, subject: m.subject, from: m.from_name, folder: m.folder })),
  entity: (p) => `message:${p.id}`,
  phrasings: [
    procedure((p) =>
      `Sign in to Mail with the form (username ${DEFAULT_USER.username}, password ${DEFAULT_USER.password}), then open the message "${p.subject}" (from ${p.from}) from the list of your ${
        title(p.folder)
      } folder.`
    ),
    procedure((p) =>
      `Mail wants you to sign in first: use ${DEFAULT_USER.username} / ${DEFAULT_USER.password}. After that, click "${p.subject}" in the ${
        title(p.folder)
      } folder's list so it is shown on its own page.`
    ),
    goal((p) =>
      `Sign in to Mail as ${DEFAULT_USER.username} (password ${DEFAULT_USER.password}) and show ${p.from}'s message "${p.subject}".`
    ),
    goal((p) =>
      `Once signed in (${DEFAULT_USER.username}, password ${DEFAULT_USER.password}), have the message "${p.subject}" from your ${
        title(p.folder)
      } folder open on its own page.`
    ),
  ],
  start: (p) => ({ url: `/mail/${p.folder}`, logged_out: true }),
  chain: (p, db) => [authenticateByForm(), folderOpen(db, message(db, p.id))],
  outcome: (p) => [{ page: { path: `/mail/messages/${p.id}`, query: {} } }, NO_WRITES],
  nearMisses: (p, db, steps) => {
    const m = message(db, p.id);
    const sib = folderSibling(db, m);
    return [
      {
        name: "opens_neighbour",
        category: "wrong_item",
        steps: [...authenticateByForm().steps, ...openFromFolder(db, sib)],
        reason: "final_page",
        witness: { page: { path: `/mail/messages/${sib.id}` } },
      },
      signedOutAfter({ endsOnPage: true }),
      {
        name: "open_and_star",
        category: "collateral",
        steps: [...steps, { click: { selector: "#star-toggle" } }],
        reason: "unclaimed_write",
        witness: starWitness(m),
      },
    ];
  },
});

/** The star of message `m` in its folder's list (its page of the list first); the message page's star is the other. */
const listStar = (db: AppDb, m: Msg) => {
  const page = openFromFolder(db, m).slice(0, -1);
  return toggleButton(`#star-${m.id}`, {
    posts: `/mail/messages/${m.id}/star`,
    before: page,
    equivalent: {
      steps: [...page, { click: { selector: `#msg-${m.id}` } }, { click: { selector: "#star-toggle" } }],
      witness: starWitness(m),
    },
  });
};

const loginStar = layered<{ id: number; subject: string; from: string; folder: string; star: boolean }>({
  id: "mail.toggle_checkbox.login_star",
  site: "mail",
  macro: "toggle_checkbox",
  prefix: ["authenticate_by_form"],
  summary: "sign in, then star (or unstar) one message in its folder's list",
  params: (db) =>
    live(db).map((m) => ({ id: m.id, subject: m.subject, from: m.from_name, folder: m.folder, star: !m.starred })),
  entity: (p) => `message:${p.id}`,
  phrasings: [
    procedure((p) =>
      `Sign in to Mail (username ${DEFAULT_USER.username}, password ${DEFAULT_USER.password}), then ${
        p.star ? "star" : "remove the star from"
      } the message "${p.subject}" (from ${p.from}) with its star in your ${title(p.folder)} folder's list.`
    ),
    procedure((p) =>
      `First sign in with ${DEFAULT_USER.username} / ${DEFAULT_USER.password}. Then, in the ${
        title(p.folder)
      } list, click the star beside "${p.subject}" to ${p.star ? "mark it" : "unmark it"}.`
    ),
    goal((p) =>
      `Sign in to Mail as ${DEFAULT_USER.username} (password ${DEFAULT_USER.password}) and make sure "${p.subject}" in ${
        title(p.folder)
      } is ${p.star ? "starred" : "no longer starred"}.`
    ),
    goal((p) =>
      `Once signed in (${DEFAULT_USER.username}, password ${DEFAULT_USER.password}), ${p.from}'s message "${p.subject}" should ${
        p.star ? "carry a star" : "lose its star"
      }.`
    ),
  ],
  start: (p) => ({ url: `/mail/${p.folder}`, logged_out: true }),
  // The outcome is a write: a form filled and left unsent fails for the write missing.
  chain: (p, db) => [authenticateByForm({ unsent: "field_mismatch" }), listStar(db, message(db, p.id))],
  outcome: (p) => [messageUpdated(p.id, { starred: p.star ? 1 : 0 }, { starred: p.star ? 0 : 1 })],
  nearMisses: (p, db) => {
    const sib = folderSibling(db, message(db, p.id));
    return [
      {
        name: "stars_neighbour",
        category: "wrong_item",
        steps: [...authenticateByForm().steps, ...listStar(db, sib).steps],
        reason: "field_mismatch",
        witness: starWitness(sib),
      },
      signedOutAfter({ endsOnPage: false }),
    ];
  },
});

// ---------------------------------------------------------------------------------------------------------------
// Signing in where a link led (authenticate_by_form as the task's own macro)

const signInToMessage = layered<{ id: number; subject: string; from: string; folder: string }>({
  id: "mail.authenticate_by_form.sign_in_to_message",
  site: "mail",
  macro: "authenticate_by_form",
  summary: "a link to one message asks for a sign-in: sign in and end on that message",
  params: (db) => live(db).map((m) => ({ id: m.id, subject: m.subject, from: m.from_name, folder: m.folder })),
  entity: (p) => `message:${p.id}`,
  phrasings: [
    procedure((p) =>
      `You followed a link to the message "${p.subject}" from ${p.from}, and Mail asks you to sign in. Fill in the sign-in form with the username ${DEFAULT_USER.username} and the password ${DEFAULT_USER.password} and submit it so that the message opens.`
    ),
    procedure((p) =>
      `Mail shows its sign-in form before it shows "${p.subject}". Type ${DEFAULT_USER.username} and ${DEFAULT_USER.password} into it, sign in, and stop on that message's page.`
    ),
    goal((p) =>
      `Get past Mail's sign-in (${DEFAULT_USER.username} / ${DEFAULT_USER.password}) and end on the message "${p.subject}" from ${p.from}.`
    ),
    goal((p) =>
      `The message "${p.subject}" needs you to be signed in. Be signed in as ${DEFAULT_USER.username} (password ${DEFAULT_USER.password}) with it open.`
    ),
  ],
  start: (p) => ({ url: `/mail/messages/${p.id}`, logged_out: true }),
  chain: () => [authenticateByForm()],
  outcome: (p) => [{ page: { path: `/mail/messages/${p.id}`, query: {} } }, NO_WRITES],
  nearMisses: (p, db) => [
    {
      name: "then_back_to_folder",
      category: "overshoot",
      after_reference: [{ click: { selector: `nav#folders a[href='/mail/${p.folder}']` } }],
      reason: "final_page",
      witness: { all: [{ logged_in: true }, { page: { path: `/mail/${p.folder}` } }] },
    },
    signedOutAfter({ endsOnPage: true }),
    {
      name: "then_star",
      category: "collateral",
      after_reference: [{ click: { selector: "#star-toggle" } }],
      reason: "unclaimed_write",
      witness: starWitness(message(db, p.id)),
    },
  ],
});

const signInToContact = layered<{ id: number; name: string; sibling: number }>({
  id: "mail.authenticate_by_form.sign_in_to_contact",
  site: "mail",
  macro: "authenticate_by_form",
  summary: "a link to one contact's page asks for a sign-in: sign in and end on that contact",
  params: (db) => contacts(db).map((c) => ({ id: c.id, name: c.name, sibling: siblingContact(db, c.id).id })),
  entity: (p) => `contact:${p.id}`,
  phrasings: [
    procedure((p) =>
      `A link to ${p.name}'s contact page brought you to Mail's sign-in form. Fill it in (username ${DEFAULT_USER.username}, password ${DEFAULT_USER.password}), submit it, and end on ${p.name}'s page.`
    ),
    procedure((p) =>
      `Sign in to Mail with the form as ${DEFAULT_USER.username} with the password ${DEFAULT_USER.password}; the contact page of ${p.name} you asked for should then be open.`
    ),
    goal((p) =>
      `You want to see ${p.name}'s contact page, but Mail needs a sign-in: get signed in (${DEFAULT_USER.username} / ${DEFAULT_USER.password}) and end on it.`
    ),
    goal((p) =>
      `Finish signed in as ${DEFAULT_USER.username} (password ${DEFAULT_USER.password}), looking at the contact ${p.name}.`
    ),
  ],
  start: (p) => ({ url: `/mail/contacts/${p.id}`, logged_out: true }),
  chain: () => [authenticateByForm()],
  outcome: (p) => [{ page: { path: `/mail/contacts/${p.id}`, query: {} } }, NO_WRITES],
  nearMisses: (p) => [
    {
      name: "then_neighbour_contact",
      category: "wrong_item",
      after_reference: [MENU("contacts"), contactLink(p.sibling)],
      reason: "final_page",
      witness: { all: [{ logged_in: true }, { page: { path: `/mail/contacts/${p.sibling}` } }] },
    },
    signedOutAfter({ endsOnPage: true }),
  ],
});

// ---------------------------------------------------------------------------------------------------------------
// Labels from the message page (open_detail prefix)

const toggleLabel = (labels: string, l: string) => {
  const on = labels ? labels.split(",") : [];
  const next = on.includes(l) ? on.filter((x) => x !== l) : [...on, l];
  return LABELS.filter((x) => next.includes(x)).join(",");
};
const nextLabel = (l: string) => LABELS[(LABELS.indexOf(l as typeof LABELS[number]) + 1) % LABELS.length];
const labelBox = (l: string) => ({ click: { selector: `#label-${l.toLowerCase()}` } });
const SAVE_LABELS: ActionJson = { click: { selector: "#save-labels" } };

/** The message `id`'s label box `l` ticked (`on`) or unticked, and the labels saved. */
const labelToggle = (id: number, l: string, on: boolean) =>
  toggleCheckbox(`#label-${l.toLowerCase()}`, on, l, {
    after: [SAVE_LABELS],
    saves: { method: "POST", path: `/mail/messages/${id}/labels` },
  });

const openLabel = layered<
  { id: number; subject: string; from: string; folder: string; label: string; add: boolean }
>({
  id: "mail.toggle_checkbox.open_then_label",
  site: "mail",
  macro: "toggle_checkbox",
  prefix: ["open_detail"],
  summary: "open a message from its folder, then tick (or untick) one label and save",
  params: (db) =>
    live(db).flatMap((m) =>
      LABELS.map((label) => ({
        id: m.id,
        subject: m.subject,
        from: m.from_name,
        folder: m.folder,
        label,
        add: !m.labels.split(",").includes(label),
      }))
    ),
  entity: (p) => `message:${p.id}`,
  phrasings: [
    procedure((p) =>
      `In your ${title(p.folder)} folder, open the message "${p.subject}" and ${
        p.add ? `add the ${p.label} label to it` : `remove its ${p.label} label`
      } (leave its other labels as they are), then save the labels.`
    ),
    procedure((p) =>
      `Open "${p.subject}" (from ${p.from}) from ${title(p.folder)}. ${
        p.add ? `Tick ${p.label}` : `Untick ${p.label}`
      } in its Labels box and save, keeping every other label.`
    ),
    goal((p) =>
      `The message "${p.subject}" in ${title(p.folder)} should ${
        p.add ? `be labelled ${p.label}` : `no longer carry the ${p.label} label`
      }; its other labels stay.`
    ),
    goal((p) =>
      `Find ${p.from}'s "${p.subject}" in your ${title(p.folder)} folder and ${
        p.add ? `file it under ${p.label} as well` : `take it out of ${p.label}`
      }, changing nothing else.`
    ),
  ],
  start: (p) => ({ url: `/mail/${p.folder}` }),
  chain: (p, db) => [folderOpen(db, message(db, p.id)), labelToggle(p.id, p.label, p.add)],
  outcome: (p, db) => {
    const m = message(db, p.id);
    return [
      messageUpdated(p.id, { labels: { exact: toggleLabel(m.labels, p.label) } }, { labels: { exact: m.labels } }),
    ];
  },
  nearMisses: (p, db) => {
    const m = message(db, p.id);
    const other = nextLabel(p.label);
    const sib = folderSibling(db, m);
    return [
      {
        name: "other_label",
        category: "wrong_item",
        steps: [...openFromFolder(db, m), labelBox(other), SAVE_LABELS],
        reason: "field_mismatch",
        witness: changed("messages", p.id, { labels: { exact: toggleLabel(m.labels, other) } }),
      },
      {
        name: "two_labels",
        category: "unlisted_field",
        steps: [...openFromFolder(db, m), labelBox(p.label), labelBox(other), SAVE_LABELS],
        reason: "field_mismatch",
        witness: changed("messages", p.id, { labels: { exact: toggleLabel(toggleLabel(m.labels, p.label), other) } }),
      },
      {
        name: "label_on_neighbour",
        category: "wrong_item",
        steps: [...openFromFolder(db, sib), labelBox(p.label), SAVE_LABELS],
        reason: "field_mismatch",
        witness: changed("messages", sib.id, { labels: { exact: toggleLabel(sib.labels, p.label) } }),
      },
      {
        name: "label_and_star",
        category: "collateral",
        after_reference: [{ click: { selector: "#star-toggle" } }],
        reason: "unclaimed_write",
        witness: starWitness(m),
      },
    ];
  },
});

// ---------------------------------------------------------------------------------------------------------------
// Search

/** Search terms: the words of the subjects outside Trash, each once (first spelling), in message order. */
function searchTerms(db: AppDb): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const m of live(db)) {
    for (const w of subjectWords(m.subject)) {
      if (seen.has(w.toLowerCase())) continue;
      seen.add(w.toLowerCase());
      out.push(w);
    }
  }
  return out;
}

const searchQuery = (q: string, page = 1): Record<string, string> => page > 1 ? { q, page: String(page) } : { q };

const searchTemplate = layered<{ term: string; sibling: string }>({
  id: "mail.search.subject_word",
  site: "mail",
  macro: "search",
  summary: "search the mailbox for a word of a subject",
  params: (db) => {
    const terms = searchTerms(db).filter((t) => searchList(db, t).length > 0);
    return terms.map((term, i) => ({ term, sibling: terms[(i + 1) % terms.length] }));
  },
  entity: (p) => `term:${p.term.toLowerCase()}`,
  phrasings: [
    procedure((p) => `Search your mail for "${p.term}".`),
    procedure((p) => `Use the search box to find the messages that mention "${p.term}", and stay on the results.`),
    goal((p) => `Show every message of your mailbox that mentions "${p.term}".`),
    goal((p) => `List the mail matching "${p.term}" and leave that list on screen.`),
  ],
  start: () => ({ url: "/mail/inbox" }),
  chain: (p) => [search("mail", p.term)],
  outcome: (p) => [{ page: { path: "/mail/search", query: { q: p.term } } }, NO_WRITES],
  nearMisses: (p, db) => {
    const first = searchList(db, p.term)[0];
    return [
      {
        name: "opens_first_result",
        category: "overshoot",
        after_reference: [{ click: { selector: `#msg-${first.id}` } }],
        reason: "final_page",
        witness: { visited: { exact: `/mail/messages/${first.id}` } },
      },
      {
        name: "searches_other_word",
        category: "wrong_item",
        steps: SEARCH(p.sibling),
        reason: "final_page",
        witness: searched(p.sibling),
      },
      {
        name: "stars_a_result",
        category: "collateral",
        after_reference: [{ click: { selector: `#star-${first.id}` } }],
        reason: "unclaimed_write",
        witness: starWitness(first),
      },
    ];
  },
});

const searchPaginate = layered<{ term: string; page: number; pages: number }>({
  id: "mail.paginate.search_results_page",
  site: "mail",
  macro: "paginate",
  prefix: ["search"],
  summary: "search for a word, then go to a later page of the results",
  params: (db) => {
    const size = pageSize(db);
    const words = new Set<string>();
    const out: { term: string; page: number; pages: number }[] = [];
    for (const m of live(db)) {
      for (const w of `${m.subject} ${m.body}`.toLowerCase().match(/\b[a-z]{3,}\b/g) ?? []) {
        if (words.has(w)) continue;
        words.add(w);
        const pages = Math.ceil(searchList(db, w).length / size);
        for (let page = 2; page <= pages; page++) out.push({ term: w, page, pages });
      }
    }
    return out;
  },
  entity: (p) => `term:${p.term}`,
  phrasings: [
    procedure((p) => `Search your mail for "${p.term}", then go to page ${p.page} of the results.`),
    procedure((p) =>
      `Find every message mentioning "${p.term}" with the search box and show page ${p.page} of what it finds.`
    ),
    goal((p) => `Show page ${p.page} of the messages that mention "${p.term}".`),
    goal((p) => `Of the mail matching "${p.term}", bring up results page ${p.page}.`),
  ],
  start: () => ({ url: "/mail/inbox" }),
  chain: (p) => [search("mail", p.term), paginate("mail", "/mail/search", (n) => searchQuery(p.term, n), 1, p.page)],
  outcome: (p) => [{ page: { path: "/mail/search", query: searchQuery(p.term, p.page) } }, NO_WRITES],
  nearMisses: (p, db) => {
    const onPage = searchList(db, p.term)[(p.page - 1) * pageSize(db)];
    const back = p.page < p.pages ? p.page + 1 : p.page - 1;
    return [
      {
        name: back > p.page ? "then_next" : "then_previous",
        category: "overshoot",
        after_reference: [{ click: { selector: back > p.page ? "#next-page" : "#prev-page" } }],
        reason: "final_page",
        witness: { page: { path: "/mail/search", query: searchQuery(p.term, back) } },
      },
      {
        name: "stays_on_page_1",
        category: "wrong_item",
        steps: SEARCH(p.term),
        reason: "final_page",
        witness: { all: [searched(p.term), { visited: { regex: "[?&]page=" }, times: 0 }] },
      },
      {
        name: "stars_on_that_page",
        category: "collateral",
        after_reference: [{ click: { selector: `#star-${onPage.id}` } }],
        reason: "unclaimed_write",
        witness: starWitness(onPage),
      },
    ];
  },
});

/** For each message outside Trash, up to two words of its subject that find it among 2 to a page of results. */
function findTerms(db: AppDb): { m: Msg; term: string; sibling: Msg }[] {
  const size = pageSize(db);
  return live(db).flatMap((m) =>
    subjectWords(m.subject).flatMap((term) => {
      const hits = searchList(db, term);
      if (hits.length < 2 || hits.length > size || !hits.some((h) => h.id === m.id)) return [];
      return [{ m, term, sibling: hits.find((h) => h.id !== m.id)! }];
    }).slice(0, 2)
  );
}

const searchOpen = layered<{ id: number; subject: string; from: string; term: string; sibling: number }>({
  id: "mail.open_detail.search_then_open",
  site: "mail",
  macro: "open_detail",
  prefix: ["search"],
  summary: "search for a word, then open one message from the results",
  params: (db) =>
    findTerms(db).map(({ m, term, sibling }) => ({
      id: m.id,
      subject: m.subject,
      from: m.from_name,
      term,
      sibling: sibling.id,
    })),
  entity: (p) => `message:${p.id}`,
  phrasings: [
    procedure((p) => `Search your mail for "${p.term}", then open the message "${p.subject}" from the results.`),
    procedure((p) =>
      `Type "${p.term}" into the mail search, and from what it finds open "${p.subject}" (from ${p.from}).`
    ),
    goal((p) => `Look up "${p.term}" in your mail and show the message "${p.subject}".`),
    goal((p) => `"${p.subject}" (from ${p.from}) is among your mail matching "${p.term}": find them and open it.`),
  ],
  start: () => ({ url: "/mail/inbox" }),
  chain: (p) => [
    search("mail", p.term),
    openDetail("/mail/search", { click: { selector: `#msg-${p.id}` } }, `/mail/messages/${p.id}`),
  ],
  outcome: (p) => [{ page: { path: `/mail/messages/${p.id}`, query: {} } }, NO_WRITES],
  nearMisses: (p, db, steps) => [
    endsOnSibling(
      "opens_other_result",
      steps,
      { click: { selector: `#msg-${p.sibling}` } },
      `/mail/messages/${p.sibling}`,
    ),
    {
      name: "opened_skipping_search",
      category: "wrong_method",
      steps: [{ navigate: { url: `/mail/messages/${p.id}` } }],
      reason: "request_missing",
      witness: { visited: { regex: "^/mail/search" }, times: 0 },
    },
    {
      name: "open_and_star",
      category: "collateral",
      after_reference: [{ click: { selector: "#star-toggle" } }],
      reason: "unclaimed_write",
      witness: starWitness(message(db, p.id)),
    },
  ],
});

// ---------------------------------------------------------------------------------------------------------------
// The folder and label menu on the left

interface SideItem extends Params {
  kind: string;
  name: string;
  path: string;
  region: string;
}

function sideItems(db: AppDb): SideItem[] {
  const folders = db.all<{ folder: string }>(
    "SELECT folder FROM messages GROUP BY folder ORDER BY MIN(id)",
  ).map((r) => ({ kind: "folder", name: title(r.folder), path: `/mail/${r.folder}`, region: "folders" }));
  const labels = [
    ...new Set(
      db.all<{ labels: string }>("SELECT labels FROM messages WHERE labels != '' ORDER BY id").flatMap((r) =>
        r.labels.split(",")
      ),
    ),
  ].sort((a, b) => LABELS.indexOf(a as typeof LABELS[number]) - LABELS.indexOf(b as typeof LABELS[number]))
    .map((l) => ({ kind: "label", name: l, path: `/mail/labels/${l}`, region: "labels-nav" }));
  return [...folders, ...labels];
}

/** The navigate_menu segment of a folder or label of the menu on the left. */
const sideEntry = (it: { kind: string; name: string; path: string }) =>
  navigateMenu("mail", it.name, it.path, it.path, it.kind === "folder" ? "folders" : "labels");

const sideMenu = layered<SideItem & { start: string; sibling: string; siblingPath: string; siblingKind: string }>({
  id: "mail.navigate_menu.side_menu",
  site: "mail",
  macro: "navigate_menu",
  summary: "open a folder or a label from the menu on the left",
  params: (db) => {
    const items = sideItems(db);
    return items.map((it, i) => {
      const sib = items[(i + 1) % items.length];
      // Folders are opened from Contacts, labels from Settings: neither page is in the menu on the left.
      return {
        ...it,
        start: it.kind === "folder" ? "/mail/contacts" : "/mail/settings",
        sibling: sib.name,
        siblingPath: sib.path,
        siblingKind: sib.kind,
      };
    });
  },
  entity: (p) => `${p.kind}:${p.name}`,
  phrasings: [
    procedure((p) =>
      p.start === "/mail/contacts"
        ? `From your contacts, use the folder menu on the left to open the ${p.name} folder.`
        : `From the Settings page, open the messages labelled ${p.name} with the Labels menu on the left side.`
    ),
    procedure((p) =>
      `Click ${p.name} in the left-hand ${p.kind === "folder" ? "folder list" : "Labels list"} to show ${
        p.kind === "folder" ? "that folder" : "that label's messages"
      } (you start on ${p.start === "/mail/contacts" ? "Contacts" : "Settings"}).`
    ),
    goal((p) =>
      p.kind === "folder"
        ? `Show the messages of your ${p.name} folder.`
        : `Show the list of every message labelled ${p.name}.`
    ),
    goal((p) =>
      `Leave ${p.start === "/mail/contacts" ? "Contacts" : "Settings"} and end on ${
        p.kind === "folder" ? `your ${p.name} folder` : `the ${p.name} label's messages`
      }.`
    ),
  ],
  start: (p) => ({ url: p.start }),
  chain: (p) => [sideEntry(p)],
  outcome: (p) => [{ page: { path: p.path, query: {} } }, NO_WRITES],
  nearMisses: (p) => [
    {
      name: "neighbour_entry",
      category: "wrong_item",
      steps: sideEntry({ kind: p.siblingKind, name: p.sibling, path: p.siblingPath }).steps,
      reason: "final_page",
      witness: { page: { path: p.siblingPath } },
    },
    {
      name: "then_compose",
      category: "overshoot",
      after_reference: [{ click: { selector: "#compose-button" } }],
      reason: "final_page",
      witness: { page: { path: "/mail/compose" } },
    },
  ],
});

// ---------------------------------------------------------------------------------------------------------------
// Replies (open_detail, then compose_text)

/** Reply texts, made from the message: a greeting of its sender (by first name when a person), its subject, its day. */
function replyTexts(m: Msg): string[] {
  const about = plainSubject(m.subject);
  return [
    `${greeting("Thanks", m.from_name, m.from_email)}. I have read your message about ${about}.`,
    `${greeting("Hi", m.from_name, m.from_email)}, thanks for the update from ${
      longDay(m.date)
    }. I will get back to you tomorrow.`,
    `${greeting("Got it", m.from_name, m.from_email)}. Let us go over ${about} at our next meeting.`,
  ];
}

/** compose_text on the reply form of message `id`: Reply, the text, Send (a Cc nobody listed is its extra field). */
const replyForm = (id: number, body: string, files?: { selector: string; path: string }[]) =>
  formSegment({
    macro: files ? "upload_file" : "compose_text",
    open: [{ click: { selector: "#reply-link" } }],
    fields: [{ selector: "#body", text: body }],
    files,
    submit: "#send-button",
    posts: postPath("/mail/compose"),
    extra: {
      steps: [{ input: { selector: "#cc", text: DEFAULT_USER.email } }],
      witness: insertedEver("messages", { in_reply_to: id, cc_addrs: { contains: DEFAULT_USER.email } }),
    },
  });

const reply = layered<{ id: number; subject: string; from: string; folder: string; text: string; variant: number }>({
  id: "mail.compose_text.open_then_reply",
  site: "mail",
  macro: "compose_text",
  prefix: ["open_detail"],
  summary: "open a received message from its folder, then reply with a given text",
  params: (db) =>
    received(db).flatMap((m) =>
      replyTexts(m).map((text, variant) => ({
        id: m.id,
        subject: m.subject,
        from: m.from_name,
        folder: m.folder,
        text,
        variant,
      }))
    ),
  entity: (p) => `message:${p.id}`,
  phrasings: [
    procedure((p) =>
      `Open ${p.from}'s message "${p.subject}" from the list of your ${
        title(p.folder)
      } folder, click Reply and send it with the text: ${p.text}`
    ),
    procedure((p) =>
      `In ${
        title(p.folder)
      }, click "${p.subject}" (from ${p.from}), then use its Reply button and send this text: ${p.text}`
    ),
    goal((p) => `Answer ${p.from}'s message "${p.subject}" with this reply: ${p.text}`),
    goal((p) => `Send ${p.from} a reply to "${p.subject}" (in ${title(p.folder)}) that says: ${p.text}`),
  ],
  start: (p) => ({ url: `/mail/${p.folder}` }),
  chain: (p, db) => [folderOpen(db, message(db, p.id)), replyForm(p.id, p.text)],
  outcome: (p, db) => {
    const m = message(db, p.id);
    return [
      inserted("messages", sentRow({ to: m.from_email, subject: reSubject(m.subject), body: p.text, replyTo: p.id })),
    ];
  },
  nearMisses: (p, db, steps) => {
    const m = message(db, p.id);
    const sib = folderSibling(db, m);
    const send = (text: string): ActionJson[] => replyForm(p.id, text).steps;
    return [
      {
        name: "replies_to_neighbour",
        category: "wrong_item",
        steps: [...openFromFolder(db, sib), ...send(p.text)],
        reason: "field_mismatch",
        witness: insertedEver("messages", { folder: { exact: "sent" }, in_reply_to: sib.id }),
      },
      {
        name: "extra_sentence",
        category: "unlisted_field",
        steps: [...openFromFolder(db, m), ...send(`${p.text} Sorry for the slow answer.`)],
        reason: "field_mismatch",
        witness: insertedEver("messages", { body: { contains: "Sorry for the slow answer" } }),
      },
      {
        name: "sent_twice",
        category: "collateral",
        steps: [...steps, { navigate: { url: `/mail/messages/${p.id}` } }, ...send(p.text)],
        reason: "irreversible_extra",
        witness: insertedEver("messages", { folder: { exact: "sent" }, in_reply_to: p.id }, 2),
      },
    ];
  },
});

// ---------------------------------------------------------------------------------------------------------------
// A new message to a contact chosen in the To combobox

/** For each contact, the messages outside Trash they sent or received, as subjects to follow up on. */
function followUps(db: AppDb) {
  return contacts(db).flatMap((c) =>
    live(db).filter((m) => m.from_email === c.email || m.to_addrs.split(", ").includes(c.email)).map((m) => ({
      contact: c.id,
      name: c.name,
      email: c.email,
      about: m.id,
      subject: `Follow-up: ${plainSubject(m.subject)}`,
      body: `Hi ${firstName(c.name)}, a quick follow-up on ${plainSubject(m.subject)} from ${longDay(m.date)}.`,
    })).filter((f, i, all) => all.findIndex((g) => g.subject === f.subject) === i)
  );
}

const COMPOSE_TO = { box: "#to-combobox", label: "To" };

/** The compose form's subject, text and Send, after the To field. */
const composeRest = (subject: string, body: string): ActionJson[] => [
  { input: { selector: "#subject", text: subject } },
  { input: { selector: "#body", text: body } },
  { click: { selector: "#send-button" } },
];

/**
 * The To field's list choosing `name`, then the rest of the form sent. The contact page's Write link fills the same
 * field in (`/mail/compose?to=`): the equivalent control a procedure naming the list does not accept.
 */
const toFromList = (p: { contact: number; name: string; email: string; subject: string; body: string }) =>
  chooseFromCombobox(COMPOSE_TO, p.name, `${p.name} <${p.email}>`, {
    after: composeRest(p.subject, p.body),
    saves: { method: "POST", path: "/mail/compose" },
    prefill: {
      steps: [{ navigate: { url: "/mail/contacts" } }, { click: { selector: `#write-${p.contact}` } }],
      witness: { record: { action: "click", target: { contains: `#write-${p.contact}` } } },
    },
  });

const composeTo = layered<
  { contact: number; name: string; email: string; about: number; subject: string; body: string }
>({
  id: "mail.choose_from_combobox.compose_to_contact",
  site: "mail",
  macro: "choose_from_combobox",
  summary: "write a new message to a contact picked from the To field's list",
  params: (db) => followUps(db),
  entity: (p) => `contact:${p.contact}`,
  phrasings: [
    procedure((p) =>
      `Write a new email to ${p.name} (choose them in the To field's contact list) with the subject "${p.subject}" and the text "${p.body}", then send it.`
    ),
    procedure((p) =>
      `Send ${p.name} a message: pick them from the To box's suggestions, subject "${p.subject}", message: ${
        period(p.body)
      }`
    ),
    goal((p) => `Email ${p.name} with the subject "${p.subject}" and this text: ${period(p.body)}`),
    goal((p) => `${p.name} should get a new message from you titled "${p.subject}" that reads "${p.body}".`),
  ],
  start: () => ({ url: "/mail/compose" }),
  chain: (p) => [toFromList(p)],
  outcome: (p) => [inserted("messages", sentRow({ to: p.email, subject: p.subject, body: p.body }))],
  nearMisses: (p, db) => {
    const sib = siblingContact(db, p.contact);
    const rest = composeRest(p.subject, p.body);
    return [
      {
        name: "other_contact",
        category: "wrong_item",
        steps: toFromList({ ...p, contact: sib.id, name: sib.name, email: sib.email }).steps,
        reason: "field_mismatch",
        witness: insertedEver("messages", { folder: { exact: "sent" }, to_addrs: { exact: sib.email } }),
      },
      {
        name: "extra_cc",
        category: "unlisted_field",
        steps: [
          ...toFromList(p).steps.slice(0, -rest.length),
          { input: { selector: "#cc", text: sib.email } },
          ...rest,
        ],
        reason: "field_mismatch",
        witness: insertedEver("messages", { folder: { exact: "sent" }, cc_addrs: { contains: sib.email } }),
      },
    ];
  },
});

// ---------------------------------------------------------------------------------------------------------------
// Settings from the top menu: preferences (radios) and the signature (inline edit)

const PANE_WORDS: Record<string, string> = {
  off: "no reading pane",
  right: "the reading pane on the right",
  bottom: "the reading pane below the list",
};

/** The preferences form's Save, and the request it sends. */
const SAVE_PREFERENCES: ControlPlace = {
  after: [{ click: { selector: "#save-preferences" } }],
  saves: { method: "POST", path: "/mail/settings" },
};

/**
 * The radios of the preferences form that change (a radio already checked is no choice to make), the form saved
 * after the last.
 */
function preferenceRadios(p: { pane: string; size: number }, now: { reading_pane: string; page_size: number }) {
  const groups = [
    ...(p.pane === now.reading_pane ? [] : [{ ids: READING_PANES.map((x) => `#pane-${x}`), value: p.pane }]),
    ...(p.size === now.page_size ? [] : [{ ids: PAGE_SIZES.map((x) => `#page-size-${x}`), value: String(p.size) }]),
  ];
  return groups.map((g, i) =>
    chooseRadio(
      g.ids,
      g.ids.find((id) => id.endsWith(`-${g.value}`))!,
      g.value,
      i === groups.length - 1 ? SAVE_PREFERENCES : {},
    )
  );
}

const preferences = layered<{ pane: string; size: number; wrongSize: number }>({
  id: "mail.choose_radio.menu_preferences",
  site: "mail",
  macro: "choose_radio",
  prefix: ["navigate_menu"],
  summary: "open Settings from the top menu, then choose a reading pane and a page size",
  params: (db) => {
    const s = settings(db);
    return READING_PANES.flatMap((pane) =>
      PAGE_SIZES.map((size) => ({
        pane: pane as string,
        size: size as number,
        wrongSize: PAGE_SIZES.find((x) => x !== size && x !== s.page_size) ?? PAGE_SIZES[0],
      }))
    ).filter((p) => p.pane !== s.reading_pane || p.size !== s.page_size);
  },
  entity: (p) => `preferences:${p.pane}-${p.size}`,
  phrasings: [
    procedure((p) =>
      `Open Settings from the app's top menu, choose ${
        PANE_WORDS[p.pane]
      } and ${p.size} messages per page, and save the preferences.`
    ),
    procedure((p) =>
      `Use the top menu to go to Settings. Set Messages per page to ${p.size} and Reading pane to "${p.pane}", then save.`
    ),
    goal((p) =>
      `Go to the mail settings and make the mailbox show ${p.size} messages per page with ${PANE_WORDS[p.pane]}.`
    ),
    goal((p) => `I'd like ${PANE_WORDS[p.pane]} and ${p.size} messages on each page of my mail: change the settings.`),
  ],
  start: () => ({ url: "/mail/inbox" }),
  chain: (p, db) => [navigateMenu("mail", "Settings", "/mail/settings"), ...preferenceRadios(p, settings(db))],
  outcome: (p, db) => {
    const s = settings(db);
    return [{
      change: {
        site: "mail",
        table: "settings",
        op: "update",
        key: 1,
        after: { reading_pane: { exact: p.pane }, page_size: p.size },
        before: { reading_pane: { exact: s.reading_pane }, page_size: s.page_size },
      },
    }];
  },
  nearMisses: (p, db) => {
    const s = settings(db);
    return [
      {
        name: "other_page_size",
        category: "wrong_item",
        steps: [
          MENU("settings"),
          { click: { selector: `#pane-${p.pane}` } },
          { click: { selector: `#page-size-${p.wrongSize}` } },
          { click: { selector: "#save-preferences" } },
        ],
        reason: "field_mismatch",
        witness: changed("settings", 1, { page_size: p.wrongSize }),
      },
      {
        name: "saved_then_restored",
        category: "reverted",
        after_reference: [
          { click: { selector: `#pane-${s.reading_pane}` } },
          { click: { selector: `#page-size-${s.page_size}` } },
          { click: { selector: "#save-preferences" } },
        ],
        reason: "field_mismatch",
        witness: changed("settings", 1, { reading_pane: { exact: s.reading_pane }, page_size: s.page_size }, {
          reading_pane: { exact: p.pane },
          page_size: p.size,
        }),
      },
    ];
  },
});

/** Signatures made of the seed signature's lines: each ordered selection, joined on one line. */
function signatures(db: AppDb): string[] {
  const lines = settings(db).signature.split("\n").map((l) => l.trim()).filter(Boolean);
  const subsets: string[][] = [];
  for (let mask = 1; mask < 1 << lines.length; mask++) subsets.push(lines.filter((_, i) => mask & (1 << i)));
  const out = new Set<string>();
  for (const closing of ["", "Best regards, "]) {
    for (const sub of subsets) {
      for (const sep of [" | ", " / ", " - "]) out.add(closing + sub.join(sep));
    }
  }
  return [...out];
}

/** edit_inline on Settings: Edit signature, the text, Save signature. */
const signatureForm = (text: string) =>
  formSegment({
    macro: "edit_inline",
    open: [{ click: { selector: "#edit-signature" } }],
    fields: [{ selector: "#signature", text }],
    submit: "#save-signature",
    posts: postPath("/mail/settings/signature"),
  });

const signature = layered<{ text: string; n: number }>({
  id: "mail.edit_inline.menu_signature",
  site: "mail",
  macro: "edit_inline",
  prefix: ["navigate_menu"],
  summary: "open Settings from the top menu, then edit the signature in place",
  params: (db) => signatures(db).map((text, n) => ({ text, n })),
  entity: (p) => `signature:${p.n}`,
  phrasings: [
    procedure((p) =>
      `Go to Settings through the top menu and edit your email signature so that it reads exactly: ${p.text}`
    ),
    procedure((p) =>
      `Using the app's menu, open Settings, click Edit signature, change it to exactly "${p.text}" and save it.`
    ),
    goal((p) => `Your email signature should read exactly "${p.text}" from now on. Make it so.`),
    goal((p) => `Change your mail signature to exactly this text: ${p.text}`),
  ],
  start: () => ({ url: "/mail/inbox" }),
  chain: (p) => [navigateMenu("mail", "Settings", "/mail/settings"), signatureForm(p.text)],
  outcome: (p) => [
    { change: { site: "mail", table: "settings", op: "update", key: 1, after: { signature: { text: p.text } } } },
  ],
  nearMisses: (p, db) => {
    const other = READING_PANES.find((x) => x !== settings(db).reading_pane)!;
    // Every phrasing asks for the text exactly: its case and punctuation count (lib/grading `askedVerbatim`).
    const near = [["lower_case", p.text.toLowerCase()], ["without_final_period", p.text.replace(/\.$/, "")]]
      .filter(([, text]) => text !== p.text);
    return [
      ...near.map(([name, text]): NearMiss => ({
        name: `signature_${name}`,
        category: "unlisted_field",
        steps: [MENU("settings"), ...signatureForm(text).steps],
        reason: "field_mismatch",
        witness: changed("settings", 1, { signature: { exact: text } }),
      })),
      {
        name: "extra_sentence",
        category: "unlisted_field",
        steps: [MENU("settings"), ...signatureForm(`${p.text} Sent from my phone.`).steps],
        reason: "field_mismatch",
        witness: changed("settings", 1, { signature: { contains: "Sent from my phone" } }),
      },
      {
        name: "signature_and_pane",
        category: "collateral",
        after_reference: [{ click: { selector: `#pane-${other}` } }, { click: { selector: "#save-preferences" } }],
        reason: "unclaimed_write",
        witness: changed("settings", 1, { reading_pane: { exact: other } }),
      },
    ];
  },
});

// ---------------------------------------------------------------------------------------------------------------
// A new contact (navigate_menu, then submit_form)

/** New people: a contact's first name with another contact's last name, at that one's company and domain. */
function newPeople(db: AppDb) {
  const all = contacts(db);
  return all.flatMap((a) =>
    all.filter((b) => b.id !== a.id && b.company).map((b) => {
      const first = firstName(a.name);
      const last = b.name.split(" ").slice(1).join(" ");
      return {
        name: `${first} ${last}`,
        email: `${ascii(first)}.${ascii(last)}@${b.email.split("@")[1]}`,
        company: b.company,
      };
    })
  ).filter((p) => !all.some((c) => c.email === p.email || c.name === p.name));
}

/** submit_form on the Contacts page: name, email and company typed, Add contact (the phone is its unlisted field). */
const contactForm = (name: string, email: string, company: string) =>
  formSegment({
    macro: "submit_form",
    fields: [
      { selector: "#contact-name", text: name },
      { selector: "#contact-email", text: email },
      { selector: "#contact-company", text: company },
    ],
    submit: "#add-contact-button",
    posts: postPath("/mail/contacts"),
    enter: "#contact-company",
    extra: {
      steps: [{ input: { selector: "#contact-phone", text: "+1 617 555 0100" } }],
      witness: insertedEver("contacts", { email: { norm: email }, phone: { contains: "555 0100" } }),
    },
  });

const addContact = layered<{ name: string; email: string; company: string }>({
  id: "mail.submit_form.menu_add_contact",
  site: "mail",
  macro: "submit_form",
  prefix: ["navigate_menu"],
  summary: "open Contacts from the top menu, then add a contact with the form",
  params: (db) => newPeople(db),
  entity: (p) => `person:${p.email}`,
  phrasings: [
    procedure((p) =>
      `Open Contacts from the top menu and add a new contact with its form: ${p.name}, email ${p.email}, company ${
        period(p.company)
      }`
    ),
    procedure((p) =>
      `Through the app's menu, go to Contacts and use the Add contact form for ${p.name} (${p.email}) of ${
        period(p.company)
      } Leave the phone empty.`
    ),
    goal((p) => `Save ${p.name} of ${p.company} as a new contact, with the address ${p.email} and no phone number.`),
    goal((p) =>
      `Your address book is missing ${p.name} (${p.email}), who works at ${
        period(p.company)
      } Add them, phone left empty.`
    ),
  ],
  start: () => ({ url: "/mail/inbox" }),
  chain: (p) => [navigateMenu("mail", "Contacts", "/mail/contacts"), contactForm(p.name, p.email, p.company)],
  outcome: (p) => [
    inserted("contacts", {
      name: { norm: p.name },
      email: { norm: p.email },
      company: { norm: p.company },
      phone: { exact: "" },
    }),
  ],
  nearMisses: (p) => {
    const typo = p.email.replace(
      /\.(\w+)$/,
      (_, tld: string) => `.${tld.slice(1, 2)}${tld.slice(0, 1)}${tld.slice(2)}`,
    );
    return [
      {
        name: "mistyped_email",
        category: "unlisted_field",
        steps: [MENU("contacts"), ...contactForm(p.name, typo, p.company).steps],
        reason: "field_mismatch",
        witness: insertedEver("contacts", { email: { exact: typo } }),
      },
      {
        name: "first_name_only",
        category: "unlisted_field",
        steps: [MENU("contacts"), ...contactForm(firstName(p.name), p.email, p.company).steps],
        reason: "field_mismatch",
        witness: insertedEver("contacts", { name: { exact: firstName(p.name) } }),
      },
    ];
  },
});

// ---------------------------------------------------------------------------------------------------------------
// Copying a contact's address

const contactLink = (id: number) => ({
  click: { selector: `#contacts-table tr[data-contact-id='${id}'] a.contact-name` },
});
const siblingContact = (db: AppDb, id: number) => {
  const all = contacts(db);
  return all[(all.findIndex((c) => c.id === id) + 1) % all.length];
};

const copyFromPage = layered<{ id: number; name: string; email: string }>({
  id: "mail.copy_to_clipboard.contact_page_copy",
  site: "mail",
  macro: "copy_to_clipboard",
  prefix: ["open_detail"],
  summary: "open a contact's page from the list, then copy the address with its button",
  params: (db) => contacts(db).map((c) => ({ id: c.id, name: c.name, email: c.email })),
  entity: (p) => `contact:${p.id}`,
  phrasings: [
    procedure((p) =>
      `In your contacts, open ${p.name}'s page and copy their email address with the Copy address button there.`
    ),
    procedure((p) =>
      `Open the contact page of ${p.name}, then use its Copy address button to put the address on the clipboard.`
    ),
    goal((p) => `Go to ${p.name}'s contact page and get their email address onto the clipboard.`),
    goal((p) => `I need ${p.name}'s address on my clipboard; take it from their page in your contacts.`),
  ],
  start: () => ({ url: "/mail/contacts" }),
  chain: (p, db) => [
    openDetail("/mail/contacts", contactLink(p.id), `/mail/contacts/${p.id}`),
    copyToClipboard({
      control: "#copy-address",
      text: p.email,
      another: {
        steps: [
          { navigate: { url: `/mail/contacts/${siblingContact(db, p.id).id}` } },
          { click: { selector: "#copy-address" } },
        ],
        matcher: { exact: siblingContact(db, p.id).email },
      },
    }),
  ],
  outcome: () => [NO_WRITES],
  nearMisses: (p, db) => {
    const sib = siblingContact(db, p.id);
    return [
      {
        name: "copies_neighbour",
        category: "wrong_item",
        steps: [contactLink(sib.id), { click: { selector: "#copy-address" } }],
        reason: "clipboard_mismatch",
        witness: { clipboard: { exact: sib.email } },
      },
      {
        name: "copies_from_list",
        category: "wrong_method",
        steps: [{ click: { selector: `#copy-${p.id}` } }],
        reason: "not_visited",
        witness: { all: [{ clipboard: { exact: p.email } }, { visited: { regex: "^/mail/contacts/" }, times: 0 }] },
      },
    ];
  },
});

const copyFromMenu = layered<{ id: number; name: string; email: string; from: number }>({
  id: "mail.copy_to_clipboard.menu_contacts_copy",
  site: "mail",
  macro: "copy_to_clipboard",
  prefix: ["navigate_menu"],
  summary: "open Contacts from the top menu, then copy one address with its list button",
  params: (db) =>
    contacts(db).flatMap((c) =>
      live(db).filter((m) => m.from_email === c.email).slice(0, 1).map((m) => ({
        id: c.id,
        name: c.name,
        email: c.email,
        from: m.id,
      }))
    ),
  entity: (p) => `contact:${p.id}`,
  phrasings: [
    procedure((p) =>
      `You are reading a message. Open Contacts from the top menu and copy ${p.name}'s email address with the Copy address button in the list.`
    ),
    procedure((p) => `Use the app's menu to reach your contacts, then click Copy address on ${p.name}'s row.`),
    goal((p) =>
      `You are reading a message. Put ${p.name}'s email address, as your contacts list has it, on the clipboard.`
    ),
    goal((p) => `Copy the address of ${p.name} from your contacts.`),
  ],
  start: (p) => ({ url: `/mail/messages/${p.from}` }),
  chain: (p, db) => [
    navigateMenu("mail", "Contacts", "/mail/contacts"),
    copyToClipboard({
      control: `#copy-${p.id}`,
      text: p.email,
      another: {
        steps: [{ click: { selector: `#copy-${siblingContact(db, p.id).id}` } }],
        matcher: { exact: siblingContact(db, p.id).email },
      },
    }),
  ],
  outcome: () => [NO_WRITES],
  nearMisses: (p, db) => [
    {
      name: "copies_neighbour",
      category: "wrong_item",
      steps: [MENU("contacts"), { click: { selector: `#copy-${siblingContact(db, p.id).id}` } }],
      reason: "clipboard_mismatch",
      witness: { clipboard: { exact: siblingContact(db, p.id).email } },
    },
  ],
});

// ---------------------------------------------------------------------------------------------------------------
// Attachments: download after a search, open in a new tab after opening the message

const downloadAfterSearch = layered<{ att: number; file: string; msg: number; subject: string; term: string }>({
  id: "mail.download_file.search_then_download",
  site: "mail",
  macro: "download_file",
  prefix: ["search", "open_detail"],
  summary: "search for a message, open it and download its attachment",
  params: (db) =>
    attachments(db).flatMap((a) => {
      const m = message(db, a.message_id);
      if (m.folder === "trash") return [];
      return subjectWords(m.subject).concat(m.folder === "sent" ? [] : [m.from_name.split(" ").pop()!])
        .filter((t) =>
          /^[A-Za-z]+$/.test(t) && searchList(db, t).some((h) => h.id === m.id) &&
          searchList(db, t).length <= pageSize(db)
        )
        .map((term) => ({ att: a.id, file: a.name, msg: m.id, subject: m.subject, term }));
    }),
  entity: (p) => `attachment:${p.att}`,
  phrasings: [
    procedure((p) =>
      `Search your mail for "${p.term}", open the message "${p.subject}" and download its attachment ${p.file}.`
    ),
    procedure((p) =>
      `Find "${p.subject}" by searching for "${p.term}", then download the file ${p.file} attached to it.`
    ),
    goal((p) => `Look up "${p.term}" in your mail and save ${p.file}, the file attached to "${p.subject}".`),
    goal((p) => `"${p.subject}" is among your mail matching "${p.term}": find it and download ${p.file} from it.`),
  ],
  start: () => ({ url: "/mail/inbox" }),
  chain: (p, db) => {
    const all = attachments(db);
    const same = all.find((a) => a.message_id === p.msg && a.id !== p.att);
    const sib = same ?? all[(all.findIndex((a) => a.id === p.att) + 1) % all.length];
    return [
      search("mail", p.term),
      openDetail("/mail/search", { click: { selector: `#msg-${p.msg}` } }, `/mail/messages/${p.msg}`),
      downloadFile({
        control: `#download-attachment-${p.att}`,
        path: `/mail/attachments/${p.att}/download`,
        kind: "^/mail/attachments/\\d+/download$",
        another: {
          steps: [
            ...(same ? [] : [{ navigate: { url: `/mail/messages/${sib.message_id}` } }]),
            { click: { selector: `#download-attachment-${sib.id}` } },
          ],
          path: `/mail/attachments/${sib.id}/download`,
        },
      }),
    ];
  },
  outcome: () => [NO_WRITES],
  nearMisses: (p, db) => {
    const all = attachments(db);
    const sib = all[(all.findIndex((a) => a.id === p.att) + 1) % all.length];
    return [
      {
        name: "opens_instead",
        category: "wrong_method",
        steps: [...SEARCH(p.term), { click: { selector: `#msg-${p.msg}` } }, {
          click: { selector: `#open-attachment-${p.att}` },
        }],
        reason: "request_missing",
        witness: { request: { method: "GET", path: { exact: `/mail/attachments/${p.att}` } } },
      },
      {
        name: "downloads_other_file",
        category: "wrong_item",
        steps: [...SEARCH(p.term), { navigate: { url: `/mail/messages/${sib.message_id}` } }, {
          click: { selector: `#download-attachment-${sib.id}` },
        }],
        reason: "request_missing",
        witness: { request: { method: "GET", path: { exact: `/mail/attachments/${sib.id}/download` } } },
      },
      {
        name: "download_and_star",
        category: "collateral",
        after_reference: [{ click: { selector: "#star-toggle" } }],
        reason: "unclaimed_write",
        witness: starWitness(message(db, p.msg)),
      },
    ];
  },
});

const openAttachmentTab = layered<{ att: number; file: string; msg: number; subject: string; folder: string }>({
  id: "mail.open_new_tab.open_attachment",
  site: "mail",
  macro: "open_new_tab",
  prefix: ["open_detail"],
  summary: "open a message from its folder, then open its attachment in a new tab",
  params: (db) =>
    attachments(db).map((a) => {
      const m = message(db, a.message_id);
      return { att: a.id, file: a.name, msg: m.id, subject: m.subject, folder: m.folder };
    }),
  entity: (p) => `attachment:${p.att}`,
  phrasings: [
    procedure((p) =>
      `Open the message "${p.subject}" from your ${
        title(p.folder)
      } folder, then open its attachment ${p.file} (it opens in a new tab).`
    ),
    procedure((p) =>
      `In ${title(p.folder)}, open "${p.subject}" and view the attached ${p.file} with Open attachment.`
    ),
    goal((p) => `Show the file ${p.file} that came attached to "${p.subject}" in your ${title(p.folder)} folder.`),
    goal((p) => `The message "${p.subject}" (${title(p.folder)}) has ${p.file} attached: have a look at that file.`),
  ],
  start: (p) => ({ url: `/mail/${p.folder}` }),
  chain: (p, db) => [
    folderOpen(db, message(db, p.msg)),
    openNewTab(
      { click: { selector: `#open-attachment-${p.att}` } },
      "Open attachment",
      `/mail/attachments/${p.att}`,
      { from: `/mail/messages/${p.msg}` },
    ),
  ],
  outcome: (p) => [{ page: { path: `/mail/attachments/${p.att}`, query: {}, tab: "any" } }, NO_WRITES],
  nearMisses: (p, db) => {
    const all = attachments(db);
    const sib = all[(all.findIndex((a) => a.id === p.att) + 1) % all.length];
    const m = message(db, p.msg);
    return [
      {
        name: "downloads_instead",
        category: "wrong_method",
        steps: [...openFromFolder(db, m), { click: { selector: `#download-attachment-${p.att}` } }],
        reason: "final_page",
        witness: { request: { method: "GET", path: { exact: `/mail/attachments/${p.att}/download` } } },
      },
      {
        name: "opens_other_attachment",
        category: "wrong_item",
        steps: [{ navigate: { url: `/mail/messages/${sib.message_id}` } }, {
          click: { selector: `#open-attachment-${sib.id}` },
        }],
        reason: "final_page",
        witness: { visited: { exact: `/mail/attachments/${sib.id}` } },
      },
      {
        name: "star_then_open",
        category: "collateral",
        steps: [
          ...openFromFolder(db, m),
          { click: { selector: "#star-toggle" } },
          { click: { selector: `#open-attachment-${p.att}` } },
        ],
        reason: "unclaimed_write",
        witness: starWitness(m),
      },
    ];
  },
});

// ---------------------------------------------------------------------------------------------------------------
// Deleting a message (open_detail, then confirm_dialog)

const moveTarget = (folder: string) => folder === "archive" || folder === "trash" ? "inbox" : "archive";

const deleteMessage = layered<{ id: number; subject: string; folder: string; from: string }>({
  id: "mail.confirm_dialog.open_then_delete",
  site: "mail",
  macro: "confirm_dialog",
  prefix: ["open_detail"],
  summary: "open a message from its folder, then delete it (to Trash, or forever from Trash) and confirm",
  params: (db) => allMessages(db).map((m) => ({ id: m.id, subject: m.subject, folder: m.folder, from: m.from_name })),
  entity: (p) => `message:${p.id}`,
  phrasings: [
    procedure((p) =>
      p.folder === "trash"
        ? `Open "${p.subject}" in your Trash and delete it forever (confirm when asked).`
        : `Open "${p.subject}" from your ${title(p.folder)} folder and delete it (confirm when asked).`
    ),
    procedure((p) =>
      p.folder === "trash"
        ? `In Trash, open the message "${p.subject}" from ${p.from} and remove it for good, confirming the dialog.`
        : `In ${
          title(p.folder)
        }, open the message "${p.subject}" and move it to Trash with Delete, confirming the dialog.`
    ),
    goal((p) =>
      p.folder === "trash"
        ? `The message "${p.subject}" in your Trash should be gone for good. Make it so.`
        : `The message "${p.subject}" in your ${title(p.folder)} folder should end up in Trash. Make it so.`
    ),
    goal((p) =>
      p.folder === "trash"
        ? `Get rid of "${p.subject}" from ${p.from}, which sits in Trash, permanently.`
        : `Get rid of "${p.subject}" from ${p.from} (in ${title(p.folder)}) by sending it to the Trash.`
    ),
  ],
  start: (p) => ({ url: `/mail/${p.folder}` }),
  chain: (p, db) => {
    const m = message(db, p.id);
    const open = folderOpen(db, m);
    const toTrash = changed("messages", p.id, { folder: { exact: "trash" } });
    return [
      open,
      confirmDialog({
        control: "#delete-message",
        posts: `/mail/messages/${p.id}/delete`,
        equivalent: p.folder === "trash" ? undefined : {
          steps: [
            { select_dropdown: { selector: "#move-folder", text: title("trash") } },
            { click: { selector: "#move-button" } },
          ],
          outcome: toTrash,
        },
      }),
    ];
  },
  outcome: (p) => [
    messageTrashed(p.id, p.folder),
    ...(p.folder === "trash"
      ? [{ only_writes: [{ site: "mail", table: "messages" }, { site: "mail", table: "attachments" }] }]
      : []),
  ],
  nearMisses: (p, db) => {
    const m = message(db, p.id);
    const sib = folderSibling(db, m);
    const alt = moveTarget(p.folder);
    const gone = (x: Msg) =>
      x.folder === "trash"
        ? { change: { site: "mail", table: "messages", op: "delete", key: x.id }, ever: true }
        : changed("messages", x.id, { folder: { exact: "trash" } });
    return [
      {
        name: "deletes_neighbour",
        category: "wrong_item",
        steps: [...openFromFolder(db, sib), { click: { selector: "#delete-message" } }],
        reason: "field_mismatch",
        witness: gone(sib),
      },
      {
        name: "deletes_both",
        category: "collateral",
        after_reference: [{ navigate: { url: `/mail/messages/${sib.id}` } }, {
          click: { selector: "#delete-message" },
        }],
        reason: p.folder === "trash" ? "irreversible_extra" : "unclaimed_write",
        witness: gone(sib),
      },
      {
        name: `moves_to_${alt}`,
        category: "wrong_method",
        steps: [
          ...openFromFolder(db, m),
          { select_dropdown: { selector: "#move-folder", text: title(alt) } },
          { click: { selector: "#move-button" } },
        ],
        reason: "field_mismatch",
        witness: changed("messages", p.id, { folder: { exact: alt } }),
      },
    ];
  },
});

// ---------------------------------------------------------------------------------------------------------------
// Moving a message with the Move to folder list (search, then select_option)

/**
 * The message `id`'s Move to folder list set to `target` (from its folder), opened from the search results first;
 * for Trash, the message's Delete button reaches the same end: the equivalent control a procedure does not accept.
 */
function moveSelect(p: { id: number; folder: string; target: string }, target = p.target) {
  const open: ActionJson = { click: { selector: `#msg-${p.id}` } };
  return selectOption("#move-folder", title(target), {
    before: [open],
    after: [{ click: { selector: "#move-button" } }],
    saves: { method: "POST", path: `/mail/messages/${p.id}/move` },
    prefill: target === "trash"
      ? {
        steps: [open, { click: { selector: "#delete-message" } }],
        witness: changed("messages", p.id, { folder: { exact: "trash" } }),
        ends: true,
      }
      : undefined,
  }, { options: MOVE_TARGETS.map(title), from: title(p.folder) });
}

const moveAfterSearch = layered<{ id: number; subject: string; folder: string; target: string; term: string }>({
  id: "mail.select_option.search_then_move",
  site: "mail",
  macro: "select_option",
  prefix: ["search"],
  summary: "search for a message, open it and move it with the Move to folder list",
  params: (db) =>
    findTerms(db).filter(({ m }) => m.folder === "inbox" || m.folder === "archive").flatMap(({ m, term }) =>
      ["inbox", "archive", "trash"].filter((t) => t !== m.folder).map((target) => ({
        id: m.id,
        subject: m.subject,
        folder: m.folder,
        target,
        term,
      }))
    ),
  entity: (p) => `message:${p.id}`,
  phrasings: [
    procedure((p) =>
      `Search your mail for "${p.term}", open "${p.subject}" and move it to ${
        title(p.target)
      } with the "Move to folder" list.`
    ),
    procedure((p) =>
      `Find the message "${p.subject}" (search for "${p.term}"), then pick ${
        title(p.target)
      } in its Move to folder drop-down and click Move.`
    ),
    goal((p) => `Search your mail for "${p.term}" and put the message "${p.subject}" in ${title(p.target)}.`),
    goal((p) =>
      `"${p.subject}" belongs in ${title(p.target)}, not ${
        title(p.folder)
      }: find it by searching for "${p.term}" and file it there.`
    ),
  ],
  start: () => ({ url: "/mail/inbox" }),
  chain: (p) => [search("mail", p.term), moveSelect(p)],
  outcome: (p) => [messageUpdated(p.id, { folder: { exact: p.target } }, { folder: { exact: p.folder } })],
  nearMisses: (p, db, steps) => {
    const other = ["inbox", "archive", "trash"].find((t) => t !== p.folder && t !== p.target)!;
    const searched = steps.slice(0, 2);
    const moved = moveSelect(p).steps;
    return [
      {
        name: "other_folder",
        category: "wrong_item",
        steps: [...searched, ...moveSelect(p, other).steps],
        reason: "field_mismatch",
        witness: changed("messages", p.id, { folder: { exact: other } }),
      },
      {
        name: "star_then_move",
        category: "collateral",
        steps: [...searched, moved[0], { click: { selector: "#star-toggle" } }, ...moved.slice(1)],
        reason: "unclaimed_write",
        witness: starWitness(message(db, p.id)),
      },
    ];
  },
});

// ---------------------------------------------------------------------------------------------------------------
// Attaching files (open_detail, then upload_file)

const replyWithFile = layered<
  { id: number; subject: string; from: string; folder: string; file: string }
>({
  id: "mail.upload_file.reply_with_attachment",
  site: "mail",
  macro: "upload_file",
  prefix: ["open_detail"],
  summary: "open a received message, then reply with a file attached",
  params: (db) =>
    received(db).flatMap((m) =>
      UPLOADS.map((file) => ({ id: m.id, subject: m.subject, from: m.from_name, folder: m.folder, file }))
    ),
  entity: (p) => `message:${p.id}`,
  phrasings: [
    procedure((p) =>
      `Open "${p.subject}" from the list of your ${
        title(p.folder)
      } folder, click Reply, write "Please find ${p.file} attached.", choose the file ${p.file} in the attachment field and send.`
    ),
    procedure((p) =>
      `Reply to ${p.from}'s message "${p.subject}" (click it in ${
        title(p.folder)
      }): type "Please find ${p.file} attached." and attach ${p.file} with the reply form's file picker before sending.`
    ),
    goal((p) =>
      `Send ${p.from} the file ${p.file} as a reply to "${p.subject}", with the text "Please find ${p.file} attached."`
    ),
    goal((p) => `Answer "${p.subject}" with ${p.file} attached and the message "Please find ${p.file} attached."`),
  ],
  start: (p) => ({ url: `/mail/${p.folder}` }),
  chain: (p, db) => [
    folderOpen(db, message(db, p.id)),
    replyForm(p.id, `Please find ${p.file} attached.`, [{ selector: "#attachment", path: p.file }]),
  ],
  outcome: (p, db) => {
    const m = message(db, p.id);
    const body = `Please find ${p.file} attached.`;
    return [
      inserted("messages", sentRow({ to: m.from_email, subject: reSubject(m.subject), body, replyTo: p.id })),
      inserted("attachments", { message_id: nextMessageId(db), name: { exact: p.file } }),
    ];
  },
  nearMisses: (p, db) => {
    const m = message(db, p.id);
    const body = `Please find ${p.file} attached.`;
    const other = otherUpload(p.file);
    const send = (file: string | null): ActionJson[] => [
      ...openFromFolder(db, m),
      ...(file ? replyForm(p.id, body, [{ selector: "#attachment", path: file }]) : replyForm(p.id, body)).steps,
    ];
    return [
      {
        name: "wrong_file",
        category: "wrong_item",
        steps: send(other),
        reason: "field_mismatch",
        witness: insertedEver("attachments", { name: { exact: other } }),
      },
      {
        name: "forgot_the_file",
        category: "unlisted_field",
        steps: send(null),
        reason: "field_mismatch",
        witness: {
          all: [insertedEver("messages", { in_reply_to: p.id }), {
            change: { site: "mail", table: "attachments", op: "insert" },
            ever: true,
            times: 0,
          }],
        },
      },
    ];
  },
});

const fileTitle = (f: string) => {
  const stem = f.replace(/\.[^.]+$/, "").replace(/_/g, " ");
  return stem.charAt(0).toUpperCase() + stem.slice(1);
};

/** upload_file on a contact's page: Write an email, the subject and text typed, the file chosen, Send. */
const writeForm = (subject: string, body: string, file: string | null) =>
  formSegment({
    macro: "upload_file",
    open: [{ click: { selector: "#write-contact" } }],
    fields: [{ selector: "#subject", text: subject }, { selector: "#body", text: body }],
    files: file ? [{ selector: "#attachment", path: file }] : [],
    submit: "#send-button",
    posts: postPath("/mail/compose"),
    extra: {
      steps: [{ input: { selector: "#cc", text: DEFAULT_USER.email } }],
      witness: insertedEver("messages", { subject: { norm: subject }, cc_addrs: { contains: DEFAULT_USER.email } }),
    },
  });

const writeWithFile = layered<{ id: number; name: string; email: string; file: string }>({
  id: "mail.upload_file.contact_write_with_file",
  site: "mail",
  macro: "upload_file",
  prefix: ["open_detail"],
  summary: "open a contact's page, write to them from it and attach a file",
  params: (db) =>
    contacts(db).flatMap((c) => UPLOADS.map((file) => ({ id: c.id, name: c.name, email: c.email, file }))),
  entity: (p) => `contact:${p.id}`,
  phrasings: [
    procedure((p) =>
      `In your contacts, click ${p.name} in the list and use "Write an email" on their page to send them a message with the subject "${
        fileTitle(p.file)
      } for ${firstName(p.name)}", the text "Hi ${
        firstName(p.name)
      }, ${p.file} is attached." and the file ${p.file} chosen in the attachment field.`
    ),
    procedure((p) =>
      `Open the contact ${p.name} from the contact list, click Write an email, and send subject "${
        fileTitle(p.file)
      } for ${firstName(p.name)}" with the message "Hi ${
        firstName(p.name)
      }, ${p.file} is attached." plus the attachment ${p.file}.`
    ),
    goal((p) =>
      `Email ${p.name} the file ${p.file}: subject "${fileTitle(p.file)} for ${firstName(p.name)}", text "Hi ${
        firstName(p.name)
      }, ${p.file} is attached."`
    ),
    goal((p) =>
      `${p.name} needs ${p.file}. Send it to them attached to a new message titled "${fileTitle(p.file)} for ${
        firstName(p.name)
      }" that says "Hi ${firstName(p.name)}, ${p.file} is attached."`
    ),
  ],
  start: () => ({ url: "/mail/contacts" }),
  chain: (p) => [
    openDetail("/mail/contacts", contactLink(p.id), `/mail/contacts/${p.id}`),
    writeForm(
      `${fileTitle(p.file)} for ${firstName(p.name)}`,
      `Hi ${firstName(p.name)}, ${p.file} is attached.`,
      p.file,
    ),
  ],
  outcome: (p, db) => [
    inserted(
      "messages",
      sentRow({
        to: p.email,
        subject: `${fileTitle(p.file)} for ${firstName(p.name)}`,
        body: `Hi ${firstName(p.name)}, ${p.file} is attached.`,
      }),
    ),
    inserted("attachments", { message_id: nextMessageId(db), name: { exact: p.file } }),
  ],
  nearMisses: (p, db) => {
    const subject = `${fileTitle(p.file)} for ${firstName(p.name)}`;
    const body = `Hi ${firstName(p.name)}, ${p.file} is attached.`;
    const other = otherUpload(p.file);
    const sib = siblingContact(db, p.id);
    const write = (id: number, file: string | null): ActionJson[] => [
      contactLink(id),
      ...writeForm(subject, body, file).steps,
    ];
    return [
      {
        name: "wrong_file",
        category: "wrong_item",
        steps: write(p.id, other),
        reason: "field_mismatch",
        witness: insertedEver("attachments", { name: { exact: other } }),
      },
      {
        name: "forgot_the_file",
        category: "unlisted_field",
        steps: write(p.id, null),
        reason: "field_mismatch",
        witness: {
          all: [insertedEver("messages", { to_addrs: { exact: p.email } }), {
            change: { site: "mail", table: "attachments", op: "insert" },
            ever: true,
            times: 0,
          }],
        },
      },
      {
        name: "writes_to_neighbour",
        category: "wrong_item",
        steps: write(sib.id, p.file),
        reason: "field_mismatch",
        witness: insertedEver("messages", { to_addrs: { exact: sib.email } }),
      },
    ];
  },
});

// ---------------------------------------------------------------------------------------------------------------
// Questions about the mailbox

/** How many messages outside Trash a contact sent, received or was copied on (their page's count). */
const exchanged = (db: AppDb, email: string) =>
  db.get<{ n: number }>(
    `SELECT COUNT(*) AS n FROM messages WHERE folder != 'trash' AND (from_email = ? COLLATE NOCASE
     OR to_addrs LIKE ? OR cc_addrs LIKE ?)`,
    email,
    `%${email}%`,
    `%${email}%`,
  )!.n;

const contactCount = layered<{ id: number; name: string; n: number; from: string }>({
  id: "mail.answer_question.menu_contact_count",
  site: "mail",
  macro: "answer_question",
  prefix: ["navigate_menu"],
  summary: "open Contacts from the top menu, then count the messages exchanged with one contact",
  params: (db) =>
    contacts(db).flatMap((c) =>
      [c.id % 2 ? "inbox" : "settings"].map((from) => ({ id: c.id, name: c.name, n: exchanged(db, c.email), from }))
    ),
  entity: (p) => `contact:${p.id}`,
  phrasings: [
    procedure((p) =>
      `Go to Contacts with the top menu and open ${p.name}'s contact page. How many messages (outside Trash) have you exchanged with them? Answer with the number.`
    ),
    procedure((p) =>
      `Using the app's menu, open your contacts, then ${p.name}'s page, and read how many messages there are with them, Trash not counted. Reply with just the count.`
    ),
    goal((p) =>
      `Your contacts keep track of your mail with each person. How many messages (outside Trash) have you exchanged with ${p.name}? Answer with the number.`
    ),
    goal((p) =>
      `Find out from your contacts how many messages there are with ${p.name}, Trash not counted. Reply with just the count.`
    ),
  ],
  start: (p) => ({ url: `/mail/${p.from}` }),
  chain: (p) => [
    navigateMenu("mail", "Contacts", "/mail/contacts"),
    answerQuestion({
      answer: String(p.n),
      matcher: { number: p.n },
      page: { path: `/mail/contacts/${p.id}` },
      read: [contactLink(p.id)],
      rival: String(p.n + 1),
    }),
  ],
  outcome: () => [NO_WRITES],
  nearMisses: (p) => [
    answeredInstead("one_more", String(p.n + 1)),
  ],
});

/** Senders with two or more messages outside Trash whose subjects do not contain one another. */
function sendersWithSeveral(db: AppDb) {
  const groups = new Map<string, Msg[]>();
  for (const m of live(db)) {
    if (m.from_email === DEFAULT_USER.email) continue;
    groups.set(m.from_name, [...(groups.get(m.from_name) ?? []), m]);
  }
  return [...groups.entries()].filter(([, ms]) => ms.length >= 2).map(([name, ms]) => ({
    name,
    byDate: [...ms].sort((a, b) => a.date < b.date ? -1 : a.date > b.date ? 1 : a.id - b.id),
  }));
}

const senderExtreme = layered<{ sender: string; which: string; subject: string; rival: string; id: number }>({
  id: "mail.answer_question.search_sender_extreme",
  site: "mail",
  macro: "answer_question",
  prefix: ["search"],
  summary: "search for a sender, then name the subject of their latest (or earliest) message",
  params: (db) =>
    sendersWithSeveral(db).flatMap(({ name, byDate }) =>
      (["latest", "earliest"] as const).flatMap((which) => {
        const pick = which === "latest" ? byDate[byDate.length - 1] : byDate[0];
        const rival = which === "latest" ? byDate[0] : byDate[byDate.length - 1];
        const lower = (s: string) => s.toLowerCase();
        if (
          byDate.some((o) =>
            o.id !== pick.id && (lower(o.subject).includes(lower(pick.subject)) ||
              lower(pick.subject).includes(lower(o.subject)))
          )
        ) return [];
        if (searchList(db, name).length > pageSize(db)) return [];
        // A "?" is no neutral punctuation for the answer rules: a subject ending in one would leave it unaccounted.
        if (/[?]/.test(pick.subject + rival.subject)) return [];
        return [{ sender: name, which, subject: pick.subject, rival: rival.subject, id: pick.id }];
      })
    ),
  entity: (p) => `sender:${p.sender}`,
  phrasings: [
    procedure((p) =>
      `Search your mail for "${p.sender}". Of the messages ${p.sender} sent you (Trash aside), which is the ${p.which}? Answer with its subject.`
    ),
    procedure((p) =>
      `Use the search box to look up ${p.sender}. What is the subject of the ${
        p.which === "latest" ? "most recent" : "oldest"
      } message from ${p.sender}? Answer with the subject only.`
    ),
    goal((p) =>
      `Look up your mail from ${p.sender}. Which of their messages (Trash aside) is the ${p.which}? Answer with its subject.`
    ),
    goal((p) =>
      `Among the messages ${p.sender} sent you, outside Trash, what is the subject of the ${
        p.which === "latest" ? "most recent" : "oldest"
      } one? Find them with a search.`
    ),
  ],
  start: () => ({ url: "/mail/inbox" }),
  chain: (p, db) => [
    search("mail", p.sender),
    answerQuestion({
      answer: p.subject,
      matcher: { contains: p.subject },
      others: sendersWithSeveral(db).find((s) => s.name === p.sender)!.byDate.filter((m) => m.id !== p.id)
        .map((m) => m.subject),
      page: { path: "/mail/search" },
      rival: p.rival,
      elsewhere: [{ click: { selector: `#msg-${p.id}` } }],
    }),
  ],
  outcome: () => [NO_WRITES],
  nearMisses: (p) => [
    answeredInstead("names_the_other_end", p.rival, "norm"),
  ],
});

/** The mail app's templates. */
export const MAIL_TEMPLATES: readonly AnyTemplate[] = [
  loginOpen,
  loginStar,
  signInToMessage,
  signInToContact,
  openLabel,
  searchTemplate,
  searchPaginate,
  searchOpen,
  sideMenu,
  reply,
  composeTo,
  preferences,
  signature,
  addContact,
  copyFromPage,
  copyFromMenu,
  downloadAfterSearch,
  openAttachmentTab,
  deleteMessage,
  moveAfterSearch,
  replyWithFile,
  writeWithFile,
  contactCount,
  senderExtreme,
];
