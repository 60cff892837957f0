/**
 * lib/agent: the step loop, message building, the output schema, the action executor and history. This part: the
 * action executor (one action of the action language run on an EpisodeSession).
 */
export {
  type ActionContext,
  type ActionResult,
  executeAction,
  resolveIndex,
  resolveUrl,
  toViewport,
} from "./actions.ts";
