/**
 * The import boundaries of ../shared/STYLE.md, checked on the source: only lib/browser drives Chromium, only
 * lib/llm talks to model servers, only lib/sites serves HTTP, and grading, routing and tasks stay pure (so a run
 * regrades offline). Test files may cross them (a test serves pages, a DOM test drives Chromium).
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { ROOT } from "./support/cli.ts";

async function sources(dir: string): Promise<{ path: string; text: string }[]> {
  const out: { path: string; text: string }[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) out.push(...await sources(path));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts")) {
      out.push({ path: relative(ROOT, path), text: await Deno.readTextFile(path) });
    }
  }
  return out;
}

const LIB = await sources(join(ROOT, "lib"));

function offenders(pattern: RegExp, allowed: (path: string) => boolean): string[] {
  return LIB.filter((f) => pattern.test(f.text) && !allowed(f.path)).map((f) => f.path);
}

Deno.test("only lib/browser imports puppeteer", () => {
  assert.deepEqual(offenders(/from "puppeteer-core"/, (p) => p.startsWith("lib/browser/")), []);
});

Deno.test("only lib/llm imports the openai client", () => {
  assert.deepEqual(offenders(/from "openai"/, (p) => p.startsWith("lib/llm/")), []);
});

Deno.test("only lib/sites serves HTTP", () => {
  assert.deepEqual(offenders(/Deno\.serve\(/, (p) => p.startsWith("lib/sites/")), []);
});

Deno.test("grading, routing and tasks import no browser, model client, server or runner", () => {
  const pure = (p: string) => /^lib\/(grading|routing|tasks)\//.test(p);
  const bad = LIB.filter((f) => pure(f.path) && /from "\.\.\/(browser|llm|sites|run|agent|dom)\//.test(f.text));
  assert.deepEqual(bad.map((f) => f.path), []);
  const io = LIB.filter((f) =>
    pure(f.path) && /\bfetch\(|Deno\.(serve|Command|writeTextFile|writeFile|connect)/.test(f.text)
  );
  assert.deepEqual(io.map((f) => f.path), []);
});

Deno.test("other folders import a lib folder through its mod.ts, not its private files", () => {
  const bad: string[] = [];
  for (const f of LIB) {
    const own = f.path.split("/")[1];
    for (const m of f.text.matchAll(/from "\.\.\/([a-z_]+)\/(_[a-z_]+)\.ts"/g)) {
      if (m[1] !== own) bad.push(`${f.path} imports ../${m[1]}/${m[2]}.ts`);
    }
  }
  assert.deepEqual(bad, []);
});
