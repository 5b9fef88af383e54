/**
 * `toolc init`'s changes to package.json: scripts and dependencies added
 * where absent, never changed where present, and the file's own indentation
 * and key order kept.
 */

/** One thing init added, or left alone and why. */
export interface PackageChange {
  readonly added: boolean;
  readonly what: string;
}

export interface PackageWants {
  /** Scripts toolc needs: added where absent; a different one is kept, with a note to make it run toolc's command. */
  readonly scripts: Readonly<Record<string, string>>;
  /** Scripts that start a project off (`build`): added where absent, any existing one is the project's own and kept without a word. */
  readonly defaultScripts?: Readonly<Record<string, string>>;
  readonly dependencies: Readonly<Record<string, string>>;
  readonly devDependencies: Readonly<Record<string, string>>;
  /**
   * `"type": "module"` for a project without code of its own yet, replacing the `"commonjs"` that
   * `npm init -y` writes (npm 11): the starters and the README's snippets are ES modules, and a
   * client snippet's top-level `await` fails to compile under CommonJS (TS1309). Unset: `type` is
   * the project's own, and a CommonJS one gets a note.
   */
  readonly esm?: boolean;
}

type Json = Record<string, unknown>;

function objectAt(pkg: Json, key: string): Json {
  const value = pkg[key];
  if (value !== null && typeof value === "object" && !Array.isArray(value)) return value as Json;
  const created: Json = {};
  pkg[key] = created;
  return created;
}

/** The indentation package.json is written with (npm keeps it too): its first indented line's, else two spaces. */
function indentOf(text: string): string {
  return /^[{[]\s*\n([ \t]+)\S/.exec(text)?.[1] ?? "  ";
}

function addScripts(pkg: Json, wants: PackageWants, changes: PackageChange[]): void {
  const scripts = objectAt(pkg, "scripts");
  for (const [name, command] of Object.entries(wants.defaultScripts ?? {})) {
    if (scripts[name] !== undefined) continue;
    scripts[name] = command;
    changes.push({ added: true, what: `script ${name}: ${command}` });
  }
  for (const [name, command] of Object.entries(wants.scripts)) {
    const current = scripts[name];
    if (current === undefined) {
      scripts[name] = command;
      changes.push({ added: true, what: `script ${name}: ${command}` });
    } else if (typeof current === "string" && current.includes(command)) {
      continue;
    } else {
      changes.push({ added: false, what: `script ${name} already exists (${JSON.stringify(current)}); make it run \`${command}\`` });
    }
  }
}

function addDependencies(pkg: Json, field: "dependencies" | "devDependencies", wanted: Readonly<Record<string, string>>, changes: PackageChange[]): void {
  for (const [name, version] of Object.entries(wanted)) {
    const present = ["dependencies", "devDependencies", "peerDependencies"]
      .map((f) => pkg[f] as Json | undefined)
      .find((deps) => deps && Object.hasOwn(deps, name));
    if (present) {
      const current = present[name];
      if (current !== version) changes.push({ added: false, what: `${name} is already a dependency (${String(current)}); toolc is tested with ${version}` });
      continue;
    }
    objectAt(pkg, field)[name] = version;
    changes.push({ added: true, what: `${field === "dependencies" ? "dependency" : "devDependency"} ${name} ${version}` });
  }
}

function setModuleType(pkg: Json, wants: PackageWants, changes: PackageChange[]): void {
  const current = pkg["type"];
  if (current === "module") return;
  const was = current === undefined ? "absent, so CommonJS" : JSON.stringify(current);
  if (wants.esm) {
    pkg["type"] = "module";
    changes.push({ added: true, what: `type: module (was ${was}; the project has no code yet, and the starters and snippets are ES modules)` });
  } else {
    changes.push({ added: false, what: `type is ${was} (the project has code): top-level await, as in the README's client snippets, needs "type": "module"` });
  }
}

/** The new package.json text, or undefined when nothing needs adding; plus what was added and what was left alone. */
export function mergePackageJson(text: string, wants: PackageWants): { text?: string; changes: PackageChange[] } {
  const pkg = JSON.parse(text) as Json;
  const changes: PackageChange[] = [];
  setModuleType(pkg, wants, changes);
  addScripts(pkg, wants, changes);
  addDependencies(pkg, "dependencies", wants.dependencies, changes);
  addDependencies(pkg, "devDependencies", wants.devDependencies, changes);
  if (!changes.some((c) => c.added)) return { changes };
  const trailing = text.endsWith("\n") ? "\n" : "";
  return { text: `${JSON.stringify(pkg, null, indentOf(text))}${trailing}`, changes };
}
