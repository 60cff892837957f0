/**
 * The composer of page scripts: lib/dom's page-side code is plain functions in modules by concern (geometry, hit,
 * text, lists, naming, values, walk), each closing over nothing but the others; composePage assembles one
 * self-contained page function from their own source at load time (no build step), for page.evaluate or an
 * expression built from its toString().
 */

/** A function that runs in the page: it closes over nothing but the helpers composed with it. */
export type PageFunction = (...args: never[]) => unknown;

/**
 * `entry` as a self-contained page function: its source declares each of `helpers` once, by its own name and from
 * its own source (Function.prototype.toString), then calls `entry` with the arguments it was given. A helper
 * listed twice is declared once.
 * @throws Error when two different helpers share a name (or one has none): the script would not parse.
 */
export function composePage<F extends PageFunction>(entry: F, helpers: readonly PageFunction[]): F {
  const names = new Map<string, PageFunction>();
  for (const h of helpers) {
    const other = names.get(h.name);
    if (!h.name || (other && other !== h)) throw new Error(`page helper name "${h.name}" is empty or taken`);
    names.set(h.name, h);
  }
  const declarations = [...names].map(([name, h]) => `const ${name} = ${h.toString()};`).join("\n");
  return new Function("...args", `${declarations}\nreturn (${entry.toString()})(...args);`) as F;
}
