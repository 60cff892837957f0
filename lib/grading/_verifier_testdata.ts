/**
 * Fixtures of the human-verifier tests (lib/grading/verifier_test.ts and, over HTTP, tests/human_verifier_test.ts):
 * a task with one check (a search request) and one free-text answer, the trajectories that do and do not search,
 * and a judge that records its questions.
 */
import { humanTrajectory } from "./trajectory.ts";
import type { AnswerJudge, AnswerQuestion, VerifiedTask } from "./verifier.ts";
import type { AnswerSpec } from "../protocol/mod.ts";

/** An answer spec with the LLM tier on. */
export const spec = (s: Partial<AnswerSpec>): AnswerSpec => ({ expected: "x", llm: true, ...s });

/** A task with one check (a search request) and one free-text answer. */
export function searchTask(
  answer: AnswerSpec = spec({ expected: "The stand only tilts; it does not swivel." }),
): VerifiedTask {
  return {
    macros: ["search", "answer_question"],
    instruction: "What limitation of the stand does a reviewer mention?",
    verifier: {
      macros: {
        search: { check: { visited: { regex: "^/shop/products\\?q=monitor" } } },
        answer_question: { answer },
      },
    },
  };
}

const startPage = { seq: 1, type: "observation", kind: "page_load", url: "http://h/shop/", t: 1 };

/** The search request as the session log has it. */
export const searchRequest = {
  seq: 2,
  time: new Date(5).toISOString(),
  method: "GET",
  path: "/shop/products",
  query: { q: "monitor" },
  body: null,
  status: 200,
};

/** A session that searched; one that only loaded the start page. */
export const searched = humanTrajectory([startPage], [searchRequest]);
export const idle = humanTrajectory([startPage], []);

/** The recorder stream of `searched` (the start page). */
export const searchedRecord = [startPage];

/** A judge that records its questions and answers as told. */
export function fakeJudge(verdict: boolean | Error): AnswerJudge & { asked: AnswerQuestion[] } {
  const asked: AnswerQuestion[] = [];
  return {
    asked,
    judgeAnswer(q) {
      asked.push(q);
      return verdict instanceof Error ? Promise.reject(verdict) : Promise.resolve({ ok: verdict, reason: "because" });
    },
  };
}
