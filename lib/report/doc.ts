/**
 * The report as a list of blocks (headings, paragraphs, lists, tables, charts), written once and rendered twice:
 * Markdown (charts named, not drawn) and one self-contained HTML page (inline CSS and SVG, nothing fetched).
 * @module
 */

/** One block of the report. Text is plain: each renderer escapes it. */
export type Block =
  | { kind: "heading"; level: 1 | 2 | 3; text: string }
  | { kind: "paragraph"; text: string }
  | { kind: "list"; items: string[] }
  /** `numeric` columns are right-aligned. */
  | { kind: "table"; head: string[]; rows: string[][]; numeric?: boolean[] }
  /** `svg` is a whole <svg> element, already escaped (chart.ts). */
  | { kind: "chart"; title: string; svg: string };

/** Text safe inside HTML and SVG elements and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

const mdCell = (text: string) => text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\n/g, " ");
/** Text as Markdown shows it: a `<` that would open an HTML tag (task text may hold markup) is escaped, others stay. */
const mdText = (text: string) => text.replace(/<(?=[A-Za-z/!?])/g, "&lt;");

/** The blocks as Markdown (GitHub tables); a chart becomes a line naming it. */
export function toMarkdown(blocks: readonly Block[]): string {
  const out = blocks.map((b) => {
    switch (b.kind) {
      case "heading":
        return `${"#".repeat(b.level)} ${mdText(b.text)}`;
      case "paragraph":
        return mdText(b.text);
      case "list":
        return b.items.map((i) => `- ${mdText(i)}`).join("\n");
      case "table": {
        const row = (cells: string[]) => `| ${cells.map((c) => mdText(mdCell(c))).join(" | ")} |`;
        const rule = b.head.map((_, i) => b.numeric?.[i] ? "---:" : "---");
        return [row(b.head), `| ${rule.join(" | ")} |`, ...b.rows.map(row)].join("\n");
      }
      case "chart":
        return `_Chart in report.html: ${mdText(b.title)}._`;
    }
  });
  return out.join("\n\n") + "\n";
}

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d2330;margin:0;background:#f6f7f9}
main{max-width:1100px;margin:0 auto;padding:24px 32px 48px;background:#fff}
h1{font-size:24px;margin:0 0 12px}h2{font-size:19px;margin:32px 0 8px;border-bottom:1px solid #dde1e7;padding-bottom:4px}
h3{font-size:15px;margin:20px 0 6px}
table{border-collapse:collapse;margin:8px 0 12px;font-variant-numeric:tabular-nums}
th,td{border:1px solid #dde1e7;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f0f2f5;font-weight:600}td.n,th.n{text-align:right}
ul{margin:6px 0 12px;padding-left:22px}figure{margin:12px 0}figcaption{font-weight:600;margin-bottom:4px}
svg text{font:12px system-ui,-apple-system,"Segoe UI",sans-serif;fill:#1d2330}
`;

/** The blocks as one HTML page that needs nothing but itself (opens from file://). */
export function toHtml(title: string, blocks: readonly Block[]): string {
  const body = blocks.map((b) => {
    switch (b.kind) {
      case "heading":
        return `<h${b.level}>${escapeHtml(b.text)}</h${b.level}>`;
      case "paragraph":
        return `<p>${escapeHtml(b.text)}</p>`;
      case "list":
        return `<ul>${b.items.map((i) => `<li>${escapeHtml(i)}</li>`).join("")}</ul>`;
      case "table": {
        const cls = (i: number) => b.numeric?.[i] ? ` class="n"` : "";
        const head = b.head.map((h, i) => `<th${cls(i)}>${escapeHtml(h)}</th>`).join("");
        const rows = b.rows.map((r) => `<tr>${r.map((c, i) => `<td${cls(i)}>${escapeHtml(c)}</td>`).join("")}</tr>`);
        return `<table><thead><tr>${head}</tr></thead><tbody>${rows.join("\n")}</tbody></table>`;
      }
      case "chart":
        return `<figure><figcaption>${escapeHtml(b.title)}</figcaption>${b.svg}</figure>`;
    }
  });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
${body.join("\n")}
</main>
</body>
</html>
`;
}
