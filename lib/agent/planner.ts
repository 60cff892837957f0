/**
 * The agent_planner arm (docs/planner.md): a planner model plans the task and delegates each step to its family's
 * specialist, which runs the model arms' step loop (loop.ts) on the same browser session with the step as its task.
 * v1 plans once and asks the planner again only after a step that failed or hit its cap (and to finish); v2 asks it
 * after every step. Caps: `subCap` steps per delegated step, `plannerTurns` planner requests, and the episode's
 * `maxSteps` for all specialists together; the episode's --timeout covers the whole run.
 */
import { HarnessError } from "../errors/mod.ts";
import { sha256Hex } from "../io/mod.ts";
import { type ChatMessage, imagePart } from "../llm/mod.ts";
import { FAMILY_HINTS, Router, subModel, type SubModelOptions } from "../routing/mod.ts";
import {
  armFile,
  type DelegatedStep,
  HISTORY,
  PLANNER_HISTORY,
  type PlannerTurn,
  SUBTASKS,
} from "../run_folder/mod.ts";
import type { Arm, ArmContext, ArmOutcome, HistoryItem, TraceEntry } from "./arm.ts";
import { runLoop } from "./loop.ts";
import type { ContentPart } from "./messages.ts";
import { callStats, endStep, requestStep, type StepRecord, stepRequest } from "./step_record.ts";
import { type AgentSettings, loopSettings } from "./model_arm.ts";
import { parsePlannerReply, type PlannerReply, plannerResponseFormat, type PlanStep } from "./planner_schema.ts";

/** The planner versions: when the planner is asked again (docs/planner.md). */
export const PLANNER_VERSIONS = ["v1", "v2"] as const;
/** A planner version: v1 asks the planner again after a failed or capped step, v2 after every step. */
export type PlannerVersion = typeof PLANNER_VERSIONS[number];

/** The family the planner's own training rows carry. */
const PLANNER_FAMILY = "Planner";

/** The agent_planner arm: its planner model and prompt, its version and caps, and how it picks specialists. */
export interface PlannerArmOptions extends AgentSettings {
  /** Served name of the planner model. */
  plannerName: string;
  /** The planner's system prompt (prompts/planner_prompt.md), its {families} placeholder unfilled or filled. */
  plannerPrompt: string;
  /** When the planner is asked again (PLANNER_VERSIONS). */
  version: PlannerVersion;
  /** Steps one delegated step may take. */
  subCap: number;
  /** Requests the planner may make in one episode. */
  plannerTurns: number;
  /** How each family's specialist is chosen (lib/routing subModel). */
  specialists: SubModelOptions;
  /**
   * Label each step record's training row with its family (the planner's own, or the delegated step's); default
   * true. Off when the run gives every row one family (--record-family).
   */
  labelRows?: boolean;
}

/** What the planner is shown at one turn. */
interface PlannerView {
  task: string;
  startUrl: string;
  url: string;
  title: string;
  turn: number;
  turns: number;
  stepsLeft: number;
  maxSteps: number;
  subCap: number;
  plan: readonly PlanStep[];
  done: readonly DelegatedStep[];
}

/** The planner's system prompt with one line per family (the same hints the router's notes use). */
export function plannerSystemPrompt(template: string): string {
  const families = Object.entries(FAMILY_HINTS).map(([family, hint]) => `- ${family}: ${hint}`).join("\n");
  return template.replaceAll("{families}", families);
}

const count = (n: number): string => `${n} step${n === 1 ? "" : "s"}`;

const ended = (d: DelegatedStep): string => {
  if (d.end === "done") return `done${d.success === false ? " (reported failure)" : ""} after ${count(d.steps)}`;
  if (d.end === "macro_done") return `finished its part (macro_done) after ${count(d.steps)}`;
  if (d.end === "cap") return `stopped at its cap of ${count(d.cap)}`;
  return `failed after ${count(d.steps)}: its last replies were unusable or their actions failed`;
};

/** Whether a delegated step did its part (done without reporting failure, or macro_done). */
export const succeeded = (d: DelegatedStep): boolean =>
  d.end === "macro_done" || (d.end === "done" && d.success !== false);

function stepState(i: number, done: readonly DelegatedStep[]): string {
  const last = done.findLast((d) => d.plan_step === i);
  if (!last) return "not started";
  return succeeded(last) ? "done" : last.end === "cap" ? "hit its cap" : "failed";
}

/** The text of the planner's user message (the screenshot follows it as an image part). */
export function plannerText(v: PlannerView): string {
  const plan = v.plan.length
    ? v.plan.map((p, i) => `${i + 1}. [${p.family}] ${p.subtask} (${stepState(i + 1, v.done)})`).join("\n")
    : "No plan yet.";
  const outcomes = v.done.length
    ? v.done.map((d) =>
      [
        `<step_${d.index} plan_step="${d.plan_step}" family="${d.family}" model="${d.model}">`,
        `Subtask: ${d.subtask}`,
        `Ended: ${ended(d)}`,
        `Report: ${d.result ?? "(none)"}`,
        `Memory: ${d.memory || "(none)"}`,
        `Page at the end: ${d.url} - ${d.title}`,
        `</step_${d.index}>`,
      ].join("\n")
    ).join("\n")
    : "No step has run yet.";
  return [
    `<task>\n${v.task}\n</task>`,
    `<pages>\nStarted on: ${v.startUrl}\nNow on: ${v.url} - ${v.title}\n</pages>`,
    `<budget>\nPlanner turn ${v.turn} of ${v.turns}. Specialist steps left: ${v.stepsLeft} of ${v.maxSteps}; ` +
    `a delegated step may take up to ${Math.min(v.subCap, v.stepsLeft)}.\n</budget>`,
    `<plan>\n${plan}\n</plan>`,
    `<outcomes>\n${outcomes}\n</outcomes>`,
  ].join("\n");
}

/** The task a specialist is given: its step, with the whole task as context. */
function specialistTask(subtask: string, task: string): string {
  return `${subtask}\n\nThis is one step of a larger task, shown here for context only: do this step alone, then ` +
    `call done with a short report of what you did or found (the value itself when the step reads one).\n` +
    `<larger_task>\n${task}\n</larger_task>`;
}

/** The agent_planner arm. */
export function plannerArm(o: PlannerArmOptions): Arm {
  const systemPrompt = plannerSystemPrompt(o.plannerPrompt);
  const responseFormat = plannerResponseFormat();
  const settings = loopSettings(o);
  // Rows are labelled with the planner's or the specialist's family unless --record-family names one for all.
  const labelRows = o.labelRows ?? true;
  return {
    name: "agent_planner",
    async run(ctx: ArmContext): Promise<ArmOutcome> {
      const systemSha = await sha256Hex(systemPrompt);
      const startUrl = ctx.session.currentUrl();
      const turns: PlannerTurn[] = [];
      const plans: { turn: number; plan: PlanStep[] }[] = [];
      const delegated: DelegatedStep[] = [];
      const histories: HistoryItem[][] = [];
      const trace: TraceEntry[] = [];
      const errors: string[] = [];
      let plan: PlanStep[] = [];
      const stepsUsed = () => delegated.reduce((n, d) => n + d.steps, 0);
      let answer: string | null = null;
      let done = false;
      let failure: string | undefined;
      // v1's next plan step, run without asking the planner after a step that did its part.
      let next: number | undefined;

      /** One planner turn: its request, its reply (null when unusable: `failure` then says why). */
      const ask = async (): Promise<PlannerReply | null> => {
        const turn = turns.length + 1;
        const shot = `planner_${turn}`;
        const state = await ctx.observe(shot, true);
        const text = plannerText({
          task: ctx.prompt,
          startUrl,
          url: state.url,
          title: state.title,
          turn,
          turns: o.plannerTurns,
          stepsLeft: ctx.maxSteps - stepsUsed(),
          maxSteps: ctx.maxSteps,
          subCap: o.subCap,
          plan,
          done: delegated,
        });
        const content: ContentPart[] = [{ type: "text", text }];
        if (state.screenshot) content.push(imagePart(state.screenshot));
        const start = Date.now() / 1000;
        const record: StepRecord = {
          kind: "planner",
          step: stepsUsed(),
          turn,
          model: o.plannerName,
          family: PLANNER_FAMILY,
          ...(labelRows ? { row_family: PLANNER_FAMILY } : {}),
          url: state.url,
          title: state.title,
          request: stepRequest(systemSha, text, state),
          reply: null,
          parsed: null,
          actions: [],
          start,
          end: start,
        };
        const ended = (error?: string) => endStep(ctx.record, record, { system: systemPrompt }, error);
        const answer = await requestStep(
          o.client,
          {
            model: o.plannerName,
            messages: [{ role: "system", content: systemPrompt }, { role: "user", content }] as ChatMessage[],
            responseFormat,
            signal: ctx.signal,
          },
          record,
          ended,
        );
        const entry: PlannerTurn = {
          turn,
          model: o.plannerName,
          text,
          screenshot_path: `${shot}.png`,
          reply: null,
          ...callStats(answer),
        };
        turns.push(entry);
        try {
          entry.reply = parsePlannerReply(answer.text);
        } catch (err) {
          entry.raw = answer.text;
          entry.error = (err as Error).message.slice(0, 300);
          failure = `planner turn ${turn}: ${entry.error}`;
          await ended(entry.error);
          return null;
        }
        const r = entry.reply;
        record.parsed = { ...r };
        await ended();
        if (JSON.stringify(r.plan) !== JSON.stringify(plan)) plans.push({ turn, plan: r.plan });
        plan = r.plan;
        return r;
      };

      /** Runs plan step `planStep` with its family's specialist. */
      const delegate = async (planStep: number): Promise<DelegatedStep> => {
        const { family, subtask } = plan[planStep - 1];
        const model = subModel(family, o.specialists);
        const firstStep = stepsUsed() + 1;
        const cap = Math.min(o.subCap, ctx.maxSteps - firstStep + 1);
        const loop = await runLoop(ctx, settings, {
          task: specialistTask(subtask, ctx.prompt),
          router: new Router([model]),
          maxSteps: cap,
          firstStep,
          stopAtMacroDone: true,
          labels: { family, delegated: delegated.length + 1, ...(labelRows ? { rowFamily: family } : {}) },
        });
        const index = delegated.length + 1;
        // The page it ended on: the current tab now (the last step's state is the page before its actions).
        const current = (await ctx.session.tabs()).find((t) => t.id === ctx.session.tabId);
        const d: DelegatedStep = {
          index,
          plan_step: planStep,
          family,
          subtask,
          model,
          steps: loop.steps,
          first_step: firstStep,
          cap,
          end: loop.end,
          success: loop.success,
          result: loop.answer,
          memory: loop.memory,
          url: current?.url ?? ctx.session.currentUrl(),
          title: current?.title ?? "",
        };
        delegated.push(d);
        histories.push(loop.history);
        trace.push(...loop.trace.map((t) => ({ ...t, family, delegated: index })));
        errors.push(...loop.errors.map((e) => `delegated step ${index} (${family}): ${e}`));
        return d;
      };

      while (!ctx.signal.aborted) {
        let planStep = next;
        next = undefined;
        if (planStep === undefined) {
          if (turns.length >= o.plannerTurns) {
            errors.push(`planner: its ${o.plannerTurns} turns (--planner-turns) ran out before it finished`);
            break;
          }
          const reply = await ask();
          if (!reply) break;
          if (reply.next === "finish") {
            answer = reply.answer;
            done = true;
            break;
          }
          planStep = reply.step;
        }
        if (stepsUsed() >= ctx.maxSteps) {
          errors.push(`planner: the episode's ${ctx.maxSteps} steps (--max-steps) are used up`);
          break;
        }
        const d = await delegate(planStep);
        if (o.version === "v1" && succeeded(d) && planStep < plan.length) next = planStep + 1;
      }
      if (ctx.signal.aborted) throw ctx.signal.reason ?? new HarnessError("episode aborted");

      const files = [
        armFile("planner_history.json", PLANNER_HISTORY, { version: o.version, model: o.plannerName, turns }),
        armFile("subtasks.json", SUBTASKS, { trace: delegated, plans }),
        ...histories.map((history, i) => armFile(`history_${i}.json`, HISTORY, { history })),
      ];
      return {
        answer,
        done,
        steps: stepsUsed(),
        history: histories.flat(),
        trace,
        errors: failure ? [failure, ...errors] : errors,
        ...(failure ? { failure } : {}),
        files,
        fields: {
          subtasks: delegated.map((d) => [d.family, d.subtask, d.steps]),
          models: delegated.map((d) => d.model),
          // Some planner turn or specialist reply was decoded under the stripped schema an old vLLM server needs.
          ...(turns.some((t) => t.schema_fallback) || histories.flat().some((h) => h.metadata.schema_fallback)
            ? { schema_fallback: true }
            : {}),
        },
      };
    },
  };
}
