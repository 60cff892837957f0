/** Compose, reply, forward and drafts: GET /compose shows the form, POST /compose sends or saves a draft. */
import type { Context, Hono } from "hono";
import type { AppDb, Row } from "../../db.ts";
import type { SandboxEnv } from "../../types.ts";
import { carriedAttachments, type ComposeErrors, composePage, type ComposeValues, prefill } from "./_compose_form.ts";
import { getMessage, getSettings } from "./_data.ts";
import { formatSize, isEmail, MAX_ATTACHMENT_BYTES, parseRecipients } from "./_model.ts";
import { ME } from "./_people.ts";
import { BASE } from "./_views.ts";

/** Text files keep their content (so "Open attachment" shows it); others keep name, size and type only. */
const TEXTUAL = /\.(txt|csv|md|json|log|ics|html?|xml)$/i;
const MAX_KEPT_TEXT = 64 * 1024;

type Form = Record<string, string | File | (string | File)[]>;

const str = (v: unknown) => typeof v === "string" ? v : Array.isArray(v) && typeof v[0] === "string" ? v[0] : "";

function readValues(form: Form): ComposeValues {
  return {
    to: str(form.to).trim(),
    cc: str(form.cc).trim(),
    subject: str(form.subject).trim(),
    body: str(form.body).replace(/\r\n/g, "\n"),
    reply_id: str(form.reply_id),
    forward_id: str(form.forward_id),
    draft_id: str(form.draft_id),
  };
}

function readFiles(form: Form): File[] {
  const raw = form.attachment;
  const all = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return all.filter((f): f is File => f instanceof File && f.name !== "");
}

/** Drops hidden references that do not name a message (a draft id must name a draft). */
function checkRefs(db: AppDb, v: ComposeValues): ComposeValues {
  const ok = (id: string) => id !== "" && getMessage(db, Number(id)) !== undefined;
  return {
    ...v,
    reply_id: ok(v.reply_id) ? v.reply_id : "",
    forward_id: ok(v.forward_id) ? v.forward_id : "",
    draft_id: ok(v.draft_id) && getMessage(db, Number(v.draft_id))?.folder === "drafts" ? v.draft_id : "",
  };
}

function validateFiles(files: File[]): string | undefined {
  const total = files.reduce((n, f) => n + f.size, 0);
  if (total <= MAX_ATTACHMENT_BYTES) return undefined;
  return files.length === 1
    ? `“${files[0].name}” is ${formatSize(total)}; attachments must be 5 MB or smaller.`
    : `The attachments add up to ${formatSize(total)}; attachments must be 5 MB or smaller in total.`;
}

function validateSend(v: ComposeValues, files: File[]): ComposeErrors {
  const e: ComposeErrors = {};
  const to = parseRecipients(v.to);
  const cc = parseRecipients(v.cc);
  const badTo = to.find((a) => !isEmail(a));
  const badCc = cc.find((a) => !isEmail(a));
  if (to.length + cc.length === 0) e.to = "Add at least one recipient.";
  else if (badTo) e.to = `“${badTo}” is not a valid email address.`;
  if (badCc) e.cc = `“${badCc}” is not a valid email address.`;
  if (!v.subject) e.subject = "Enter a subject.";
  const big = validateFiles(files);
  if (big) e.attachment = big;
  return e;
}

async function storeFiles(db: AppDb, messageId: number, files: File[]): Promise<void> {
  for (const f of files) {
    const type = f.type || "application/octet-stream";
    const textual = (type.startsWith("text/") || type === "application/json" || TEXTUAL.test(f.name)) &&
      f.size <= MAX_KEPT_TEXT;
    const content = textual ? await f.text() : null;
    db.insert("attachments", { message_id: messageId, name: f.name, size: f.size, type, content });
  }
}

/** Writes the message (a new row, or the draft's row) and its attachments; returns its id. */
async function save(c: Context<SandboxEnv>, v: ComposeValues, files: File[], send: boolean): Promise<number> {
  const db = c.get("db");
  const signature = getSettings(db).signature.trim();
  const row: Row = {
    folder: send ? "sent" : "drafts",
    from_name: ME.name,
    from_email: ME.email,
    to_addrs: parseRecipients(v.to).join(", "),
    cc_addrs: parseRecipients(v.cc).join(", "),
    subject: v.subject,
    body: send && signature ? `${v.body.trimEnd()}\n\n-- \n${signature}` : v.body,
    date: c.get("clock").now().toISOString(),
    read: 1,
    in_reply_to: v.reply_id ? Number(v.reply_id) : null,
    forward_of: v.forward_id ? Number(v.forward_id) : null,
  };
  if (v.draft_id) {
    db.update("messages", Number(v.draft_id), row);
    await storeFiles(db, Number(v.draft_id), files);
    return Number(v.draft_id);
  }
  const id = Number(db.insert("messages", { ...row, starred: 0, labels: "" }));
  for (const a of carriedAttachments(db, v)) {
    db.insert("attachments", { message_id: id, name: a.name, size: a.size, type: a.type, content: a.content });
  }
  await storeFiles(db, id, files);
  return id;
}

export function composeRoutes(app: Hono<SandboxEnv>): void {
  app.get("/compose", (c) => composePage(c, prefill(c.get("db"), c.req.query())));
  app.post("/compose", async (c) => {
    const form = await c.req.parseBody({ all: true }) as Form;
    const v = checkRefs(c.get("db"), readValues(form));
    const files = readFiles(form);
    const send = str(form.action) !== "draft";
    const errors = send ? validateSend(v, files) : { attachment: validateFiles(files) };
    if (Object.values(errors).some(Boolean)) return composePage(c, v, errors, files.length > 0);
    await save(c, v, files, send);
    if (!send) return c.redirect(`${BASE}/drafts?flash=${encodeURIComponent("Draft saved.")}`, 303);
    const who = [...parseRecipients(v.to), ...parseRecipients(v.cc)].join(", ");
    return c.redirect(`${BASE}/sent?flash=${encodeURIComponent(`Message “${v.subject}” sent to ${who}.`)}`, 303);
  });
}
