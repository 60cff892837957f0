/**
 * authenticate_by_form: the sandbox's sign-in form (lib/sites/portal.ts: `#login-form`, its `#username` and
 * `#password`) filled and submitted, alone or as the prefix of a chain. What it must leave, wherever it sits and under
 * both styles: the session signed in at the end. Its `reached` (a prefix's evidence under both styles) is the
 * sign-in itself: the form's POST with the username, answered with the redirect to the signed-in page. Its method
 * evidence: the username typed into the form's box and the form submitted (its button, or Enter). Its attacks: the form
 * filled and left unsubmitted (`unfinished`: the agent stops there, the app's pages stay behind the form, so the
 * final page is the form's); a typed URL cannot sign in (the form posts). Its alternative: Enter in
 * the password box for the button. Signing out after is an outcome near miss every template shares (`signedOutAfter`).
 */
import type { ReasonCode } from "../../protocol/mod.ts";
import { DEFAULT_USER } from "../../sites/mod.ts";
import type { ActionJson, ConditionJson, NearMiss } from "../template.ts";
import type { Segment } from "./macro.ts";
import { targetOf } from "./search.ts";

/** The sign-in form every app's pages lead to (lib/sites/portal.ts), and the top bar's Sign in / Sign out controls. */
export const SIGN_IN = {
  /** The top bar's Sign in link (shown signed out). */
  link: ".topbar .account a[href='/login']",
  username: "#username",
  password: "#password",
  submit: "#login-form button[type=submit]",
  /** The form's landmark, as the recorder names a click in it. */
  region: "form#login-form",
  /** The top bar's Sign out button. */
  signOut: ".topbar .account form[action='/logout'] button",
} as const;

/** What an authenticate_by_form segment needs. */
export interface AuthOptions {
  /** The agent opens the form with the top bar's Sign in link (it is not already on it, as a redirect leaves it). */
  link?: boolean;
  /** The page the agent goes back to once signed in (the Sign in link's form leads to the portal's home). */
  back?: string;
  /**
   * Why the chain fails when the form is filled and left unsubmitted (the agent stops there): the check's first
   * outcome that needs the sign-in (default: the final page, which is the form's).
   */
  unsent?: ReasonCode;
}

/** The form's POST with the user's name, answered with its redirect. */
export const SIGNED_IN: ConditionJson = {
  request: {
    method: "POST",
    path: { exact: "/login" },
    body: { username: { exact: DEFAULT_USER.username } },
    status: 303,
  },
};

const typedCredentials: ActionJson[] = [
  { input: { selector: SIGN_IN.username, text: DEFAULT_USER.username } },
  { input: { selector: SIGN_IN.password, text: DEFAULT_USER.password } },
];

/** The authenticate_by_form segment. */
export function authenticateByForm(o: AuthOptions = {}): Segment {
  const open: ActionJson[] = o.link ? [{ click: { selector: SIGN_IN.link } }] : [];
  const back: ActionJson[] = o.back ? [{ navigate: { url: o.back } }] : [];
  const fields = `${targetOf(SIGN_IN.username).regex}|${targetOf(SIGN_IN.password).regex}`;
  return {
    macro: "authenticate_by_form",
    steps: [...open, ...typedCredentials, { click: { selector: SIGN_IN.submit } }, ...back],
    reached: [SIGNED_IN],
    outcome: [{ logged_in: true }],
    method: [
      {
        record: { action: "input", target: targetOf(SIGN_IN.username), value: { norm: DEFAULT_USER.username } },
        bound: "last",
      },
      {
        any: [
          { record: { action: "click", region: { contains: SIGN_IN.region } } },
          { record: { action: "key", value: "Enter", target: { regex: fields } } },
        ],
      },
    ],
    attacks: [{
      kind: "unfinished",
      steps: [...open, ...typedCredentials],
      reason: o.unsent ?? "final_page",
      witness: {
        all: [{ record: { action: "input", target: targetOf(SIGN_IN.password) } }, {
          request: { method: "POST", path: { exact: "/login" } },
          times: 0,
        }],
      },
      method: false,
      ends: true,
    }],
    alternatives: [{
      kind: "keyboard",
      steps: [...open, ...typedCredentials, { send_keys: { keys: "Enter" } }, ...back],
    }],
  };
}

/**
 * The outcome near miss of every signed-in task: its reference, then Sign out. Signing out lands on the portal's home:
 * a task whose outcome is a page fails there (`final_page`) unless the agent goes `back` to a page the app shows
 * signed out; otherwise the session signed out at the end fails it (`login_state`).
 */
export function signedOutAfter(o: { back?: string; endsOnPage: boolean }): NearMiss {
  return {
    name: "then_sign_out",
    category: "overshoot",
    after_reference: [{ click: { selector: SIGN_IN.signOut } }, ...(o.back ? [{ navigate: { url: o.back } }] : [])],
    reason: o.endsOnPage && !o.back ? "final_page" : "login_state",
    witness: { all: [{ request: { method: "POST", path: { exact: "/logout" } } }, { logged_in: false }] },
  };
}
