/**
 * `toolc generate --watch`: generate, then again after every save of a
 * definition or of the config file, printing the diagnostics of each run.
 * Each run is an ordinary generate, so a broken contract writes nothing and
 * the last good output stays. Runs never overlap: saves during a run lead to
 * one more run after it. SIGINT or SIGTERM stops watching once the current
 * run has finished, so the output is never left half-written.
 */
import { watch as watchPath, type FSWatcher } from "node:fs";
import { basename, dirname, relative, resolve, sep } from "node:path";
import { formatDiagnostic } from "../diagnostics.js";
import { CONFIG_FILE } from "../config/load.js";
import { resolveSettings, type SettingFlags, type Settings } from "../config/settings.js";
import { generateOnce, type Io } from "./generate.js";

/** Editors save in bursts (write, rename, chmod); one run per burst. */
const SETTLE_MS = 100;

/** What to watch: the definitions (recursively) and the folder holding the config file. */
interface Watched {
  readonly definitions?: string;
  readonly configDir: string;
  readonly configName: string;
}

function watchedFor(cwd: string, flags: SettingFlags, settings: Settings | undefined): Watched {
  const configPath = settings?.configFile ?? (flags.config === undefined ? undefined : resolve(cwd, flags.config));
  return {
    ...(settings ? { definitions: settings.definitions } : {}),
    configDir: configPath === undefined ? (settings?.root ?? cwd) : dirname(configPath),
    configName: configPath === undefined ? CONFIG_FILE : basename(configPath),
  };
}

/** Opens a watcher, or none when the path does not exist yet (the config folder's watcher sees it appear). */
function open(path: string, recursive: boolean, onEvent: (name: string | null) => void): FSWatcher | undefined {
  try {
    const watcher = watchPath(path, { recursive }, (_event, name) => onEvent(name === null ? null : String(name)));
    watcher.on("error", () => undefined);
    return watcher;
  } catch {
    return undefined;
  }
}

export async function watch(flags: SettingFlags, io: Io, stop?: AbortSignal): Promise<number> {
  const cwd = process.cwd();
  const display = (path: string): string => relative(cwd, path).split(sep).join("/") || ".";
  let watchers: FSWatcher[] = [];
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let watched: Watched = watchedFor(cwd, flags, undefined);

  const closeWatchers = (): void => {
    for (const w of watchers) w.close();
    watchers = [];
  };

  const rewatch = (): void => {
    closeWatchers();
    const config = open(watched.configDir, false, (name) => {
      // The config itself, or the definitions folder appearing or going away.
      if (name === null || name === watched.configName || (watched.definitions !== undefined && name === basename(watched.definitions))) schedule();
    });
    const definitions = watched.definitions === undefined ? undefined : open(watched.definitions, true, (name) => {
      if (name === null || /\.ya?ml$/.test(name) || !name.includes(".")) schedule();
    });
    watchers = [config, definitions].filter((w): w is FSWatcher => w !== undefined);
  };

  const once = async (): Promise<void> => {
    const resolved = await resolveSettings(cwd, flags);
    for (const d of resolved.diagnostics) io.err(`${formatDiagnostic(d)}\n`);
    if (resolved.usage !== undefined) io.err(`toolc: ${resolved.usage}\n`);
    if (resolved.settings) await generateOnce(resolved.settings, "generate", io);
    else io.err("toolc: the config file has errors; nothing was written\n");
    watched = watchedFor(cwd, flags, resolved.settings);
    if (!stopped) rewatch();
  };

  const start = (): void => {
    running = (async () => {
      do {
        again = false;
        await once();
      } while (again && !stopped);
      running = undefined;
    })();
  };

  function schedule(): void {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (running) again = true;
      else start();
    }, SETTLE_MS);
  }

  // Signals are taken over before the first run, so even that one is never cut off halfway.
  const stopped$ = new Promise<void>((resolve) => {
    const finish = (): void => {
      stopped = true;
      clearTimeout(timer);
      closeWatchers();
      process.off("SIGINT", finish);
      process.off("SIGTERM", finish);
      void (running ?? Promise.resolve()).then(() => resolve());
    };
    if (stop?.aborted) return finish();
    stop?.addEventListener("abort", finish, { once: true });
    process.once("SIGINT", finish);
    process.once("SIGTERM", finish);
  });

  start();
  await running;
  if (!stopped) io.err(`toolc: watching ${watched.definitions === undefined ? "" : `${display(watched.definitions)}/ and `}${display(resolve(watched.configDir, watched.configName))}; Ctrl-C stops\n`);
  await stopped$;
  io.err("toolc: stopped watching\n");
  return 0;
}
