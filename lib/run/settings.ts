/**
 * What a run's settings are checked against and default to, below the configuration (config.ts) and the arm
 * registry (arms.ts) that both build their schemas from it: the suite's bundled files, the numeric limits, and the
 * zod checks whose messages say what the value is not (`is not a whole number from 1 to 256`). Such a message
 * follows the setting and the value given, as the library (`workers 0`) or eval.ts (`--workers "0"`) names them.
 */
import { z } from "zod";
import { describeRange, inRange, isHttpUrl, isIsoInstant, type NumberRange, suiteFile } from "../io/mod.ts";
import { DEFAULT_NOW } from "../sites/mod.ts";
import { ADAPTER_OF_FAMILY } from "../protocol/mod.ts";

/** Where the bundled data lives (resolved from the suite, not the current folder). */
export const BUNDLED: Readonly<Record<"tasks" | "annotations" | "systemPrompt" | "uploads", string>> = {
  tasks: suiteFile("fixtures/tasks.jsonl"),
  annotations: suiteFile("fixtures/annotations"),
  systemPrompt: suiteFile("prompts/system_prompt.md"),
  uploads: suiteFile("fixtures/uploads"),
};

/** The served name of the base model when none is given (the planner's default too). */
export const BASE_MODEL = "qwen35-4b";

/** The step cap when none is given; `--max-steps 0` means it too, as in the seed (harness.MAX_STEPS). */
export const DEFAULT_MAX_STEPS = 40;

/**
 * The viewport every episode's browser uses (CSS pixels). The runner passes it to each episode and the system
 * prompt names it, so that what the model is told about pixel coordinates is what the browser has.
 */
export const EPISODE_VIEWPORT: Readonly<{ width: number; height: number }> = { width: 1280, height: 720 };

/** The adapter names the oracle arm can route to (docs/tasks.md, "Macros and families"). */
export const ADAPTER_NAMES: readonly string[] = [...new Set(Object.values(ADAPTER_OF_FAMILY))];

/** The numeric settings of the run and the model arms (an arm's own are in its settings block, arms.ts). */
type LimitName =
  | "workers"
  | "workersPerBrowser"
  | "repeats"
  | "limit"
  | "timeoutS"
  | "maxSteps"
  | "temperature"
  | "maxTokens"
  | "modelTimeoutS"
  | "browserPingTimeoutS"
  | "maxActions";

/** The values of every numeric setting. Timeouts stop at a day: a timer of more than 2^31 ms would fire at once. */
export const LIMITS: Readonly<Record<LimitName, NumberRange>> = {
  workers: { whole: true, min: 1, max: 256 },
  workersPerBrowser: { whole: true, min: 1, max: 64 },
  repeats: { whole: true, min: 1, max: 10_000 },
  limit: { whole: true, min: 0, max: 1_000_000 },
  timeoutS: { whole: true, min: 1, max: 86_400 },
  // 0: DEFAULT_MAX_STEPS (the seed's --max-steps default).
  maxSteps: { whole: true, min: 0, max: 10_000 },
  temperature: { min: 0 },
  maxTokens: { whole: true, min: 1, max: 10_000_000 },
  modelTimeoutS: { min: 0, above: true, max: 86_400 },
  browserPingTimeoutS: { min: 0, above: true, max: 3600 },
  maxActions: { whole: true, min: 1, max: 20 },
};

/** Marks an issue as a check of the value: its message follows the setting and the value given. */
export const VALUE_CHECK = { value: true } as const;

/** A check of the value with its message. */
const checked = { params: VALUE_CHECK };

/** A number in `range`: `is not a whole number from 1 to 256` (NaN, eval.ts's reading of "0x10", is not either). */
export const ranged = (range: NumberRange): z.ZodType<number> =>
  z.custom<number>((v) => typeof v === "number" && inRange(v, range), {
    message: `is not ${describeRange(range)}`,
    ...checked,
  });

/** A number in LIMITS[name]. */
export const limited = (name: LimitName): z.ZodType<number> => ranged(LIMITS[name]);

/** A string that says something: `is empty: expected a served model name`. */
export const text = (expected: string): z.ZodType<string> =>
  z.string().refine((s) => s.trim() !== "", { message: `is empty: expected ${expected}`, ...checked });

/** One of `choices`: `is not one of: v1, v2`. */
export const oneOf = <C extends string>(choices: readonly C[]): z.ZodType<C> =>
  z.custom<C>((v) => (choices as readonly unknown[]).includes(v), {
    message: `is not one of: ${choices.join(", ")}`,
    ...checked,
  });

/** An http(s) URL: `is not an http(s) URL (e.g. http://127.0.0.1:8400/v1)`. */
export const httpUrl = (example: string): z.ZodType<string> =>
  z.string().refine(isHttpUrl, { message: `is not an http(s) URL (e.g. ${example})`, ...checked });

/** An ISO 8601 day or instant with its zone (lib/io isIsoInstant). */
export const instant: z.ZodType<string> = z.string().refine(isIsoInstant, {
  message: `is not an ISO day or instant with its zone (e.g. ${DEFAULT_NOW})`,
  ...checked,
});

/** A list that names something: `names nothing`. */
export const someOf = <T>(item: z.ZodType<T>): z.ZodType<T[]> =>
  z.array(item).refine((a) => a.length > 0, { message: "names nothing", ...checked });
