/**
 * The emit options carry no normalize setting (#35): `providers`, `auth`,
 * `rateLimit` and `loading` are the plan's normalize options, which the
 * compile takes beside the emit options; the targets that depend on one of
 * them read their own options (the providers target's `false`, the HTTP and
 * fetch entries' `auth`) under their names, as a target with a config
 * section does.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AuthSetting } from "../../generator/config/auth.js";
import { resolveSettings } from "../../generator/config/settings.js";
import { emitShared, loadTargets } from "../../generator/emit/index.js";
import { compileOptionsOf, emitOptionsOf, planFromOptions } from "../../generator/plan/index.js";
import { compilePlan } from "../../generator/pipeline/run.js";
import { ROOT } from "../compiler/helpers.js";

// The auth fixture's `auth:` section as the config reads it, with a default scope for the tools that declare none.
const fixture = (await resolveSettings(join(ROOT, "test/fixtures/auth"), {})).settings!.auth!;
const AUTH: AuthSetting = { ...fixture, defaultScopes: ["orders:default"] };
const plan = planFromOptions({ definitions: "definitions", out: "generated", cwd: ROOT, mcpSdk: 2, providers: false, auth: AUTH });

describe("each target's options", () => {
  it("are under the target's name; the normalize settings are the compile's, not the emit options'", () => {
    const emit = emitOptionsOf(plan) as Record<string, unknown>;
    for (const key of ["providers", "auth", "rateLimit", "loading"]) expect(emit, key).not.toHaveProperty(key);
    expect(emit.targets).toEqual({ providers: false, http: { auth: AUTH }, fetch: { auth: AUTH } });
    const { normalize } = compileOptionsOf(plan);
    expect(normalize).toEqual({ providers: false, auth: AUTH });
    // Without those settings, no target has options to carry.
    expect(emitOptionsOf(planFromOptions({ definitions: "definitions", out: "generated", cwd: ROOT }))).not.toHaveProperty("targets");
  });

  it("reach the targets: no providers.ts and its runtime, http.ts and fetch.ts with the resource server, scopes applied by normalize", async () => {
    const compiled = await compilePlan(plan);
    const paths = compiled.files!.map((f) => f.path);
    expect(paths).not.toContain("providers.ts");
    expect(paths).not.toContain("runtime/providers.ts");
    expect(paths).toContain("runtime/auth.ts");
    const text = (path: string): string => compiled.files!.find((f) => f.path === path)!.text;
    expect(text("http.ts")).toContain("createAuthGate");
    expect(text("fetch.ts")).toContain("createAuthGate");
    expect(compiled.ir!.tools.some((t) => t.scopes?.includes("orders:default"))).toBe(true);
    // The shared files of the same IR from the emit options alone are the compile's.
    const shared = emitShared(compiled.ir!, emitOptionsOf(plan), await loadTargets());
    for (const file of shared) expect(text(file.path), file.path).toBe(file.text);
  });
});
