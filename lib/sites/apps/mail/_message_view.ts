/** How one message is shown: its header, body and attachments (the message page and the reading pane). */
import { html } from "hono/html";
import type { Html } from "../../layout.ts";
import type { AppDb } from "../../db.ts";
import { attachmentsOf, displayAddress } from "./_data.ts";
import { type Attachment, folderTitle, formatSize, labelList, longDate, type Message } from "./_model.ts";
import { BASE } from "./_views.ts";

const addressList = (db: AppDb, s: string) =>
  s.split(",").map((a) => a.trim()).filter(Boolean).map((a) => displayAddress(db, a)).join(", ");

/** The From/To/Cc/Date block. */
export function messageMeta(db: AppDb, m: Message): Html {
  return html`<dl class="meta" id="message-meta" style="display:grid;grid-template-columns:70px 1fr;gap:4px 10px;margin:0">
<dt class="muted">From</dt><dd id="meta-from" style="margin:0">${m.from_name} &lt;${m.from_email}&gt;</dd>
<dt class="muted">To</dt><dd id="meta-to" style="margin:0">${addressList(db, m.to_addrs) || "(no recipient)"}</dd>
${
    m.cc_addrs
      ? html`
        <dt class="muted">Cc</dt>
        <dd id="meta-cc" style="margin:0">${addressList(db, m.cc_addrs)}</dd>
      `
      : ""
  }
<dt class="muted">Date</dt><dd id="meta-date" style="margin:0"><time datetime="${m.date}">${
    longDate(m.date)
  }</time></dd>
<dt class="muted">Folder</dt><dd id="meta-folder" style="margin:0">${folderTitle(m.folder)}${
    labelList(m).map((l) =>
      html`
        <span class="badge label">${l}</span>
      `
    )
  }${
    m.starred
      ? html`
        <span class="star" aria-label="starred">★</span>
      `
      : ""
  }</dd>
</dl>`;
}

/** The attachments table with Open (new tab) and Download links. */
export function attachmentTable(atts: Attachment[]): Html {
  if (atts.length === 0) return html``;
  return html`
    <h2>Attachments (${atts.length})</h2>
    <table id="attachments">
      <thead>
        <tr>
          <th>Name</th>
          <th>Type</th>
          <th>Size</th>
          <th></th>
        </tr>
      </thead>
      <tbody>
    ${atts.map((a) =>
      html`
        <tr data-attachment-id="${a.id}">
          <td class="att-name">${a.name}</td>
          <td>${a.type}</td>
          <td>${formatSize(a.size)}</td>
          <td><a href="${BASE}/attachments/${a
            .id}" target="_blank" rel="noopener" class="open-attachment" id="open-attachment-${a
            .id}">Open attachment</a>
        · <a href="${BASE}/attachments/${a.id}/download" class="download-attachment" id="download-attachment-${a
          .id}">Download</a></td>
        </tr>
      `
    )}</tbody>
    </table>
  `;
}

/** The compact view of the reading pane. */
export function messagePreview(db: AppDb, m: Message): Html {
  return html`<article class="card" id="reading-pane" aria-label="Reading pane">
<h2 style="margin-top:0">${m.subject || "(no subject)"}</h2>
${messageMeta(db, m)}
<hr><pre class="msg-body" id="pane-body">${m.body}</pre>
${attachmentTable(attachmentsOf(db, m.id))}
<p><a href="${BASE}/messages/${m.id}" id="open-full-message">Open the full message</a></p>
</article>`;
}
