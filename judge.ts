/**
 * judge.ts: run the macro judge over a run's saved episodes. For every <out>/<episode>/ with a grade_inputs.json
 * (datagen, human or proposed episodes), the judge reads the task, the backend's evidence (requests, data changes,
 * clipboard, the page recorder's actions and page loads) and final.png, never the agent's own claim of success,
 * and writes its verdict beside them as <episode>/judge.json.
 *
 * The endpoint is any OpenAI-compatible server, from the environment: WEBMIX_JUDGE_BASE_URL (required),
 * WEBMIX_JUDGE_API_KEY (default "EMPTY"), WEBMIX_JUDGE_MODEL (default gemini-3.5-flash-lite). Temperature 0.
 *
 * Modes: a judge run (default; episodes with a judge.json are skipped unless --overwrite); --dry-run (print the
 * resolved options and the episodes to judge, call nothing). Exit codes: 0 every episode judged or skipped;
 * 1 an episode could not be judged (the endpoint failed, a malformed reply; the others are written) or the harness
 * failed; 2 a usage error (a bad flag, no --out, no WEBMIX_JUDGE_BASE_URL); 130 interrupted.
 */
import { describeError, UsageError } from "./lib/errors/mod.ts";
import { chooseEpisodes, judgeRun, savedEpisodes } from "./lib/judge/mod.ts";
import { DEFAULT_JUDGE_MODEL, judgeEndpointFromEnv, judgeToReach, OpenAiJudge } from "./lib/llm/mod.ts";
import {
  checkFolderFlag,
  checkNetAccess,
  checkOutputPath,
  listFlag,
  numberFlag,
  parseFlags,
  textFlag,
} from "./lib/io/mod.ts";

const USAGE = `Usage: deno task judge --out DIR [options]

Runs the macro judge over the saved episodes of a run and writes <episode>/judge.json beside each.

Options:
  --out DIR          the run's output folder (required)
  --episodes A,B     only these episodes (folder names)
  --overwrite        judge again episodes that already have a judge.json
  --workers N        episodes judged at once (default 4)
  --dry-run          print the resolved options and the episodes to judge, call nothing
  -h, --help         this text

Environment:
  WEBMIX_JUDGE_BASE_URL   the OpenAI-compatible endpoint (required), e.g. http://127.0.0.1:8400/v1
  WEBMIX_JUDGE_API_KEY    its key (default "EMPTY")
  WEBMIX_JUDGE_MODEL      the model (else the seed's VERIFIER_JUDGE_MODEL; default ${DEFAULT_JUDGE_MODEL})

Examples:
  WEBMIX_JUDGE_BASE_URL=http://127.0.0.1:8400/v1 deno task judge --out out/human-base
  deno task judge --out out/proposed --episodes shop_p1,mail_p2 --overwrite
`;

const OPTIONS = {
  out: { type: "string" },
  episodes: { type: "string" },
  overwrite: { type: "boolean" },
  workers: { type: "string" },
  "dry-run": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

async function main(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, OPTIONS);
  if (flags.help) {
    console.log(USAGE);
    return 0;
  }
  if (flags.out === undefined) throw new UsageError("--out DIR is required");
  const out = textFlag(flags, "out", "a run's output folder")!;
  const workers = numberFlag(flags, "workers", { whole: true, min: 1, max: 64 }) ?? 4;
  const episodes = listFlag(flags, "episodes");
  await checkNetAccess(judgeToReach(Deno.env.toObject()), "judge.ts", "--allow-read --allow-write --allow-env");
  await checkFolderFlag("out", out);
  // The verdicts go beside the episodes: a folder that takes no file is refused before any model call.
  if (!flags["dry-run"]) await checkOutputPath("--out", out, "folder");
  const all = await savedEpisodes(out);
  if (all.length === 0) throw new UsageError(`--out "${out}" holds no episode folder with a grade_inputs.json`);
  const chosen = chooseEpisodes(all, episodes, out);
  const endpoint = judgeEndpointFromEnv(Deno.env.toObject());
  if (flags["dry-run"]) {
    console.log(
      JSON.stringify({ out, endpoint: endpoint && { ...endpoint, apiKey: "***" }, workers, episodes: chosen }),
    );
    return 0;
  }
  if (!endpoint) throw new UsageError("WEBMIX_JUDGE_BASE_URL is not set: name the judge's OpenAI-compatible endpoint");
  const judge = await OpenAiJudge.create(endpoint);
  const interrupt = new AbortController();
  const onSignal = () => interrupt.abort();
  Deno.addSignalListener("SIGINT", onSignal);
  try {
    const summary = await judgeRun({
      out,
      judge,
      model: endpoint.model,
      episodes,
      overwrite: Boolean(flags.overwrite),
      workers,
      signal: interrupt.signal,
    });
    console.error(
      `judged ${summary.judged} (${summary.passed} accomplished), skipped ${summary.skipped}, ` +
        `failed ${summary.failed.length}`,
    );
    if (interrupt.signal.aborted) return 130;
    return summary.failed.length ? 1 : 0;
  } finally {
    Deno.removeSignalListener("SIGINT", onSignal);
  }
}

if (import.meta.main) {
  let code: number;
  try {
    code = await main(Deno.args);
  } catch (err) {
    const usage = err instanceof UsageError;
    console.error(usage ? `${(err as Error).message}\n\n${USAGE}` : describeError(err));
    code = usage ? 2 : 1;
  }
  Deno.exit(code);
}
