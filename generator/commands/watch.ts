/**
 * `toolc generate --watch`: generate, then again after every save of a
 * definition or of the config file, printing the diagnostics of each run.
 * Each run is an ordinary generate, so a broken contract writes nothing and
 * the last good output stays. Runs never overlap: saves during a run lead to
 * one more run after it. SIGINT or SIGTERM stops watching once the current
 * run has finished, so the output is never left half-written.
 */
import { readdirSync, watch as watchPath, type FSWatcher } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { formatDiagnostic } from "../diagnostics.js";
import { CONFIG_FILE } from "../config/load.js";
import type { SettingFlags } from "../config/settings.js";
import { resolvePlan, type Plan } from "../plan/index.js";
import { generateOnce } from "./generate.js";
import { type Io, workingDirectory } from "./io.js";

/** Editors save in bursts (write, rename, chmod); one run per burst. */
const SETTLE_MS = 100;

/** What to watch: the definitions, every folder below them, and the folder holding the config file. */
interface Watched {
  readonly definitions?: string;
  readonly configDir: string;
  readonly configName: string;
}

function watchedFor(cwd: string, flags: SettingFlags, settings: Plan | undefined): Watched {
  const configPath = settings?.configFile ?? (flags.config === undefined ? undefined : resolve(cwd, flags.config));
  return {
    ...(settings ? { definitions: settings.definitions } : {}),
    configDir: configPath === undefined ? (settings?.root ?? cwd) : dirname(configPath),
    configName: configPath === undefined ? CONFIG_FILE : basename(configPath),
  };
}

/** `dir` and every folder below it (as definitions are searched: no dot-folders, no node_modules); none when it does not exist. */
function foldersBelow(dir: string): string[] {
  const found: string[] = [];
  const walk = (current: string): void => {
    let entries;
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      return;
    }
    found.push(current);
    for (const entry of entries) {
      if (entry.isDirectory() && !entry.name.startsWith(".") && entry.name !== "node_modules") walk(join(current, entry.name));
    }
  };
  walk(dir);
  return found;
}

type Relevant = (name: string | null) => boolean;

/**
 * Each folder to watch, with the test of which changed names in it mean a
 * new run. Folders are watched one by one, not with `recursive`: on Linux
 * that option sets itself up asynchronously, and a save right after it
 * started could go unseen.
 */
function targets(w: Watched): Map<string, Relevant> {
  const map = new Map<string, Relevant>();
  // A contract, or a folder appearing or going away (names without a dot).
  const definition: Relevant = (name) => name === null || /\.ya?ml$/.test(name) || !name.includes(".");
  if (w.definitions !== undefined) for (const dir of foldersBelow(w.definitions)) map.set(dir, definition);
  // The config itself, or the definitions folder appearing.
  const config: Relevant = (name) => name === null || name === w.configName || (w.definitions !== undefined && name === basename(w.definitions));
  const shared = map.get(w.configDir);
  map.set(w.configDir, shared ? (name) => shared(name) || config(name) : config);
  return map;
}

interface FolderWatchers {
  /** Watches exactly these folders from now on; a folder watched already keeps its watcher, so no save goes unseen. */
  update(targets: Map<string, Relevant>): void;
  close(): void;
}

function folderWatchers(onChange: () => void): FolderWatchers {
  const watchers = new Map<string, FSWatcher>();
  let relevant = new Map<string, Relevant>();
  return {
    update(targets) {
      relevant = targets;
      const first = watchers.size === 0;
      let added = false;
      for (const [dir, watcher] of watchers) {
        if (relevant.has(dir)) continue;
        watcher.close();
        watchers.delete(dir);
      }
      for (const dir of relevant.keys()) {
        if (watchers.has(dir)) continue;
        try {
          const watcher = watchPath(dir, (_event, name) => {
            if (relevant.get(dir)?.(name === null ? null : String(name))) onChange();
          });
          // A watched folder that is deleted reports an error; the next run watches what exists then.
          watcher.on("error", () => onChange());
          watchers.set(dir, watcher);
          added = true;
        } catch {
          // Gone between listing and watching: the parent's watcher sees it.
        }
      }
      // A file saved into a new folder before its watcher existed would go unseen: look once more.
      if (added && !first) onChange();
    },
    close() {
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}

interface SerialRuns {
  /** Runs now; resolves when done. */
  now(): Promise<void>;
  /** Asks for a run once saves settle; during a run, for one more after it. */
  request(): void;
  /** Resolves when no run is going on. */
  idle(): Promise<void>;
  stop(): void;
}

/** Runs `task` one at a time, once a burst of requests has settled. */
function serialRuns(task: () => Promise<void>): SerialRuns {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const start = (): Promise<void> => {
    running = (async () => {
      do {
        again = false;
        await task();
      } while (again && !stopped);
      running = undefined;
    })();
    return running;
  };
  return {
    now: start,
    request() {
      if (stopped) return;
      clearTimeout(timer);
      timer = setTimeout(() => (running ? (again = true) : start()), SETTLE_MS);
    },
    idle: () => running ?? Promise.resolve(),
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/** Resolves on SIGINT, SIGTERM or `stop`, whichever comes first. */
function stopRequested(stop: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    const finish = (): void => {
      process.off("SIGINT", finish);
      process.off("SIGTERM", finish);
      resolve();
    };
    if (stop?.aborted) return finish();
    stop?.addEventListener("abort", finish, { once: true });
    process.once("SIGINT", finish);
    process.once("SIGTERM", finish);
  });
}

export async function watch(flags: SettingFlags, io: Io, stop?: AbortSignal, options: { verbose?: boolean } = {}): Promise<number> {
  const cwd = workingDirectory(io);
  const display = (path: string): string => relative(cwd, path).split(sep).join("/") || ".";
  // Signals are taken over before the first run, so even that one is never cut off halfway.
  let stopped = false;
  const stopping = stopRequested(stop).then(() => void (stopped = true));
  let watched: Watched = watchedFor(cwd, flags, undefined);
  // A code's warnings are printed again only when they changed since the run that printed them.
  const printed = new Map<string, string>();
  const runs = serialRuns(async () => {
    const resolved = await resolvePlan(cwd, flags);
    for (const d of resolved.diagnostics) io.err(`${formatDiagnostic(d)}\n`);
    if (resolved.usage !== undefined) io.err(`toolc: ${resolved.usage}\n`);
    if (resolved.plan) await generateOnce(resolved.plan, "generate", io, { printed, ...(options.verbose ? { verbose: true } : {}) });
    else io.err("toolc: the config file has errors; nothing was written\n");
    watched = watchedFor(cwd, flags, resolved.plan);
    if (!stopped) folders.update(targets(watched));
  });
  const folders = folderWatchers(() => runs.request());

  await runs.now();
  const where = `${watched.definitions === undefined ? "" : `${display(watched.definitions)}/ and `}${display(resolve(watched.configDir, watched.configName))}`;
  if (!stopped) io.err(`toolc: watching ${where}; Ctrl-C stops\n`);
  await stopping;
  runs.stop();
  folders.close();
  await runs.idle();
  io.err("toolc: stopped watching\n");
  return 0;
}
