/**
 * The LLM judges over any OpenAI-compatible endpoint: the answer judge (the last tier of a human verifier's QA
 * chain) and the macro judge (was each macro of a task accomplished, from the backend's evidence and the final
 * screen). Temperature 0, a JSON-schema reply, prompts from prompts/qa_judge.md and prompts/macro_judge.md.
 */
import { z } from "zod";
import { ModelReplyError } from "../errors/mod.ts";
import type { AnswerJudge, AnswerQuestion, JudgeVerdict } from "../grading/mod.ts";
import { type ChatMessage, imagePart, OpenAiModelClient } from "./client.ts";

/** The model the judges use unless told otherwise (the seed's QA_MODEL). */
export const DEFAULT_JUDGE_MODEL = "gemini-3.5-flash-lite";

/**
 * What the macro judge sees of an episode: the task, and what the backend recorded. Never the agent's own claim of
 * success (its done flag, thoughts or memory): only the answer, and only for a task that asks for one.
 */
export interface EpisodeJudgeInput {
  /** The task's instruction, as the agent read it. */
  instruction: string;
  /** The macros to judge, each with the subtask it stands for when the task names one. */
  macros: { macro: string; subtask?: string | null }[];
  /** What the backend and the recorder saw of the episode. */
  evidence: {
    /** Requests of the session, one line each (`POST /shop/cart {"qty":"1"} -> 303`). */
    requests: string[];
    /** Data changes, one line each. */
    changes: string[];
    clipboard: string[];
    /** What the recorder saw the user do (`click button#add-to-cart "Add to cart"`) and pages load. */
    actions: string[];
    /** The visible text of the final screen. */
    finalText?: string;
  };
  /** The agent's answer; set only for a task whose macros include a question. */
  answer?: string;
  /** The final screen (final.png). */
  screenshot?: Uint8Array;
}

/** The macro judge's verdict: per macro, and overall (ok only when every macro was accomplished). */
export interface EpisodeVerdict extends JudgeVerdict {
  /** One verdict per macro of the input, in its order. */
  macros: { macro: string; ok: boolean; reason: string }[];
}

/** The macro judge. */
export interface EpisodeJudge {
  /** Whether each macro of the task was accomplished, from the evidence and the final screen. */
  judgeEpisode(input: EpisodeJudgeInput, options?: { signal?: AbortSignal }): Promise<EpisodeVerdict>;
}

/** The system prompts of the two judges. */
export interface JudgePrompts {
  /** The answer judge's (prompts/qa_judge.md). */
  qa: string;
  /** The macro judge's (prompts/macro_judge.md). */
  macro: string;
}

/** Where a judge endpoint is: from the environment (WEBMIX_JUDGE_BASE_URL, _API_KEY, _MODEL) or flags. */
export interface JudgeEndpoint {
  /** The server's OpenAI base URL. */
  baseURL: string;
  /** Sent as the bearer token ("EMPTY" for a vLLM server without --api-key). */
  apiKey: string;
  /** The model the judges ask. */
  model: string;
}

/**
 * The judge endpoint named by an environment (`Deno.env.toObject()`), or undefined when WEBMIX_JUDGE_BASE_URL is
 * unset or empty. The key defaults to "EMPTY" (vLLM); the model is WEBMIX_JUDGE_MODEL, else the seed's
 * VERIFIER_JUDGE_MODEL (so a seed job script's environment keeps its judge), else DEFAULT_JUDGE_MODEL.
 */
export function judgeEndpointFromEnv(env: Readonly<Record<string, string | undefined>>): JudgeEndpoint | undefined {
  const baseURL = env.WEBMIX_JUDGE_BASE_URL?.trim();
  if (!baseURL) return undefined;
  return {
    baseURL,
    apiKey: env.WEBMIX_JUDGE_API_KEY?.trim() || "EMPTY",
    model: env.WEBMIX_JUDGE_MODEL?.trim() || env.VERIFIER_JUDGE_MODEL?.trim() || DEFAULT_JUDGE_MODEL,
  };
}

/** The judge server an environment names, as a server to reach (`[]` without one), for the scripts' permission check. */
export function judgeToReach(env: Readonly<Record<string, string | undefined>>): { what: string; url: string }[] {
  const url = judgeEndpointFromEnv(env)?.baseURL;
  return url === undefined ? [] : [{ what: "WEBMIX_JUDGE_BASE_URL", url }];
}

const PROMPTS_DIR = new URL("../../prompts/", import.meta.url);

/** Reads prompts/qa_judge.md and prompts/macro_judge.md (or those of `dir`). */
export async function loadJudgePrompts(dir: URL | string = PROMPTS_DIR): Promise<JudgePrompts> {
  const at = (name: string) => typeof dir === "string" ? `${dir.replace(/\/+$/, "")}/${name}` : new URL(name, dir);
  const [qa, macro] = await Promise.all([
    Deno.readTextFile(at("qa_judge.md")),
    Deno.readTextFile(at("macro_judge.md")),
  ]);
  return { qa: qa.trim(), macro: macro.trim() };
}

const qaReply = z.object({ verdict: z.enum(["correct", "incorrect"]), reason: z.string() });
const macroReply = z.object({
  macros: z.array(z.object({ macro: z.string(), accomplished: z.boolean(), reason: z.string() })),
  success: z.boolean(),
  reason: z.string(),
});

const QA_FORMAT = {
  type: "json_schema" as const,
  json_schema: {
    name: "answer_verdict",
    strict: true,
    schema: {
      type: "object",
      properties: { verdict: { type: "string", enum: ["correct", "incorrect"] }, reason: { type: "string" } },
      required: ["verdict", "reason"],
      additionalProperties: false,
    },
  },
};

const MACRO_FORMAT = {
  type: "json_schema" as const,
  json_schema: {
    name: "macro_verdict",
    strict: true,
    schema: {
      type: "object",
      properties: {
        macros: {
          type: "array",
          items: {
            type: "object",
            properties: { macro: { type: "string" }, accomplished: { type: "boolean" }, reason: { type: "string" } },
            required: ["macro", "accomplished", "reason"],
            additionalProperties: false,
          },
        },
        success: { type: "boolean" },
        reason: { type: "string" },
      },
      required: ["macros", "success", "reason"],
      additionalProperties: false,
    },
  },
};

/** The JSON object of a reply: alone, in a ``` fence, or after a `<think>` block. */
function replyJson(text: string, what: string): unknown {
  const after = text.includes("</think>") ? text.slice(text.lastIndexOf("</think>") + 8) : text;
  const fence = after.match(/```[A-Za-z]*\s*([\s\S]*?)```/);
  for (const candidate of [after.trim(), fence?.[1].trim() ?? ""]) {
    if (!candidate.startsWith("{")) continue;
    try {
      return JSON.parse(candidate);
    } catch {
      // the next candidate
    }
  }
  const preview = JSON.stringify(text.length > 120 ? `${text.slice(0, 120)}…` : text);
  throw new ModelReplyError(`${what} reply holds no JSON object: ${preview}`, 200, false, text);
}

function parseReply<T>(schema: z.ZodType<T>, text: string, what: string): T {
  const r = schema.safeParse(replyJson(text, what));
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  throw new ModelReplyError(
    `${what} reply is not a verdict (${issue.path.join(".") || "(root)"}: ${issue.message}): ${text.slice(0, 120)}`,
    200,
    false,
    text,
  );
}

const section = (title: string, lines: readonly string[], empty = "(none)") =>
  `## ${title}\n${lines.length ? lines.join("\n") : empty}`;

/** The judges over an OpenAiModelClient: one request per judgement, temperature 0. */
export class OpenAiJudge implements AnswerJudge, EpisodeJudge {
  /** Judges asking `model` through `client`, with `prompts` as system prompts and `maxTokens` as reply budget. */
  constructor(
    readonly client: OpenAiModelClient,
    readonly model: string,
    readonly prompts: JudgePrompts,
    readonly maxTokens = 1024,
  ) {}

  /** A judge on an endpoint, with the prompts of prompts/ unless given. */
  static async create(
    endpoint: JudgeEndpoint,
    options: { prompts?: JudgePrompts; timeoutMs?: number; maxRetries?: number; maxTokens?: number } = {},
  ): Promise<OpenAiJudge> {
    const client = new OpenAiModelClient({
      baseURL: endpoint.baseURL,
      apiKey: endpoint.apiKey,
      temperature: 0,
      timeoutMs: options.timeoutMs ?? 60_000,
      maxRetries: options.maxRetries ?? 3,
    });
    return new OpenAiJudge(client, endpoint.model, options.prompts ?? await loadJudgePrompts(), options.maxTokens);
  }

  /**
   * Whether a free-text answer says what the reference says.
   * @throws {ModelReplyError} the endpoint failed, or its reply is not a verdict
   */
  async judgeAnswer(q: AnswerQuestion, options: { signal?: AbortSignal } = {}): Promise<JudgeVerdict> {
    const user = [
      section("Question", [q.question]),
      section("Reference answer", [q.expected]),
      ...(q.rubric ? [section("Grading notes", [q.rubric])] : []),
      section("Candidate answer", [q.answer], "(empty)"),
    ].join("\n\n");
    const reply = await this.client.chat({
      model: this.model,
      messages: [{ role: "system", content: this.prompts.qa }, { role: "user", content: user }],
      responseFormat: QA_FORMAT,
      temperature: 0,
      maxTokens: this.maxTokens,
      signal: options.signal,
    });
    const v = parseReply(qaReply, reply.text, "answer judge");
    return { ok: v.verdict === "correct", reason: v.reason };
  }

  /**
   * Whether each macro of the task was accomplished, from the evidence and the final screen.
   * @throws {ModelReplyError} the endpoint failed, or its reply is not a verdict for every macro
   */
  async judgeEpisode(input: EpisodeJudgeInput, options: { signal?: AbortSignal } = {}): Promise<EpisodeVerdict> {
    const reply = await this.client.chat({
      model: this.model,
      messages: [{ role: "system", content: this.prompts.macro }, episodeMessage(input)],
      responseFormat: MACRO_FORMAT,
      temperature: 0,
      maxTokens: this.maxTokens,
      signal: options.signal,
    });
    const v = parseReply(macroReply, reply.text, "macro judge");
    const macros = input.macros.map(({ macro }) => {
      const hit = v.macros.find((m) => m.macro === macro);
      if (!hit) {
        throw new ModelReplyError(`macro judge reply has no verdict for "${macro}"`, 200, false, reply.text);
      }
      return { macro, ok: hit.accomplished, reason: hit.reason };
    });
    return { ok: v.success && macros.every((m) => m.ok), reason: v.reason, macros };
  }
}

/** The macro judge's user message: the task, its macros, the evidence and the final screen. */
function episodeMessage(input: EpisodeJudgeInput): ChatMessage {
  const e = input.evidence;
  const text = [
    section("Task", [input.instruction]),
    section("Macros to judge", input.macros.map((m) => `- ${m.macro}${m.subtask ? `: ${m.subtask}` : ""}`)),
    section("Requests the browser sent (method path body -> status)", e.requests),
    section("Data changes on the server", e.changes),
    section("Clipboard writes", e.clipboard),
    section("What the recorder saw in the page (actions and page loads)", e.actions),
    ...(e.finalText !== undefined ? [section("Text of the final screen", [e.finalText], "(empty)")] : []),
    ...(input.answer !== undefined ? [section("The agent's answer to the question", [input.answer], "(empty)")] : []),
  ].join("\n\n");
  if (!input.screenshot) return { role: "user", content: text };
  return {
    role: "user",
    content: [
      { type: "text", text },
      imagePart(input.screenshot),
    ],
  };
}
