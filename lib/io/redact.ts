/**
 * Secrets never written: a URL's user and password (`http://user:PASS@host/v1`), credential-like query parameters
 * (`?api_key=…`) and the values of the keys a run was given ($WEBMIX_VLLM_API_KEY, the judge's key). Every writer
 * of a run's results, artifacts and messages passes its text through one Redactor.
 */

/** What replaces a secret. */
export const REDACTED = "***";

// scheme://userinfo@ — the userinfo is everything up to the @ that ends the authority.
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>\\]+@/gi;
// Only names that mean a credential: `key` or `token` alone are ordinary parameters of the sandbox's pages.
const SECRET_QUERY = /([?&](?:api[_-]?key|access[_-]?token|client[_-]?secret|password|passwd)=)[^&\s"'#<>\\]+/gi;

/** Hides secrets in text and JSON values before they are written anywhere. */
export class Redactor {
  readonly #values: string[];

  /** `secrets`: values to hide wherever they appear (shorter than 4 characters and "EMPTY" are not secrets). */
  constructor(secrets: readonly (string | undefined)[] = []) {
    const values = new Set<string>();
    for (const s of secrets) {
      if (!s || s.length < 4 || s === "EMPTY") continue;
      values.add(s);
      // As it appears inside a JSON string or a URL.
      values.add(JSON.stringify(s).slice(1, -1));
      values.add(encodeURIComponent(s));
    }
    // Longest first: a secret that contains another is hidden whole.
    this.#values = [...values].sort((a, b) => b.length - a.length);
  }

  /** The secret a URL carries itself: its password (the user name is shown only where the URL itself is hidden). */
  static secretsOf(url: string | undefined): string[] {
    if (!url) return [];
    try {
      const u = new URL(url);
      return [u.password].map(decodeURIComponent).filter(Boolean);
    } catch {
      return [];
    }
  }

  /** `text` with every secret replaced. */
  text(text: string): string {
    let out = text.replace(URL_USERINFO, `$1${REDACTED}@`).replace(SECRET_QUERY, `$1${REDACTED}`);
    for (const v of this.#values) if (out.includes(v)) out = out.replaceAll(v, REDACTED);
    return out;
  }

  /** A JSON value with every secret in its strings replaced (the same value when there is none). */
  value<T>(value: T): T {
    const json = JSON.stringify(value);
    if (json === undefined) return value;
    const clean = this.text(json);
    return clean === json ? value : JSON.parse(clean) as T;
  }
}
