/**
 * Reason codes: every failing grade names one (docs/grading.md, "Reason codes"), beside its prose `detail`. A code
 * says which rule rejected the episode, so that reports count failures by cause and a near miss can assert the rule
 * that caught it rather than the wording of its detail.
 */

/** Each reason code and what it means (the order docs/grading.md lists them in). */
export const REASONS = {
  unclaimed_write: "a row or field changed that no condition of the task accounts for",
  irreversible_extra: "an irreversible act (a sent message, a placed order, a booking) the task did not ask for, " +
    "or more of them than it asked",
  field_mismatch: "the change the task asks for was not made, or not with the asked values",
  request_missing: "the request the task asks for (a download, a sent form) was not made as asked",
  method_missing: "the method the instruction names (a control, a menu, a drag) was not used",
  method_unbound: "the named control was used, but its use did not produce the outcome",
  clipboard_mismatch: "the clipboard does not hold the asked text at the end",
  not_visited: "a page the task asks the agent to pass through was not visited",
  final_page: "the episode did not end on the asked page (path and whole query)",
  login_state: "signed in or out at the end against what the task asks",
  answer_missing: "the episode did not end with an answer",
  answer_wrong: "the answer states a wrong value, or picks a rival candidate",
  answer_unaccounted: "the answer says more than the rules can account for (a hedge, a qualifier, an extra " +
    "claim): the judge decides, or the grade is pending",
  text_unaccounted: "human task: a field the author declared free text says what no macro accounts for in full: " +
    "the judge decides, or the grade is pending",
  not_seen: "the answer's value was not shown on any screen the agent saw (or not on the page that shows it)",
  forbidden: "something the task says must not happen happened",
  binding: "human task: the macros' conditions on one endpoint are satisfied by different requests",
  duplicate: "human task: one macro's request was made (and wrote data) more than once",
  reverted: "human task: a write a macro asked for was undone by the end",
  overwritten: "human task: a write a macro asked for was changed again by a write no macro claims",
  judge_rejected: "the LLM tier judged the answer wrong",
} as const;

/** A reason code (REASONS' keys). */
export type ReasonCode = keyof typeof REASONS;

/** The reason codes, in REASONS' order. */
export const REASON_CODES: readonly ReasonCode[] = Object.keys(REASONS) as ReasonCode[];
