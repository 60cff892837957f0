/** The session's files and admin calls: upload paths confined to one folder, downloads, admin GETs. */
import { isAbsolute, relative, resolve } from "node:path";
import { ActionError } from "./errors.ts";

/**
 * The absolute path of `name` inside `uploadDir`.
 * @throws ActionError for an absolute path, a path leaving the folder (also through a symlink), a missing file.
 */
export async function resolveUpload(uploadDir: string, name: string): Promise<string> {
  if (isAbsolute(name) || name.split(/[\\/]/).includes("..")) {
    throw new ActionError(`upload path "${name}" must be a file name inside the upload folder`);
  }
  const root = await Deno.realPath(uploadDir).catch((err) => {
    throw new ActionError(`the upload folder "${uploadDir}" does not exist`, { cause: err });
  });
  const full = await Deno.realPath(resolve(root, name)).catch((err) => {
    throw new ActionError(`no file "${name}" in the upload folder ${uploadDir}`, { cause: err });
  });
  const rel = relative(root, full);
  if (rel.startsWith("..") || isAbsolute(rel)) {
    throw new ActionError(`upload path "${name}" leads outside the upload folder ${uploadDir}`);
  }
  if (!(await Deno.stat(full)).isFile) throw new ActionError(`upload path "${name}" is not a file`);
  return full;
}

/** Names of the finished downloads in `dir` (partial .crdownload files left out), sorted. */
export async function listDownloads(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) if (e.isFile && !e.name.endsWith(".crdownload")) names.push(e.name);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return [];
    throw err;
  }
  return names.sort();
}

/** A `cookie` header with the cookies a browser would send to `base` (host match, path "/"). */
export function cookieHeaderFor(
  base: string,
  cookies: { name: string; value: string; domain: string; path: string }[],
): string {
  const host = new URL(base).hostname;
  return cookies
    .filter((c) => {
      const domain = c.domain.replace(/^\./, "");
      return (host === domain || host.endsWith(`.${domain}`)) && (c.path === "/" || c.path === "");
    })
    .map((c) => `${c.name}=${c.value}`)
    .join("; ");
}

/** A cookie a Set-Cookie header sets, in the shape BrowserContext.setCookie takes (scoped to `base`). */
export function parseSetCookie(header: string, base: string): {
  name: string;
  value: string;
  domain: string;
  path: string;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: "Strict" | "Lax" | "None";
} | null {
  const [pair, ...attrs] = header.split(";").map((p) => p.trim());
  const eq = pair.indexOf("=");
  if (eq <= 0) return null;
  const cookie: ReturnType<typeof parseSetCookie> & object = {
    name: pair.slice(0, eq),
    value: pair.slice(eq + 1),
    domain: new URL(base).hostname,
    path: "/",
  };
  for (const attr of attrs) {
    const [k, v = ""] = attr.split("=");
    const key = k.toLowerCase();
    if (key === "path") cookie.path = v;
    else if (key === "httponly") cookie.httpOnly = true;
    else if (key === "secure") cookie.secure = true;
    else if (key === "samesite") {
      const same = v.charAt(0).toUpperCase() + v.slice(1).toLowerCase();
      if (same === "Strict" || same === "Lax" || same === "None") cookie.sameSite = same;
    }
  }
  return cookie;
}
