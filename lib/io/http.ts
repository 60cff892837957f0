/** JSON over HTTP GET: the admin reads of the sandbox protocol, from a browser session or from a bare cookie. */
import { SiteProtocolError } from "../errors/mod.ts";

/**
 * GETs `path` on `base` with `cookie` (a `cookie` header, "" for none) and returns the parsed JSON; `onCookies` gets
 * the cookies the answer sets.
 * @throws SiteProtocolError naming the URL on a network error, a non-200 status or a body that is not JSON.
 */
export async function getJson(
  base: string,
  path: string,
  cookie: string,
  timeoutMs: number,
  signal?: AbortSignal,
  onCookies?: (setCookie: string[]) => void,
): Promise<unknown> {
  const url = new URL(path, base).href;
  const signals = [AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])];
  let res: Response;
  try {
    res = await fetch(url, { headers: cookie ? { cookie } : {}, signal: AbortSignal.any(signals) });
  } catch (err) {
    throw new SiteProtocolError(`GET ${url} failed: ${(err as Error).message}`, { cause: err });
  }
  onCookies?.(res.headers.getSetCookie());
  const text = await res.text().catch(() => "");
  if (res.status !== 200) {
    throw new SiteProtocolError(`GET ${url} answered ${res.status}: ${JSON.stringify(text.slice(0, 200))}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new SiteProtocolError(`GET ${url} did not answer JSON: ${JSON.stringify(text.slice(0, 200))}`, {
      cause: err,
    });
  }
}
