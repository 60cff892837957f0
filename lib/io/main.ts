/** The end of every offline entry script: run its main, turn what it threw into a message and an exit code. */
import { describeError, InputError, TaskFormatError, UsageError } from "../errors/mod.ts";
import { Redactor } from "./redact.ts";

/**
 * The "Run with --help" line for a usage error about the options, and nothing for an InputError (a folder that is
 * not a run's, a selection that leaves no task), which --help would not mend.
 */
export function helpHint(err: UsageError): string {
  return err instanceof InputError ? "" : "\nRun with --help for the options.";
}

/**
 * Runs `main` with the command line and exits with its code: a UsageError or a malformed task file is exit 2 (a
 * usage error adds the --help hint), anything else exit 1; every message starts with the script's name and has
 * `redactor`'s secrets hidden.
 */
export async function runMain(
  script: string,
  main: (argv: string[]) => Promise<number>,
  redactor: Redactor = new Redactor(),
): Promise<never> {
  let code: number;
  try {
    code = await main(Deno.args);
  } catch (err) {
    const usage = err instanceof UsageError || err instanceof TaskFormatError;
    const hint = err instanceof UsageError ? helpHint(err) : "";
    console.error(redactor.text(`${script}: ${usage ? (err as Error).message : describeError(err)}${hint}`));
    code = usage ? 2 : 1;
  }
  Deno.exit(code);
}
