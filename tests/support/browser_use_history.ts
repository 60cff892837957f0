/**
 * browser-use's AgentHistoryList as its loader validates it (`AgentHistoryList.load_from_file`, browser_use 0.7+:
 * agent/views.py AgentHistory, AgentOutput, ActionResult, StepMetadata; browser/views.py BrowserStateHistory,
 * TabInfo; dom/views.py DOMInteractedElement), transcribed to zod: the pydantic models that forbid extra fields
 * are strict here too, and required-but-nullable fields must be present. Actions are checked as browser-use's
 * ActionModel union is (one action name per object), not against its own action registry: this suite's action
 * language differs there (docs/output-layout.md).
 */
import { z } from "zod";

const tabInfo = z.strictObject({
  url: z.string(),
  title: z.string(),
  tab_id: z.string(),
  parent_tab_id: z.string().nullable().optional(),
});

const domRect = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

const interactedElement = z.object({
  node_id: z.number().int(),
  backend_node_id: z.number().int(),
  frame_id: z.string().nullable(),
  // NodeType is an IntEnum: 1 is an element node.
  node_type: z.literal(1),
  node_value: z.string(),
  node_name: z.string(),
  attributes: z.record(z.string(), z.string()).nullable(),
  bounds: domRect.nullable(),
  x_path: z.string(),
  element_hash: z.number().int(),
});

const actionModel = z.record(z.string(), z.unknown()).refine((a) => Object.keys(a).length === 1, {
  message: "an action names exactly one action",
});

const agentOutput = z.strictObject({
  thinking: z.string().nullable().optional(),
  evaluation_previous_goal: z.string().nullable(),
  memory: z.string().nullable(),
  next_goal: z.string().nullable(),
  current_plan_item: z.number().int().nullable().optional(),
  plan_update: z.array(z.string()).nullable().optional(),
  action: z.array(actionModel),
});

const actionResult = z.object({
  is_done: z.boolean().nullable().optional(),
  success: z.boolean().nullable().optional(),
  error: z.string().nullable().optional(),
  extracted_content: z.string().nullable().optional(),
  long_term_memory: z.string().nullable().optional(),
  include_in_memory: z.boolean().optional(),
}).refine((r) => r.success !== true || r.is_done === true, {
  message: "success=True can only be set when is_done=True",
});

const stepMetadata = z.object({
  step_start_time: z.number(),
  step_end_time: z.number(),
  step_number: z.number().int(),
  step_interval: z.number().nullable(),
});

const agentHistory = z.object({
  model_output: agentOutput.nullable(),
  result: z.array(actionResult),
  state: z.object({
    url: z.string(),
    title: z.string(),
    tabs: z.array(tabInfo),
    interacted_element: z.array(interactedElement.nullable()),
    screenshot_path: z.string().nullable().optional(),
  }),
  metadata: stepMetadata.nullable().optional(),
});

/** browser-use's AgentHistoryList. */
export const browserUseHistory: z.ZodType = z.object({ history: z.array(agentHistory) });

/**
 * Throws, naming the step and field, when `value` (a parsed history.json) is not what browser-use's loader reads.
 */
export function assertBrowserUseHistory(value: unknown, file: string): void {
  const parsed = browserUseHistory.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`${file} is not browser-use's AgentHistoryList:\n${issues}`);
  }
}
