/** The error an agent-level mistake raises inside lib/browser; the executor turns it into `{ok: false, error}`. */
import { HarnessError } from "../errors/mod.ts";

/**
 * An action that cannot be done on the page as it is: no element at that index, a selector matching nothing, a
 * blocked URL, an unknown tab. The episode goes on; anything else a session method throws is a harness failure.
 */
export class ActionError extends HarnessError {}
