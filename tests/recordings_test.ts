/**
 * The proof's recorded episodes (tests/support/recordings.ts): a recording is regraded with the instance's current
 * check, so a recording of the wrong episode fails the proof offline; a sample run live fails it when the browser
 * and the recording disagree; a file recorded with other sources, or an episode without a recording, is a failure
 * that names `deno task record`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  episodeKey,
  type EpisodeRecordings,
  generate,
  prove,
  type RecordedEpisode,
  type Script,
  TEMPLATES,
} from "../lib/gen/mod.ts";
import { parseTaskLines } from "../lib/tasks/mod.ts";
import { type Task } from "../lib/protocol/mod.ts";
import { RecordingStore } from "./support/recordings.ts";

const ID = "shop.toggle_checkbox.menu_brand";
const template = TEMPLATES.find((t) => t.id === ID)!;
const [task] = parseTaskLines(
  generate([template], { seed: 2, perTemplate: 1 }).lines.map((l) => JSON.stringify(l) + "\n").join(""),
  "one.jsonl",
) as Task[];

/** gen_proof's recordings of this instance's reference and noop (the instance gen_proof_test proves). */
async function recorded(): Promise<{ store: RecordingStore; reference: string; noop: string }> {
  const store = await RecordingStore.open("gen_proof");
  assert.equal(store.stale, undefined, "fixtures/recordings/gen_proof.json.gz is current");
  const reference = await episodeKey(task, undefined);
  const noop = await episodeKey(task, { steps: [], answer: "" } satisfies Script);
  assert.ok(store.get(reference) && store.get(noop), "gen_proof recorded this instance");
  return { store, reference, noop };
}

/** Recordings where the reference's key holds the noop episode's recording. */
function swapped(store: RecordingStore, reference: string, noop: string, sample: boolean): EpisodeRecordings {
  return {
    get: (k) => store.get(k === reference ? noop : k),
    put: () => {},
    sample: (k) => sample && k === reference,
  };
}

Deno.test("a recording is regraded with the current check: the noop's recording under the reference's key fails", async () => {
  const { store, reference, noop } = await recorded();
  const honest = await prove([task], TEMPLATES, { recordings: { get: (k) => store.get(k), put: () => {} } });
  assert.deepEqual(honest.dropped, []);
  assert.equal(honest.recorded, honest.episodes, "every episode regraded offline");
  const report = await prove([task], TEMPLATES, { recordings: swapped(store, reference, noop, false) });
  assert.equal(report.recorded, report.episodes);
  assert.equal(report.dropped.length, 1);
  assert.match(report.dropped[0].problems.join("\n"), /^reference: rejected \(/m);
});

Deno.test("a sampled episode runs live too, and a recording the browser disagrees with fails the proof", async () => {
  const { store, reference, noop } = await recorded();
  const report = await prove([task], TEMPLATES, { workers: 1, recordings: swapped(store, reference, noop, true) });
  assert.equal(report.recorded, report.episodes - 1, "only the sampled episode ran live");
  assert.equal(report.dropped.length, 1);
  assert.match(
    report.dropped[0].problems.join("\n"),
    /^reference: the browser and its recording disagree: live pass, recorded fail \(/m,
  );
});

Deno.test("a recording file of other sources is stale, and an episode without a recording is a failure", async () => {
  const dir = await Deno.makeTempDir({ prefix: "webmix-recordings-" });
  try {
    const file = join(dir, "old.json.gz");
    const body = new Blob([JSON.stringify({ format: 1, sources: "0".repeat(64), episodes: { k: {} } })]).stream()
      .pipeThrough(new CompressionStream("gzip"));
    await Deno.writeFile(file, body);
    const stale = await RecordingStore.open(file);
    assert.match(stale.stale ?? "", /was recorded with other sources \(lib\/sites, .*changed\)/);
    assert.equal(stale.get("k"), undefined, "a stale file's episodes are not used");
    assert.match(stale.problem() ?? "", /every episode ran live; record them again: deno task record$/);

    const { store } = await recorded();
    assert.equal(store.problem(), undefined);
    const ep: RecordedEpisode | undefined = store.get("no such key");
    assert.equal(ep, undefined);
    assert.match(store.problem() ?? "", /^episodes without a recording, run live: 1; record them again/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
