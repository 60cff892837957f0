/**
 * Malformed input of every kind, through the real entry scripts: flags, task lines (datagen and proposed),
 * annotation folders (task.json, verifier.json, recording.json), encodings and output paths. Each must stop the
 * script with exit 2, a message on stderr that names the flag, file, line or task and what was expected, nothing on
 * stdout, and nothing written or deleted. Cases that once started a run run without --dry-run, so that a check
 * only --dry-run reaches cannot pass them. The scripts run 6 at a time.
 */
import assert from "node:assert/strict";
import { ROOT, runCli } from "./support/cli.ts";
import {
  denoCacheDir,
  latin1,
  mapLimited,
  proposedLine,
  snapshot,
  taskLine,
  utf16,
  withBom,
  Workspace,
} from "./support/bad_inputs.ts";

/** One malformed input. */
interface Case {
  name: string;
  /** The entry script (default eval.ts). */
  script?: string;
  /** Its arguments; `out` is a folder of the case's own that must not come to exist. */
  args: (out: string) => string[];
  /** What stderr must say. */
  message: RegExp;
  cwd?: string;
  env?: Record<string, string>;
  /** A folder the refused command must leave as it was (besides `out`). */
  keep?: string;
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** eval.ts with a task file and the noop arm, run for real (no --dry-run). */
const run = (tasks: string, ...more: string[]) => (out: string) => [
  "--arm",
  "noop",
  "--tasks",
  tasks,
  "--out",
  out,
  ...more,
];
/** eval.ts --dry-run with the bundled tasks and extra flags. */
const dry = (...more: string[]) => (out: string) => ["--arm", "noop", "--out", out, "--dry-run", ...more];
/** eval.ts --dry-run of the agent_planner arm with extra flags. */
const planner = (...more: string[]) => (out: string) => ["--arm", "agent_planner", "--out", out, "--dry-run", ...more];
/** eval.ts --human over an annotations folder, every split, run for real. */
const human = (dir: string, ...more: string[]) => (out: string) => [
  "--arm",
  "noop",
  "--human",
  "--annotations",
  dir,
  "--human-split",
  "all",
  "--out",
  out,
  ...more,
];

async function flagCases(ws: Workspace): Promise<Case[]> {
  const prompt = await ws.file("prompt_latin1.md", latin1("Réponds en JSON.\n"));
  await ws.file("not_a_run/notes.txt", "mine");
  return [
    { name: "--workers 0", args: dry("--workers", "0"), message: /--workers "0" is not a whole number from 1 to 256/ },
    { name: "--workers 1.5", args: dry("--workers", "1.5"), message: /--workers "1\.5" is not a whole number from 1/ },
    {
      name: "--timeout abc",
      args: dry("--timeout", "abc"),
      message: /--timeout "abc" is not a whole number from 1 to/,
    },
    { name: "--timeout 1e9", args: dry("--timeout", "1e9"), message: /--timeout "1e9" is not a whole number from 1/ },
    {
      name: "--repeats 0",
      args: dry("--repeats", "0"),
      message: /--repeats "0" is not a whole number from 1 to 10000/,
    },
    { name: "--limit=-1", args: dry("--limit=-1"), message: /--limit "-1" is not a whole number from 0/ },
    {
      name: "--max-steps=-1",
      args: dry("--max-steps=-1"),
      message: /--max-steps "-1" is not a whole number from 0 to 10000/,
    },
    {
      name: "--max-tokens 2.5",
      args: dry("--max-tokens", "2.5"),
      message: /--max-tokens "2\.5" is not a whole number/,
    },
    {
      name: "--max-actions 21",
      args: dry("--max-actions", "21"),
      message: /--max-actions "21" is not .* from 1 to 20/,
    },
    {
      name: "--temperature=-0.5",
      args: dry("--temperature=-0.5"),
      message: /--temperature "-0\.5" is not a number >= 0/,
    },
    {
      name: "--model-timeout 0",
      args: dry("--model-timeout", "0"),
      message: /--model-timeout "0" is not a number > 0/,
    },
    {
      name: "--vllm not a url",
      args: (out) => ["--arm", "base", "--out", out, "--dry-run", "--vllm", "not a url"],
      message: /--vllm "not a url" is not an http\(s\) URL \(e\.g\. http:\/\/127\.0\.0\.1:8400\/v1\)/,
    },
    { name: "--now garbage", args: dry("--now", "garbage"), message: /--now "garbage" is not an ISO day or instant/ },
    {
      name: "--agent-version v9",
      args: planner("--agent-version", "v9"),
      message: /--agent-version "v9" is not one of: v1, v2/,
    },
    {
      name: "--sub-cap 0",
      args: planner("--sub-cap", "0"),
      message: /--sub-cap "0" is not a whole number from 1 to 10000/,
    },
    {
      name: "--sub-cap 1.5",
      args: planner("--sub-cap", "1.5"),
      message: /--sub-cap "1\.5" is not a whole number from 1/,
    },
    {
      name: "--planner-turns=-1",
      args: planner("--planner-turns=-1"),
      message: /--planner-turns "-1" is not a whole number from 1 to 1000/,
    },
    {
      name: "--planner-turns 1001",
      args: planner("--planner-turns", "1001"),
      message: /--planner-turns "1001" is not a whole number from 1 to 1000/,
    },
    {
      name: "--fallback ''",
      args: planner("--fallback", ""),
      message: /--fallback "" is empty: expected a served model/,
    },
    { name: "--planner-name ''", args: planner("--planner-name", " "), message: /--planner-name " " is empty/ },
    {
      name: "--sub-cap with --arm base (run for real)",
      args: (out) => ["--arm", "base", "--sub-cap", "3", "--task-ids", "shop_paginate_page3", "--out", out],
      message: /--sub-cap goes with --arm agent_planner/,
    },
    {
      name: "--reasoning-to-fallback with --arm oracle",
      args: (out) => ["--arm", "oracle", "--reasoning-to-fallback", "--out", out, "--dry-run"],
      message: /--reasoning-to-fallback goes with --arm agent_planner/,
    },
    {
      name: "--pixel-coords with --normalized-coords",
      args: dry("--pixel-coords", "--normalized-coords"),
      message: /--pixel-coords and --normalized-coords exclude each other/,
    },
    { name: "--retry-timeouts alone", args: dry("--retry-timeouts"), message: /--retry-timeouts goes with --resume/ },
    {
      name: "--vllm on a host deno may not reach (run for real)",
      args: (
        out,
      ) => [
        "--arm",
        "base",
        "--vllm",
        "http://10.255.255.1:8400/v1",
        "--task-ids",
        "shop_paginate_page3",
        "--out",
        out,
      ],
      message:
        /--vllm names 10\.255\.255\.1:8400, which this process may not connect to .*\n.*--allow-net=127\.0\.0\.1,localhost,10\.255\.255\.1:8400 /,
    },
    {
      name: "--bases on a host deno may not reach",
      args: dry("--bases", "http://10.255.255.1:8318"),
      message: /--bases names 10\.255\.255\.1:8318, which this process may not connect to/,
    },
    {
      name: "a judge on a host deno may not reach, with human tasks (run for real)",
      args: (out) => ["--arm", "noop", "--human", "--human-split", "all", "--out", out],
      env: { WEBMIX_JUDGE_BASE_URL: "https://judge.example.com/v1" },
      message: /WEBMIX_JUDGE_BASE_URL names judge\.example\.com:443, which this process may not connect to/,
    },
    { name: "--now 2026-02-30", args: dry("--now", "2026-02-30"), message: /--now "2026-02-30" is not an ISO/ },
    {
      name: "--adapters naming nothing",
      args: dry("--adapters", ","),
      message: /--adapters "," names nothing/,
    },
    {
      name: "--system-prompt missing",
      args: dry("--system-prompt", ws.path("nope.md")),
      message: new RegExp(`--system-prompt "${esc(ws.path("nope.md"))}": no such file`),
    },
    {
      name: "--system-prompt not UTF-8",
      args: dry("--system-prompt", prompt),
      message: /--system-prompt ".*prompt_latin1\.md" is not UTF-8: byte 0xe9 at byte offset 1 \(line 1\)/,
    },
    {
      name: "--annotations missing",
      args: dry("--human", "--annotations", ws.path("nope")),
      message: /--annotations ".*\/nope": no such folder/,
    },
    { name: '--out ""', args: () => ["--arm", "noop", "--out", ""], message: /--out "" is empty: expected the run's/ },
    { name: "--task-ids ,", args: dry("--task-ids", ","), message: /--task-ids "," names nothing/ },
    {
      name: "--task-ids matching nothing (run for real)",
      args: (out) => ["--arm", "noop", "--task-ids", "shop_nope", "--out", out],
      message: /--task-ids: no task with id "shop_nope"/,
    },
    { name: "--ports 70000", args: dry("--ports", "70000"), message: /--ports "70000" is not a port number/ },
    {
      name: "--bases ftp://h",
      args: dry("--bases", "ftp://h"),
      message: /--bases "ftp:\/\/h" is not an http\(s\) URL/,
    },
    {
      name: "--tasks with --human",
      args: dry("--human", "--tasks", "fixtures/tasks.jsonl"),
      message: /--tasks and --human exclude each other/,
    },
    { name: "--resume --overwrite", args: dry("--resume", "--overwrite"), message: /--resume and --overwrite exclude/ },
    { name: "--force-resume alone", args: dry("--force-resume"), message: /--force-resume goes with --resume/ },
    {
      name: "--arm magic",
      args: (out) => ["--arm", "magic", "--out", out],
      message: /--arm "magic" is not one of: replay/,
    },
    {
      name: "--regrade on a missing folder",
      args: () => ["--regrade", ws.path("no_run")],
      message: /--regrade ".*\/no_run": no such folder/,
    },
    {
      name: "--regrade on a folder without results.jsonl",
      args: () => ["--regrade", ws.path("not_a_run")],
      message: /--regrade ".*\/not_a_run" holds no results\.jsonl \(expected a run's output folder\)/,
      keep: ws.path("not_a_run"),
    },
    {
      name: "--regrade with a run's flags",
      args: (out) => ["--regrade", ws.path("not_a_run"), "--workers", "2", "--out", out],
      message: /--workers does not go with --regrade/,
      keep: ws.path("not_a_run"),
    },
  ];
}

async function taskFileCases(ws: Workspace): Promise<Case[]> {
  const file = (name: string, content: string | Uint8Array) => ws.file(`tasks/${name}`, content);
  const good = await taskLine();
  const line = (name: string, patch: Record<string, unknown>) => taskLine(patch).then((l) => file(name, `${l}\n`));
  const cases: [string, Promise<string>, RegExp][] = [
    ["an empty task file", file("empty.jsonl", ""), /empty\.jsonl has no tasks \(it is empty\)/],
    ["blank lines only", file("blank.jsonl", "\n  \n\r\n"), /blank\.jsonl has no tasks \(it holds only blank lines\)/],
    [
      "a UTF-8 byte order mark",
      file("bom.jsonl", withBom(`${good}\n`)),
      /bom\.jsonl starts with a UTF-8 byte order mark; save it without one/,
    ],
    [
      "Latin-1 bytes on line 2",
      file("latin1.jsonl", latin1(`${good}\n${await taskLine({ task_id: "t2", instruction: "café" })}\n`)),
      /latin1\.jsonl is not UTF-8: byte 0xe9 at byte offset \d+ \(line 2\)/,
    ],
    [
      "UTF-16",
      file("utf16.jsonl", utf16(`${good}\n`)),
      /utf16\.jsonl is not UTF-8: byte 0xff at byte offset 0 \(line 1\)/,
    ],
    [
      "task id ..",
      line("dotdot.jsonl", { task_id: ".." }),
      /dotdot\.jsonl line 1: task "\.\.": task_id: "\.\." starts/,
    ],
    [
      "task id with a path",
      line("escape.jsonl", { task_id: "../../escape" }),
      /line 1: task "\.\.\/\.\.\/escape": task_id: "\.\.\/\.\.\/escape" holds "\/" \(a task id names/,
    ],
    ["task id .hidden", line("hidden.jsonl", { task_id: ".hidden" }), /task_id: "\.hidden" starts with a dot/],
    ["task id of 129 characters", line("long.jsonl", { task_id: "a".repeat(129) }), /is 129 characters long/],
    [
      "an unknown site",
      line("site.jsonl", { site: "bank" }),
      /site\.jsonl line 1: task "shop_paginate_page3": site: "bank" is not an app of the sandbox \(shop, mail, tracker, bookings\)/,
    ],
    [
      "a start URL on another host",
      line("url.jsonl", { start: { url: "https://example.com/shop/" } }),
      /url\.jsonl line 1: task "shop_paginate_page3": start\.url: "https:\/\/example\.com\/shop\/" is outside the sandbox/,
    ],
    [
      "a protocol-relative start URL",
      line("url2.jsonl", { start: { url: "//example.com/shop/" } }),
      /start\.url: "\/\/example\.com\/shop\/" names another host, outside the sandbox/,
    ],
    [
      "a macro typo",
      line("macro.jsonl", { macro: "pagniate" }),
      /macro: "pagniate" is not a macro \(did you mean "paginate"\?\)/,
    ],
    [
      "a human kind line",
      line("kind.jsonl", { kind: "human" }),
      /kind\.jsonl line 1: task "shop_paginate_page3": kind: must/,
    ],
    ["a line that is not JSON", file("json.jsonl", `${good}\n{"task_id": "x",\n`), /json\.jsonl line 2: not JSON/],
    [
      "a proposed task with a relative start_path",
      file("prop_path.jsonl", proposedLine({ start_path: "shop/" })),
      /prop_path\.jsonl line 1: task "prop_1": start_path: "shop\/" is not a path starting with "\/"/,
    ],
    [
      "a proposed task id ..",
      file("prop_id.jsonl", proposedLine({ task_id: ".." })),
      /prop_id\.jsonl line 1: task "\.\.": task_id: "\.\." starts with a dot/,
    ],
    [
      "a proposed task on an unknown site",
      file("prop_site.jsonl", proposedLine({ site: "bank" })),
      /prop_site\.jsonl line 1: task "prop_1": site: "bank" is not an app of the sandbox/,
    ],
  ];
  const all: Case[] = await Promise.all(
    cases.map(async ([name, path, message]) => ({ name, args: run(await path), message })),
  );
  // --dry-run reaches the same checks as a run.
  const dryRun = (c: Case): Case => ({ ...c, name: `${c.name} (--dry-run)`, args: (o) => [...c.args(o), "--dry-run"] });
  return [...all, dryRun(all[0]), dryRun(all.find((c) => c.name === "an unknown site")!)];
}

async function annotationCases(ws: Workspace): Promise<Case[]> {
  const ann = (name: string, files: Record<string, string | Uint8Array | null>, patch = {}) =>
    ws.annotations(`ann/${name}`, files, patch);
  const recording = (start_url: string) => JSON.stringify({ start_url, answer: null, entries: [] });
  const cases: [string, Promise<string>, RegExp][] = [
    [
      // Skipped with a warning, as the seed skips it; the folder then holds no task (with --strict: below).
      "a task folder without verifier.json",
      ann("no_verifier", { "shop/t1/verifier.json": null }),
      /no_verifier\/shop\/t1: skipped: task\.json but no verifier\.json[\s\S]*no_verifier has no human tasks/,
    ],
    [
      "a task folder without task.json",
      ann("no_task", { "shop/t2/verifier.json": "{}" }),
      /no_task\/shop\/t2: has no task\.json/,
    ],
    [
      "task.json task_id ..",
      ann("id", {}, { task_id: ".." }),
      /id\/shop\/t1\/task\.json: task_id: "\.\." starts with a dot/,
    ],
    [
      "a task folder name with a space",
      ann("spaced", { "shop/t 2/task.json": "{}", "shop/t 2/verifier.json": "{}" }),
      /spaced\/shop\/t 2: the folder name is not a task id: "t 2" holds " "/,
    ],
    [
      "task.json starting_url on another host",
      ann("start", {}, { starting_url: "https://shop.example.com/" }),
      /start\/shop\/t1\/task\.json: starting_url: "https:\/\/shop\.example\.com\/" is outside the sandbox/,
    ],
    [
      "task.json on an unknown site",
      ann("site", { "site_split.json": '{"train": ["shop", "bank"], "test": ["mail"]}' }, { site: "bank" }),
      /site\/shop\/t1\/task\.json: site: "bank" is not an app of the sandbox/,
    ],
    [
      "a cross-site task with an unknown site",
      ann("sites", { "site_split.json": '{"train": ["shop", "bank"], "test": ["mail"]}' }, { sites: ["shop", "bank"] }),
      /sites\/shop\/t1\/task\.json: sites: "bank" is not an app of the sandbox/,
    ],
    [
      "task.json on a site of no split",
      ann("nosplit", {}, { site: "shpo" }),
      /nosplit\/shop\/t1\/task\.json: site: "shpo" is in neither split of .*site_split\.json \(train: shop; test: mail\)/,
    ],
    [
      "task.json not UTF-8",
      ann("latin1", { "shop/t1/task.json": latin1('{"site": "shop", "instruction": "Cherchez un café"}') }),
      /latin1\/shop\/t1\/task\.json is not UTF-8: byte 0xe9 at byte offset \d+ \(line 1\)/,
    ],
    [
      "verifier.json with a byte order mark",
      ann("bom", { "shop/t1/verifier.json": withBom('{"macros": {}}') }),
      /bom\/shop\/t1\/verifier\.json starts with a UTF-8 byte order mark; save it without one/,
    ],
    [
      "verifier.json with a data-change check",
      ann("change", { "shop/t1/verifier.json": '{"macros": {"search": {"check": {"change": {"table": "x"}}}}}' }),
      /change\/shop\/t1\/verifier\.json: macros\.search\.check\.change: is not available in a human verifier/,
    ],
    [
      "verifier.json not JSON",
      ann("nojson", { "shop/t1/verifier.json": "{macros" }),
      /nojson\/shop\/t1\/verifier\.json: not JSON/,
    ],
    [
      "recording.json starting on another host",
      ann("rec", { "shop/t1/recording.json": recording("https://shop.example.com/") }),
      /rec\/shop\/t1\/recording\.json: start_url: "https:\/\/shop\.example\.com\/" is outside the sandbox/,
    ],
    [
      "recording.json without entries",
      ann("rec2", { "shop/t1/recording.json": '{"start_url": "/shop/"}' }),
      /rec2\/shop\/t1\/recording\.json: entries: is missing/,
    ],
    [
      "an annotations folder without tasks",
      ann("none", { "shop/t1/task.json": null, "shop/t1/verifier.json": null }),
      /none has no human tasks/,
    ],
  ];
  const out: Case[] = await Promise.all(
    cases.map(async ([name, dir, message]) => ({ name, args: human(await dir), message })),
  );
  const good = await ann("good", {});
  const noVerifier = await ann("no_verifier_strict", { "shop/t1/verifier.json": null });
  return [
    ...out,
    {
      name: "a task folder without verifier.json, --strict",
      args: human(noVerifier, "--strict"),
      message: /no_verifier_strict\/shop\/t1: has task\.json but no verifier\.json/,
    },
    {
      name: "--human-macros with a typo",
      args: human(good, "--human-macros", "serch"),
      message: /--human-macros: "serch" is not a macro \(did you mean "search"\?\)/,
    },
    {
      name: "--human-macros naming no macro of any task (run for real)",
      args: human(good, "--human-macros", "drag_and_drop"),
      message: /--human-macros "drag_and_drop": no human task in .* has one of these macros/,
    },
    {
      name: "--human-split leaving no task",
      args: (o) => human(good)(o).map((a) => a === "all" ? "test" : a),
      message: /--human-split "test": no human task in .* is on its sites/,
    },
  ];
}

async function pathCases(ws: Workspace): Promise<Case[]> {
  const denoDir = await denoCacheDir();
  const cwd = ws.path("cwd");
  await ws.file("cwd/precious.txt", "do not delete");
  const home = await ws.file("home/.profile", "x").then(() => ws.path("home"));
  const previous = ws.path("previous_run");
  await ws.file("previous_run/results.jsonl", "");
  await ws.file("previous_run/shop_1/final.png", "png");
  const notRun = ws.path("notes");
  await ws.file("notes/notes.txt", "mine");
  const file = await ws.file("a_file", "x");
  const empty = await ws.file("tasks/empty_for_overwrite.jsonl", "");
  return [
    {
      name: "--out . --overwrite deletes nothing",
      args: () => ["--arm", "noop", "--out", ".", "--overwrite"],
      cwd,
      message: /--out "\." is the current folder: name a folder of the run's own/,
      keep: cwd,
    },
    {
      name: "--out .. --overwrite",
      args: () => ["--arm", "noop", "--out", "..", "--overwrite"],
      cwd,
      message: /--out "\.\." holds the current folder/,
      keep: cwd,
    },
    {
      name: "--out the home folder --overwrite",
      args: () => ["--arm", "noop", "--out", home, "--overwrite"],
      // Deno's cache stays where it is (by default it is under the home folder).
      env: { HOME: home, DENO_DIR: denoDir },
      message: /--out ".*\/home" is the home folder/,
      keep: home,
    },
    // Without --overwrite: were the check missing, nothing would be deleted.
    {
      name: "--out the repository",
      args: () => ["--arm", "noop", "--out", ROOT, "--dry-run"],
      cwd,
      message: /--out ".*" is the repository/,
    },
    {
      name: "--out /",
      args: () => ["--arm", "noop", "--out", "/", "--dry-run"],
      message: /--out "\/" is the filesystem root/,
    },
    {
      name: "--overwrite of a folder that holds no run",
      args: () => ["--arm", "noop", "--out", notRun, "--overwrite"],
      message:
        /--overwrite: ".*\/notes" holds files but no earlier run \(no results\.jsonl, run\.json, run\.lock at its/,
      keep: notRun,
    },
    {
      name: "--out a folder of other files (run for real)",
      args: () => ["--arm", "noop", "--task-ids", "shop_paginate_page3", "--out", notRun],
      message: /--out ".*\/notes" holds files but no earlier run .*: choose a new or empty folder/,
      keep: notRun,
    },
    { name: "--out a file", args: () => ["--arm", "noop", "--out", file], message: /--out ".*\/a_file" is a file/ },
    {
      name: "--overwrite with a bad task file deletes nothing",
      args: () => ["--arm", "noop", "--tasks", empty, "--out", previous, "--overwrite"],
      message: /empty_for_overwrite\.jsonl has no tasks/,
      keep: previous,
    },
    {
      name: "--overwrite with a bad flag deletes nothing",
      args: () => ["--arm", "noop", "--out", previous, "--overwrite", "--now", "later"],
      message: /--now "later" is not an ISO/,
      keep: previous,
    },
  ];
}

function otherScriptCases(ws: Workspace): Case[] {
  return [
    {
      name: "regrade.ts --out missing",
      script: "regrade.ts",
      args: () => ["--out", ws.path("no_run")],
      message: /regrade\.ts: --out ".*\/no_run": no such folder/,
    },
    { name: 'regrade.ts --out ""', script: "regrade.ts", args: () => ["--out", ""], message: /--out "" is empty/ },
    {
      name: "regrade.ts --tasks with an empty file",
      script: "regrade.ts",
      args: () => ["--out", ws.path("previous_run"), "--tasks", ws.path("tasks/empty.jsonl")],
      message: /empty\.jsonl has no tasks/,
      keep: ws.path("previous_run"),
    },
    {
      name: "judge.ts --workers 0",
      script: "judge.ts",
      args: () => ["--out", ws.path("previous_run"), "--workers", "0"],
      message: /--workers "0" is not a whole number from 1 to 64/,
    },
    {
      name: "regrade.ts with a judge on a host deno may not reach",
      script: "regrade.ts",
      args: () => ["--out", ws.path("previous_run")],
      env: { WEBMIX_JUDGE_BASE_URL: "https://judge.example.com/v1" },
      message:
        /WEBMIX_JUDGE_BASE_URL names judge\.example\.com:443, which this process may not connect to .*\n.* regrade\.ts/,
      keep: ws.path("previous_run"),
    },
    {
      name: "judge.ts with a judge on a host deno may not reach",
      script: "judge.ts",
      args: () => ["--out", ws.path("previous_run"), "--dry-run"],
      env: { WEBMIX_JUDGE_BASE_URL: "https://judge.example.com/v1" },
      message:
        /WEBMIX_JUDGE_BASE_URL names judge\.example\.com:443, which this process may not connect to .*\n.* judge\.ts/,
      keep: ws.path("previous_run"),
    },
    {
      name: "judge.ts --out missing",
      script: "judge.ts",
      args: () => ["--out", ws.path("no_run"), "--dry-run"],
      message: /--out ".*\/no_run": no such folder/,
    },
    {
      name: "judge.ts --out without episodes",
      script: "judge.ts",
      args: () => ["--out", ws.path("notes"), "--dry-run"],
      message: /".*\/notes" holds no results\.jsonl \(expected a run's output folder\)/,
    },
  ];
}

Deno.test("every malformed input stops the entry script with exit 2, a message that says where, and no file written", async () => {
  await using ws = await Workspace.create();
  // Order matters: the path cases create the folders the other scripts' cases point at.
  const paths = await pathCases(ws);
  const cases = [
    ...await flagCases(ws),
    ...await taskFileCases(ws),
    ...await annotationCases(ws),
    ...paths,
    ...otherScriptCases(ws),
  ];
  assert.ok(cases.length >= 40, `${cases.length} cases`);
  assert.equal(new Set(cases.map((c) => c.name)).size, cases.length, "case names are unique");
  const failures = await mapLimited(cases.map((c, i) => ({ c, i })), 6, async ({ c, i }) => {
    const out = ws.path(`outs/${i}`);
    const before = c.keep ? await snapshot(c.keep) : [];
    const r = await runCli(c.script ?? "eval.ts", c.args(out), { cwd: c.cwd, env: c.env });
    const problems: string[] = [];
    if (r.code !== 2) problems.push(`exit ${r.code}, not 2`);
    if (!c.message.test(r.stderr)) problems.push(`stderr does not match ${c.message}`);
    if (r.stdout !== "") problems.push(`stdout is not empty: ${r.stdout.slice(0, 200)}`);
    if ((await snapshot(out)).length || await Deno.stat(out).then(() => true, () => false)) {
      problems.push(`${out} was written`);
    }
    if (c.keep && JSON.stringify(await snapshot(c.keep)) !== JSON.stringify(before)) {
      problems.push(`${c.keep} changed`);
    }
    return problems.length ? `${c.name}: ${problems.join("; ")}\n    stderr: ${r.stderr.trim().slice(0, 400)}` : "";
  });
  const failed = failures.filter(Boolean);
  assert.deepEqual(
    failed,
    [],
    `${failed.length} of ${cases.length} inputs were not refused as they should be:\n${failed.join("\n")}`,
  );
});
