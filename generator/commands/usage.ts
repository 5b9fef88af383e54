/**
 * Usage errors of the command line with a suggestion, as YAML keys get one:
 * `toolc generat` and `--wach` name the command or flag that was meant.
 */
import { didYouMean } from "../load/suggest.js";

/** The commands `toolc` takes (the first word). */
export const COMMANDS = ["init", "generate", "check", "import", "diff", "docs", "help"] as const;

export function unknownCommand(command: string): string {
  return `unknown command ${JSON.stringify(command)}${didYouMean(command, COMMANDS)}`;
}

/**
 * The message of an error `util.parseArgs` threw, with an unknown option's nearest known one
 * suggested in place of Node's note on positionals that start with "-".
 */
export function argsError(e: unknown, options: Readonly<Record<string, unknown>>): string {
  const message = e instanceof Error ? e.message : String(e);
  const unknown = (e as { code?: string }).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" ? /^Unknown option '(-{1,2}[^']*)'/.exec(message)?.[1] : undefined;
  if (unknown === undefined) return message;
  const flags = Object.keys(options).map((name) => `--${name}`);
  return `unknown option ${unknown}${didYouMean(unknown, flags)}`;
}
