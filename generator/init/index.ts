import type { Io } from "../commands/generate.js";
export async function initCommand(cwd: string, io: Io): Promise<number> {
  void cwd;
  io.err("not yet\n");
  return 2;
}
