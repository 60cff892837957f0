/**
 * record_rows.ts end to end, as a user runs it (`deno task rows`, its permissions: read and write only): a base-arm
 * run with --record-rows against the fixture model server, then record_rows.ts on the same folder. Its rows are the
 * run's, byte for byte, and the requests the server received; a regrade with other checks yields the rows of the new
 * passing set without running anything; the filters select what they say; a folder it cannot serve is refused.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { agentReply as reply, type FixtureEpisode, startFixtureModelServer } from "./fixture_model_server.ts";
import { readResults, ROOT, runCli, runTask } from "./support/cli.ts";

const PAGINATE = "shop_paginate_page3"; // shop (a train site), Navigation
const SEARCH = "mail_search_lisbon"; // mail (a test site), Text entry
const onPage3 = [reply({ navigate: { url: "/shop/products?page=3" } }), reply({ done: { text: "ok", success: true } })];

/** Two repeats of each task, one after another: both paginate episodes pass, the first search fails, the second passes. */
const EPISODES: FixtureEpisode[] = [
  { marker: "In the shop's product list, go to page 3.", steps: [...onPage3, ...onPage3].map((r) => ({ reply: r })) },
  {
    marker: 'Search your mail for "Lisbon".',
    steps: [
      reply({ done: { text: "no idea", success: true } }),
      reply({ navigate: { url: "/mail/search?q=lisbon" } }),
      reply({ done: { text: "searched", success: true } }),
    ].map((r) => ({ reply: r })),
  },
];

type Row = { messages: { role: string; content: string | { type: string; image_url?: { url: string } }[] }[] };

const rowsOf = async (dir: string): Promise<Row[]> =>
  (await Deno.readTextFile(join(dir, "rows.jsonl"))).trim().split("\n").map((l) => JSON.parse(l));

const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The episode folders a rows folder holds. */
async function folders(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) if (e.isDirectory) names.push(e.name);
  return names.sort();
}

/** The image files a row names. */
const imagesOf = (row: Row) =>
  row.messages.flatMap((m) => Array.isArray(m.content) ? m.content : []).flatMap((p) =>
    p.image_url ? [p.image_url.url] : []
  );

/** Asserts that `rows/<episode>` holds what the run wrote in `out/<episode>`: rows.jsonl, episode.json, images. */
async function assertSameRows(out: string, rows: string, episode: string): Promise<void> {
  const [a, b] = [join(out, episode), join(rows, episode)];
  for (const f of ["rows.jsonl", "episode.json"]) {
    assert.equal(await Deno.readTextFile(join(b, f)), await Deno.readTextFile(join(a, f)), `${episode}/${f}`);
  }
  for (const row of await rowsOf(b)) {
    for (const image of imagesOf(row)) {
      assert.ok(same(await Deno.readFile(join(b, image)), await Deno.readFile(join(a, image))), `${episode}/${image}`);
    }
  }
}

Deno.test("record_rows.ts rebuilds a run's rows from its step records, before and after a regrade", async (t) => {
  await using server = startFixtureModelServer({ episodes: EPISODES });
  const dir = await Deno.makeTempDir({ prefix: "webmix-rows-cli-" });
  const out = join(dir, "out");
  const rows = (name: string, ...args: string[]) => runTask("rows", [out, "--out", join(dir, name), ...args]);
  try {
    const run = await runCli("eval.ts", [
      ...["--arm", "base", "--task-ids", `${PAGINATE},${SEARCH}`, "--repeats", "2", "--workers", "1"],
      ...["--record-rows", "--vllm", server.url, "--out", out],
    ]);
    assert.equal(run.code, 0, run.stderr);
    const passing = (await readResults(out)).filter((r) => r.ok).map((r) => r.episode).sort();
    assert.deepEqual(passing, [`${SEARCH}~r1`, `${PAGINATE}~r0`, `${PAGINATE}~r1`].sort());

    await t.step("the rows of every passing episode, byte for byte the run's and the requests sent", async () => {
      const r = await rows("all");
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^wrote 6 rows of 3 episodes to .*all \(grades from .*results\.jsonl\): 3 passing/m);
      assert.deepEqual(await folders(join(dir, "all")), passing);
      for (const episode of passing) await assertSameRows(out, join(dir, "all"), episode);
      // The paginate episodes' rows are the requests the server received, the images inlined again.
      const sent = server.requests.filter((q) => q.episode === EPISODES[0].marker && q.status === 200);
      const rebuilt: Row["messages"][] = [];
      for (const episode of [`${PAGINATE}~r0`, `${PAGINATE}~r1`]) {
        for (const row of await rowsOf(join(dir, "all", episode))) {
          for (const part of row.messages[1].content as { image_url?: { url: string } }[]) {
            if (!part.image_url) continue;
            const png = await Deno.readFile(join(dir, "all", episode, part.image_url.url));
            part.image_url.url = `data:image/png;base64,${png.toBase64()}`;
          }
          rebuilt.push(row.messages);
        }
      }
      assert.equal(sent.length, 4);
      assert.ok(
        sent.every((q, i) => JSON.stringify((q.body as Row).messages) === JSON.stringify(rebuilt[i])),
        "each row's messages are the request as sent",
      );
      const index = JSON.parse(await Deno.readTextFile(join(dir, "all", "export.json")));
      assert.deepEqual(
        index.episodes.map((e: { episode: string; status: string }) => [e.episode, e.status]),
        [
          [`${SEARCH}~r1`, "passed"],
          [`${PAGINATE}~r0`, "passed"],
          [`${PAGINATE}~r1`, "passed"],
        ].sort(),
      );
    });

    await t.step("--family, --repeat, --dedupe, --split and --arm select what they say", async () => {
      const cases: [string[], string[]][] = [
        [["--family", "Text entry"], [`${SEARCH}~r1`]],
        [["--repeat", "0"], [`${PAGINATE}~r0`]],
        [["--dedupe"], [`${SEARCH}~r1`, `${PAGINATE}~r0`]],
        [["--split", "train"], [`${PAGINATE}~r0`, `${PAGINATE}~r1`]],
        [["--split", "test", "--arm", "base"], [`${SEARCH}~r1`]],
      ];
      for (const [i, [args, want]] of cases.entries()) {
        const r = await rows(`f${i}`, ...args);
        assert.equal(r.code, 0, r.stderr);
        assert.deepEqual(await folders(join(dir, `f${i}`)), want.sort(), args.join(" "));
      }
      const r = await rows("f-arm", "--arm", "oracle");
      assert.equal(r.code, 2);
      assert.match(r.stderr, /--arm "oracle": no episode of .* ran it \(arms: base\)/);
    });

    await t.step("a regrade with other checks yields the rows of exactly the newly passing set", async () => {
      const lines = (await Deno.readTextFile(join(ROOT, "fixtures/tasks.jsonl"))).split("\n");
      const task = (id: string) => JSON.parse(lines.find((l) => l.includes(`"task_id": "${id}"`))!);
      const tasks = join(dir, "regrade.jsonl");
      await Deno.writeTextFile(
        tasks,
        [
          { ...task(PAGINATE), check: { page: { path: "/shop/products", query: { page: "4" } } } },
          { ...task(SEARCH), check: { no_writes: true } },
        ].map((l) => JSON.stringify(l)).join("\n") + "\n",
      );
      const regrade = await runCli("regrade.ts", ["--out", out, "--tasks", tasks]);
      assert.equal(regrade.code, 0, regrade.stderr);
      assert.match(regrade.stdout, /\(3 changed\)/);
      const r = await rows("regraded");
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /grades from .*results_regraded\.jsonl/);
      assert.deepEqual(await folders(join(dir, "regraded")), [`${SEARCH}~r0`, `${SEARCH}~r1`]);
      await assertSameRows(out, join(dir, "regraded"), `${SEARCH}~r1`);
      // The episode that failed when it ran left no rows; its step records give them now.
      const [row] = await rowsOf(join(dir, "regraded", `${SEARCH}~r0`));
      assert.equal((row as { target?: string }).target, JSON.stringify(EPISODES[1].steps[0].reply));
      const shot = await Deno.readFile(join(out, `${SEARCH}~r0`, "step_1.png"));
      assert.ok(same(await Deno.readFile(join(dir, "regraded", `${SEARCH}~r0`, imagesOf(row)[0])), shot));
    });

    await t.step(
      "one damaged folder: every tool that reads the damaged file exits 1 naming it and its line",
      async () => {
        // docs/output-layout.md: a file of the run that cannot be read is exit 1 in every offline tool, never 2.
        // An episode that passes after the regrade above, so that rows reads its step records.
        const steps = (copy: string) => join(copy, `${SEARCH}~r1`, "steps.jsonl");
        const damaged = async (name: string, damage: (line: Record<string, unknown>) => string) => {
          const copy = join(dir, name);
          assert.ok((await new Deno.Command("cp", { args: ["-R", out, copy] }).output()).success);
          const [first, ...rest] = (await Deno.readTextFile(steps(copy))).split("\n");
          await Deno.writeTextFile(steps(copy), [damage(JSON.parse(first)), ...rest].join("\n"));
          return copy;
        };
        const folders = {
          "not JSON": await damaged("damaged_json", () => '{"step": 0, "not json'),
          "a newer format_version": await damaged(
            "damaged_future",
            (l) => JSON.stringify({ ...l, format_version: 99 }),
          ),
        };
        for (const [damage, copy] of Object.entries(folders)) {
          const runs = {
            rows: await runTask("rows", [copy, "--out", `${copy}_rows`]),
            report: await runTask("report", [copy]),
          };
          for (const [tool, r] of Object.entries(runs)) {
            assert.equal(r.code, 1, `${tool} on ${damage}: exit ${r.code}\n${r.stderr}`);
            assert.match(r.stderr, new RegExp(`${SEARCH}~r1/steps\\.jsonl line 1`), `${tool} on ${damage}`);
          }
          // The viewer shows every episode, the damaged one with its file and line named in the page.
          const view = await runTask("viewer", [copy]);
          assert.equal(view.code, 0, view.stderr);
          assert.match(await Deno.readTextFile(join(copy, "viewer.html")), /steps\.jsonl line 1/, damage);
          await assert.rejects(Deno.stat(`${copy}_rows`), Deno.errors.NotFound, "no rows written");
        }
      },
    );

    await t.step("refused with exit 2: a folder not empty, a run folder without results or step records", async () => {
      const again = await rows("all");
      assert.equal(again.code, 2);
      assert.match(again.stderr, /--out ".*all" is not empty: pass --overwrite/);
      assert.equal((await rows("all", "--overwrite")).code, 0);
      const none = await runTask("rows", [dir, "--out", join(dir, "x")]);
      assert.equal(none.code, 2);
      assert.match(none.stderr, /holds no results\.jsonl/);
      await Deno.remove(join(out, `${SEARCH}~r1`, "steps.jsonl"));
      const old = await rows("old");
      assert.equal(old.code, 2);
      assert.match(
        old.stderr,
        new RegExp(`episode "${SEARCH}~r1" has no steps\\.jsonl: the run predates step records`),
      );
      await assert.rejects(Deno.stat(join(dir, "old")), Deno.errors.NotFound, "nothing written");
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
