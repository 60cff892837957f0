/**
 * Mail chains that leave the io adapter (issue 31, item 5): an attachment downloaded, then a search (io → rest, and
 * rest → io → rest from the folder); a message deleted, then another opened from its folder (io → rest, and
 * rest → io → rest). Each reads like a table: the layer does the rest.
 */
import type { AppDb } from "../../sites/db.ts";
import type { ActionJson, AnyTemplate, ConditionJson, NearMiss } from "../template.ts";
import {
  confirmDialog,
  downloadFile,
  endsOnSibling,
  goal,
  layered,
  openDetail,
  procedure,
  search,
} from "../macros/mod.ts";
import { messageTrashed } from "./_common.ts";

type Msg = { id: number; folder: string; subject: string; from_name: string };
const messages = (db: AppDb) => db.all<Msg>("SELECT id, folder, subject, from_name FROM messages ORDER BY id");
const pageSize = (db: AppDb) => db.get<{ n: number }>("SELECT page_size AS n FROM settings WHERE id = 1")!.n;
/** A folder's first page of messages, as the folder lists them (newest first). */
const firstPage = (db: AppDb, folder: string) => folderList(db, folder).slice(0, pageSize(db));
const title = (f: string) => f.charAt(0).toUpperCase() + f.slice(1);
/** A folder's messages, as the folder lists them (newest first). */
const folderList = (db: AppDb, folder: string) =>
  db.all<Msg>(
    "SELECT id, folder, subject, from_name FROM messages WHERE folder = ? ORDER BY date DESC, id DESC",
    folder,
  );
/** open_detail from the folder: the message's page of the list first, then its row (`twice`: the chain opens two). */
const fromFolder = (db: AppDb, m: { id: number; folder: string }, twice = false) => {
  const page = Math.floor(folderList(db, m.folder).findIndex((x) => x.id === m.id) / pageSize(db)) + 1;
  const before = page > 1 ? [{ click: { selector: `#page-${page}` } }] : [];
  return openDetail(
    `/mail/${m.folder}`,
    { click: { selector: `#msg-${m.id}` } },
    `/mail/messages/${m.id}`,
    before,
    twice,
  );
};
const onSearch = (q: string): ConditionJson => ({ page: { path: "/mail/search", query: { q } } });

// ---------------------------------------------------------------------------------------------------------------
// An attachment downloaded, then a search

type AttP = { att: number; file: string; msg: number; folder: string; subject: string; term: string; other: string };

/** Each attachment of a message out of Trash, with two words of the messages' subjects to search (one each). */
function attachmentRows(db: AppDb): AttP[] {
  const words = messages(db).filter((m) => m.folder !== "trash").flatMap((m) =>
    m.subject.match(/\b[A-Za-z]{6,}\b/g) ?? []
  )
    .map((w) => w.toLowerCase()).filter((w, i, all) => all.indexOf(w) === i).sort();
  const atts = db.all<{ id: number; message_id: number; name: string }>(
    "SELECT id, message_id, name FROM attachments ORDER BY id",
  );
  return atts.flatMap((a, n) => {
    const m = messages(db).find((x) => x.id === a.message_id)!;
    if (m.folder === "trash") return [];
    return [0, 1].map((k) => {
      const term = words[(n * 7 + k * 3) % words.length], other = words[(n * 7 + k * 3 + 1) % words.length];
      return { att: a.id, file: a.name, msg: m.id, folder: m.folder, subject: m.subject, term, other };
    });
  });
}
const download = (p: AttP) =>
  downloadFile({
    control: `#download-attachment-${p.att}`,
    path: `/mail/attachments/${p.att}/download`,
    kind: "^/mail/attachments/\\d+/download$",
  });
const attMisses = (p: AttP, steps: ActionJson[]): NearMiss[] => [
  {
    name: "other_word_searched",
    category: "wrong_item",
    steps: [...steps.slice(0, -2), { input: { selector: "#search-q", text: p.other } }, steps.at(-1)!],
    reason: "final_page",
    witness: onSearch(p.other),
  },
  {
    name: "search_without_download",
    category: "wrong_item",
    steps: steps.slice(-2),
    reason: "request_missing",
    witness: { not: { request: { method: "GET", path: { exact: `/mail/attachments/${p.att}/download` } } } },
  },
];

const downloadThenSearch = layered<AttP>({
  id: "mail.search.download_then_search",
  site: "mail",
  macro: "search",
  prefix: ["download_file"],
  summary: "on a message, download its attachment, then search the mail for a word",
  params: attachmentRows,
  entity: (p) => `attachment:${p.att}`,
  phrasings: [
    procedure((p) => `Download ${p.file} from this message with its link, then search your mail for "${p.term}".`),
    procedure((p) => `Click the download link of ${p.file}, then type "${p.term}" into the search box and search.`),
    goal((p) => `Save the attachment ${p.file} of "${p.subject}", then show the mail matching "${p.term}".`),
    goal((p) => `Get ${p.file} onto your computer, and after that list your messages about "${p.term}".`),
  ],
  start: (p) => ({ url: `/mail/messages/${p.msg}` }),
  chain: (p) => [download(p), search("mail", p.term)],
  outcome: (p) => [onSearch(p.term), { no_writes: true }],
  nearMisses: (p, _db, steps) => attMisses(p, steps),
});

const openDownloadSearch = layered<AttP>({
  id: "mail.search.open_download_search",
  site: "mail",
  macro: "search",
  prefix: ["open_detail", "download_file"],
  summary: "open a message from its folder, download its attachment, then search the mail for a word",
  params: attachmentRows,
  entity: (p) => `attachment:${p.att}`,
  phrasings: [
    procedure((p) =>
      `In ${title(p.folder)}, open "${p.subject}", download ${p.file} from it, then search your mail for "${p.term}".`
    ),
    procedure((p) =>
      `Click "${p.subject}" in ${title(p.folder)}, use the download link of ${p.file}, then search for "${p.term}".`
    ),
    goal((p) =>
      `Save ${p.file}, attached to "${p.subject}" in ${title(p.folder)}, then find your mail about "${p.term}".`
    ),
    goal((p) => `Download the file ${p.file} from "${p.subject}" and end on the messages matching "${p.term}".`),
  ],
  start: (p) => ({ url: `/mail/${p.folder}` }),
  chain: (p, db) => [fromFolder(db, { id: p.msg, folder: p.folder }), download(p), search("mail", p.term)],
  outcome: (p) => [onSearch(p.term), { no_writes: true }],
  nearMisses: (p, _db, steps) => attMisses(p, steps),
});

// ---------------------------------------------------------------------------------------------------------------
// A message deleted, then another one opened from the folder

type DelP = { id: number; folder: string; subject: string; next: number; next_subject: string; other: number };

/** Each message of a folder's first page but its last, with another one of that page to open after deleting it. */
function deleteRows(db: AppDb): DelP[] {
  return ["inbox", "archive", "sent"].flatMap((folder) => {
    const page = firstPage(db, folder).slice(0, -1);
    return page.flatMap((m, i) => {
      const next = page[(i + 1) % page.length], other = page[(i + 2) % page.length];
      if (next.id === m.id || other.id === m.id || other.id === next.id) return [];
      return [{ id: m.id, folder, subject: m.subject, next: next.id, next_subject: next.subject, other: other.id }];
    });
  });
}
const remove = (p: DelP) => confirmDialog({ control: "#delete-message", posts: `/mail/messages/${p.id}/delete` });
const delOutcome = (
  p: DelP,
) => [messageTrashed(p.id, p.folder), { page: { path: `/mail/messages/${p.next}`, query: {} } }];
const delMisses = (p: DelP, steps: ActionJson[]): NearMiss[] => [
  endsOnSibling("other_message_opened", steps, { click: { selector: `#msg-${p.other}` } }, `/mail/messages/${p.other}`),
  {
    name: "opened_without_delete",
    category: "wrong_item",
    steps: [{ navigate: { url: `/mail/${p.folder}` } }, { click: { selector: `#msg-${p.next}` } }],
    reason: "field_mismatch",
    witness: { all: [{ page: { path: `/mail/messages/${p.next}` } }, { no_writes: true }] },
  },
];

const deleteThenOpen = layered<DelP>({
  id: "mail.open_detail.delete_then_open",
  site: "mail",
  macro: "open_detail",
  prefix: ["confirm_dialog"],
  summary: "delete the open message (confirming), then open another one from its folder",
  params: deleteRows,
  entity: (p) => `message:${p.id}`,
  phrasings: [
    procedure((p) => `Delete this message with its Delete button (confirm when asked), then open "${p.next_subject}".`),
    procedure((p) =>
      `Click Delete on "${p.subject}" and accept the dialog; back in ${title(p.folder)}, click "${p.next_subject}".`
    ),
    goal((p) => `Send "${p.subject}" to the Trash, then read "${p.next_subject}" from your ${title(p.folder)}.`),
    goal((p) => `Get rid of this message ("${p.subject}") and move on to "${p.next_subject}" in the same folder.`),
  ],
  start: (p) => ({ url: `/mail/messages/${p.id}` }),
  chain: (p, db) => [remove(p), fromFolder(db, { id: p.next, folder: p.folder })],
  outcome: delOutcome,
  nearMisses: (p, _db, steps) => delMisses(p, steps),
});

const openDeleteOpen = layered<DelP>({
  id: "mail.open_detail.open_delete_open",
  site: "mail",
  macro: "open_detail",
  prefix: ["open_detail", "confirm_dialog"],
  summary: "open a message from its folder, delete it (confirming), then open another one",
  params: deleteRows,
  entity: (p) => `message:${p.id}`,
  phrasings: [
    procedure((p) =>
      `In ${title(p.folder)}, open "${p.subject}", delete it (confirm the dialog), then open "${p.next_subject}".`
    ),
    procedure((p) =>
      `Click "${p.subject}" in ${title(p.folder)}, press Delete and confirm, then click "${p.next_subject}".`
    ),
    goal((p) => `In ${title(p.folder)}, "${p.subject}" should go to the Trash; then read "${p.next_subject}".`),
    goal((p) => `Trash the message "${p.subject}" from ${title(p.folder)} and end on "${p.next_subject}".`),
  ],
  start: (p) => ({ url: `/mail/${p.folder}` }),
  chain: (p, db) => [fromFolder(db, p, true), remove(p), fromFolder(db, { id: p.next, folder: p.folder }, true)],
  outcome: delOutcome,
  nearMisses: (p, _db, steps) => delMisses(p, steps),
});

/** A deletion's rows, each with a word of another message's subject to search afterwards. */
const deleteSearchRows = (db: AppDb) =>
  deleteRows(db).map((d, n) => {
    const words = attachmentRows(db);
    return { ...d, term: words[n % words.length].term, other_term: words[n % words.length].other };
  });
type DelSearchP = DelP & { term: string; other_term: string };
const delSearchOutcome = (p: DelSearchP) => [messageTrashed(p.id, p.folder), onSearch(p.term)];
const delSearchMisses = (p: DelSearchP, steps: ActionJson[]): NearMiss[] => [
  attMisses({ ...p, att: 0, file: "", msg: p.id, other: p.other_term }, steps)[0],
  {
    name: "searched_without_delete",
    category: "wrong_item",
    steps: steps.slice(-2),
    reason: "field_mismatch",
    witness: { all: [onSearch(p.term), { no_writes: true }] },
  },
];

const deleteThenSearch = layered<DelSearchP>({
  id: "mail.search.delete_then_search",
  site: "mail",
  macro: "search",
  prefix: ["confirm_dialog"],
  summary: "delete the open message (confirming), then search the mail for a word",
  params: deleteSearchRows,
  entity: (p) => `message:${p.id}`,
  phrasings: [
    procedure((p) =>
      `Delete this message with its Delete button (confirm the dialog), then search your mail for "${p.term}".`
    ),
    procedure((p) =>
      `Click Delete on "${p.subject}" and accept the dialog, then type "${p.term}" into the search box.`
    ),
    goal((p) => `Move "${p.subject}" to the Trash, then show the mail that matches "${p.term}".`),
    goal((p) => `This message ("${p.subject}") can go to the Trash; after that, look up "${p.term}" in your mail.`),
  ],
  start: (p) => ({ url: `/mail/messages/${p.id}` }),
  chain: (p) => [remove(p), search("mail", p.term)],
  outcome: delSearchOutcome,
  nearMisses: (p, _db, steps) => delSearchMisses(p, steps),
});

const openDeleteSearch = layered<DelSearchP>({
  id: "mail.search.open_delete_search",
  site: "mail",
  macro: "search",
  prefix: ["open_detail", "confirm_dialog"],
  summary: "open a message from its folder, delete it (confirming), then search the mail for a word",
  params: deleteSearchRows,
  entity: (p) => `message:${p.id}`,
  phrasings: [
    procedure((p) =>
      `In ${title(p.folder)}, open "${p.subject}", delete it (confirm the dialog), then search for "${p.term}".`
    ),
    procedure((p) =>
      `Click "${p.subject}" in ${title(p.folder)}, press Delete and confirm, then search your mail for "${p.term}".`
    ),
    goal((p) =>
      `"${p.subject}" in ${title(p.folder)} should end up in the Trash; then list your mail about "${p.term}".`
    ),
    goal((p) => `Trash "${p.subject}" from your ${title(p.folder)} and end on the messages matching "${p.term}".`),
  ],
  start: (p) => ({ url: `/mail/${p.folder}` }),
  chain: (p, db) => [fromFolder(db, p), remove(p), search("mail", p.term)],
  outcome: delSearchOutcome,
  nearMisses: (p, _db, steps) => delSearchMisses(p, steps),
});

export const MAIL_CHAIN_TEMPLATES: readonly AnyTemplate[] = [
  deleteThenSearch,
  openDeleteSearch,
  downloadThenSearch,
  openDownloadSearch,
  deleteThenOpen,
  openDeleteOpen,
];
