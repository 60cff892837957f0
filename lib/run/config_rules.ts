/**
 * The rules between a run's settings, checked on what the caller gave (a default is no choice, so `human` given
 * false and `humanSplit` left to its default break no rule): settings that contradict each other, that need another,
 * or that belong to another arm (an arm's own settings block given with another arm would be ignored, so it is
 * refused). Each problem names the settings as {0}, {1}, … for the front end to word (config_problems.ts).
 */
import { ARMS, findArm } from "./arms.ts";
import { type ConfigProblem, valueAt } from "./config_problems.ts";

const rule = (message: string, ...settings: string[]): ConfigProblem => ({
  path: settings[0].split("."),
  input: undefined,
  kind: "rule",
  message,
  settings,
});
const given = (c: unknown, path: string) => valueAt(c, path.split(".")) !== undefined;
const on = (c: unknown, path: string) => valueAt(c, path.split(".")) === true;

/** The rules between settings, on what the caller gave: each its problem, or none. */
const RULES: ((c: unknown) => ConfigProblem | undefined)[] = [
  (c) =>
    ["tasks.humanSplit", "tasks.humanMacros", "tasks.annotations"].some((p) => given(c, p)) && !on(c, "tasks.human")
      ? rule(
        "{0}, {1} and {2} go with {3}",
        "tasks.humanSplit",
        "tasks.humanMacros",
        "tasks.annotations",
        "tasks.human",
      )
      : undefined,
  (c) =>
    given(c, "tasks.siteSplit") && !on(c, "tasks.human")
      ? rule("{0} goes with {1}", "tasks.siteSplit", "tasks.human")
      : undefined,
  (c) =>
    on(c, "tasks.human") && given(c, "tasks.split")
      ? rule(
        "{0} selects a generated set's instances; with {1}, {2} says which tasks",
        "tasks.split",
        "tasks.human",
        "tasks.humanSplit",
      )
      : undefined,
  (c) =>
    on(c, "tasks.human") && given(c, "tasks.file")
      ? rule("{0} and {1} exclude each other: {1} reads the annotations folder", "tasks.file", "tasks.human")
      : undefined,
  (c) =>
    on(c, "resume") && on(c, "overwrite") ? rule("{0} and {1} exclude each other", "resume", "overwrite") : undefined,
  (c) => on(c, "forceResume") && !on(c, "resume") ? rule("{0} goes with {1}", "forceResume", "resume") : undefined,
  (c) => on(c, "retryTimeouts") && !on(c, "resume") ? rule("{0} goes with {1}", "retryTimeouts", "resume") : undefined,
  blockRule,
];

/** An arm's own settings block given with another arm: it would be ignored, so it is refused. */
function blockRule(c: unknown): ConfigProblem | undefined {
  const arm = findArm(valueAt(c, ["arm"]));
  if (!arm) return undefined; // the arm's own problem is reported
  for (const owner of ARMS) {
    const key = owner.settings?.key;
    const block = key && owner !== arm ? valueAt(c, [key]) : undefined;
    if (block === undefined || block === null) continue;
    const first = Object.keys(block).find((k) => valueAt(block, [k]) !== undefined);
    return rule(`{0} goes with {1} ${owner.name} (the arm is ${arm.name})`, first ? `${key}.${first}` : key!, "arm");
  }
}

/** The problems of `input` under the rules between settings, in the rules' order. */
export function ruleProblems(input: unknown): ConfigProblem[] {
  return RULES.flatMap((check) => check(input) ?? []);
}
