/**
 * Training rows from an episode's model exchanges (the seed's --record-rows): one row per request, the exact
 * messages sent (screenshots moved to files beside rows.jsonl) and the reply text as the target.
 */
import { Buffer } from "node:buffer";
import { join } from "node:path";
import type { ChatRecord } from "../llm/mod.ts";
import { writeFileAtomic, writeJsonAtomic } from "./files.ts";

type Part = { type: string; image_url?: { url: string }; [k: string]: unknown };
type Message = { role: string; content: string | Part[] };

const DATA_URL = /^data:image\/(png|jpeg);base64,(.*)$/s;

/** The messages with every data-URL image written to `dir` as step_<row>[_<k>].<ext>, replaced by its file name. */
async function saveImages(messages: Message[], dir: string, row: number): Promise<Message[]> {
  let k = 0;
  const out: Message[] = [];
  for (const m of messages) {
    if (typeof m.content === "string") {
      out.push(m);
      continue;
    }
    const parts: Part[] = [];
    for (const p of m.content) {
      const match = p.type === "image_url" ? DATA_URL.exec(p.image_url?.url ?? "") : null;
      if (!match) {
        parts.push(p);
        continue;
      }
      const name = `step_${row}${k ? `_${k}` : ""}.${match[1] === "jpeg" ? "jpg" : "png"}`;
      k++;
      await writeFileAtomic(join(dir, name), new Uint8Array(Buffer.from(match[2], "base64")));
      parts.push({ type: "image_url", image_url: { url: name } });
    }
    out.push({ ...m, content: parts });
  }
  return out;
}

export interface RowsMeta {
  episode: string;
  instruction: string;
  family: string;
  source: string;
  macros?: string[];
}

/** Writes <dir>/rows.jsonl (+ images) and <dir>/episode.json; returns the number of rows. */
export async function writeTrainingRows(dir: string, records: ChatRecord[], meta: RowsMeta): Promise<number> {
  const lines: string[] = [];
  for (const [i, r] of records.entries()) {
    const messages = await saveImages(r.messages as Message[], dir, i);
    lines.push(JSON.stringify({
      task_id: meta.episode,
      step: i,
      family: meta.family,
      source: meta.source,
      model: r.model,
      messages,
      target: r.text,
    }));
  }
  await writeFileAtomic(join(dir, "rows.jsonl"), lines.map((l) => l + "\n").join(""));
  await writeJsonAtomic(join(dir, "episode.json"), {
    task_id: meta.episode,
    instruction: meta.instruction,
    macros: meta.macros ?? null,
    variant: meta.source,
    steps: lines.length,
  });
  return lines.length;
}
