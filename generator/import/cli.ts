import type { Io } from "../cli.js";

/** `toolc import`; implemented in this folder. */
export async function importCommand(argv: readonly string[], io: Io): Promise<number> {
  io.err(`toolc import: not available yet (${argv.length} arguments)\n`);
  return 2;
}
