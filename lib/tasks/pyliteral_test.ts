/** The Python literal parser: what `ast.literal_eval` gives for the seed's task.json fields, and clear errors. */
import assert from "node:assert/strict";
import { looksLikePyLiteral, parsePyLiteral, PyLiteralError } from "./pyliteral.ts";

Deno.test("parsePyLiteral() reads the str() of the seed's task.json fields", () => {
  assert.deepEqual(parsePyLiteral("['authenticate_by_form', 'submit_form#2']"), [
    "authenticate_by_form",
    "submit_form#2",
  ]);
  assert.deepEqual(parsePyLiteral("[{'id': 'shop'}, {'id': 'mail'}]"), [{ id: "shop" }, { id: "mail" }]);
  assert.deepEqual(parsePyLiteral(`{'search': 'Search for "Miradouro"', 'open_detail': "Open Lena's mail"}`), {
    search: 'Search for "Miradouro"',
    open_detail: "Open Lena's mail",
  });
  assert.deepEqual(parsePyLiteral("{'search': (0, 3), 'open_detail': [4, 6]}"), {
    search: [0, 3],
    open_detail: [4, 6],
  });
});

Deno.test("parsePyLiteral() strings: both quotes, triple quotes, prefixes, escapes, adjacent strings", () => {
  assert.equal(parsePyLiteral(`'it\\'s'`), "it's");
  assert.equal(parsePyLiteral(`"say \\"hi\\""`), 'say "hi"');
  assert.equal(parsePyLiteral(`'a\\nb\\tc\\\\d'`), "a\nb\tc\\d");
  assert.equal(parsePyLiteral(`'\\x41\\u00e9\\U0001F600\\101\\0'`), "A\u00e9\u{1F600}A\0");
  assert.equal(parsePyLiteral(`'caf\u00e9'`), "caf\u00e9", "non-ASCII text as written");
  assert.equal(parsePyLiteral(`'keep \\d'`), "keep \\d", "an unknown escape keeps its backslash");
  assert.equal(parsePyLiteral(`r'\\d+\\.'`), "\\d+\\.");
  assert.equal(parsePyLiteral(`u'x'`), "x");
  assert.equal(parsePyLiteral(`'''one\n'two'\n'''`), "one\n'two'\n");
  assert.equal(parsePyLiteral(`"""a"b"""`), 'a"b');
  assert.deepEqual(parsePyLiteral(`['a' "b"\n  r'c']`), ["abc"]);
  assert.equal(parsePyLiteral(`'a\\\nb'`), "ab", "a backslash-newline continues the string");
  assert.equal(parsePyLiteral(`''`), "");
});

Deno.test("parsePyLiteral() numbers, names, tuples, nesting, blanks and comments", () => {
  assert.deepEqual(parsePyLiteral("[0, -3, +2, 1_000, 0x1F, 0o17, 0b101, 2.5, .5, 5., 1e3, -2.5E-1, 007.5, 00]"), [
    0,
    -3,
    2,
    1000,
    31,
    15,
    5,
    2.5,
    0.5,
    5,
    1000,
    -0.25,
    7.5,
    0,
  ]);
  assert.deepEqual(parsePyLiteral("[True, False, None]"), [true, false, null]);
  assert.deepEqual(parsePyLiteral("((1, 2), (3,), (), (4))"), [[1, 2], [3], [], 4]);
  assert.deepEqual(parsePyLiteral("{'a': {'b': [{'c': ()}]}, 'd': {}}"), { a: { b: [{ c: [] }] }, d: {} });
  assert.deepEqual(parsePyLiteral("  [\n  'a',  # first\n  'b',\n]  "), ["a", "b"], "trailing comma and a comment");
  assert.deepEqual(parsePyLiteral("{'a': 1, 'a': 2}"), { a: 2 }, "the last of a repeated key wins, as in Python");
  const proto = parsePyLiteral("{'__proto__': 1}") as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(proto), Object.prototype);
  assert.deepEqual(Object.keys(proto), ["__proto__"], "an ordinary key, as JSON.parse makes it");
});

/** The message of the PyLiteralError that `text` raises. */
function problem(text: string): string {
  try {
    parsePyLiteral(text);
  } catch (e) {
    assert.ok(e instanceof PyLiteralError, String(e));
    return e.message;
  }
  throw new Error(`parsePyLiteral() accepted ${JSON.stringify(text)}`);
}

Deno.test("parsePyLiteral() refuses what is not a literal, saying what and where", () => {
  assert.equal(problem("['search'"), "unclosed list (opened at offset 0) at offset 9");
  assert.equal(problem("['search"), "unterminated string at offset 1");
  assert.equal(problem("['a'\n'b"), "unterminated string at offset 5");
  assert.equal(problem("'a\nb'"), "unterminated string (a newline in a one-line string) at offset 0");
  assert.equal(problem("['a' 'b' 1]"), 'expected "," or "]", got "1" at offset 9');
  assert.equal(problem("['a'] x"), 'unexpected "x" after the value at offset 6');
  assert.equal(problem("{'a' 1}"), 'expected ":" after a dict key, got "1" at offset 5');
  assert.equal(problem("{'a': 1"), "unclosed dict (opened at offset 0) at offset 7");
  assert.equal(problem("{'a', 'b'}"), "sets are not supported (expected a dict) at offset 0");
  assert.equal(problem("{1: 'a'}"), "a dict key must be a string at offset 1");
  assert.equal(problem("[true]"), '"true" is not a literal (only True, False and None are names) at offset 1');
  assert.equal(
    problem("__import__('os')"),
    '"__import__" is not a literal (only True, False and None are names) at offset 0',
  );
  assert.equal(problem("[1 + 2]"), 'expected "," or "]", got "+" at offset 3');
  assert.equal(problem("[--1]"), 'expected a number, got "-" at offset 1');
  assert.equal(problem("[1j]"), "complex numbers are not supported at offset 1");
  assert.equal(problem("[01]"), '"01": leading zeros are not allowed in an integer at offset 1');
  assert.equal(problem("[1e]"), '"1e" is not a number at offset 1');
  assert.equal(problem("[b'x']"), "bytes are not supported at offset 1");
  assert.equal(problem("[f'{x}']"), "f-strings are not supported at offset 1");
  assert.equal(problem(`'\\x4'`), "truncated \\x escape at offset 1");
  assert.equal(problem(`'\\N{BULLET}'`), "\\N{...} escapes are not supported at offset 1");
  assert.equal(problem(""), "expected a value, got end of text at offset 0");
  assert.equal(problem("[".repeat(200)), "nested deeper than 100 levels at offset 101");
});

Deno.test("looksLikePyLiteral() is the seed's test: a string starting with [ or {", () => {
  assert.equal(looksLikePyLiteral("['search']"), true);
  assert.equal(looksLikePyLiteral("{'a': 1}"), true);
  assert.equal(looksLikePyLiteral(" ['search']"), false);
  assert.equal(looksLikePyLiteral("search"), false);
  assert.equal(looksLikePyLiteral(""), false);
  assert.equal(looksLikePyLiteral(["search"]), false);
});
