/** What every command writes to and runs in: the process's streams and folder, or a test's. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** The directory relative paths and the config search start from; the process's own when absent. Lets a caller (a test) run the CLI elsewhere without chdir, which is process-wide. */
  readonly cwd?: string;
}

/** The directory a command runs in. */
export function workingDirectory(io: Io): string {
  return io.cwd ?? process.cwd();
}
