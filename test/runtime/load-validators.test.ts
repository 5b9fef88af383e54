/**
 * The generated validators are compiled for the executor's copies, whose
 * objects have no prototype, so they make no own-property checks
 * (`copiedData` in generator/ajv.ts). `loadValidators`, the public way to
 * reach them, must keep the documented guarantee for any caller's value:
 * inherited names never count as present. It validates a copy.
 */
import { describe, expect, it } from "vitest";
import { createAjv } from "../../generator/ajv.js";
import type { AnyToolContract } from "../../generator/runtime/contract.js";
import { executeTool } from "../../generator/runtime/executor.js";
import { copyPlan } from "../../generator/runtime/copy-plan.js";
import { copyJson } from "../../generator/runtime/json.js";
import { COPIES_FROM_CALL, loadValidators, validatorsOf } from "../../generator/runtime/validators.js";

const INPUT = {
  type: "object",
  properties: { constructor: { type: "string" }, toString: { type: "string" }, limit: { type: "integer", default: 20 } },
  required: ["constructor"],
  additionalProperties: false,
};

function contract(): AnyToolContract {
  // Compiled as the validator emitter compiles them: for copies without prototypes.
  const validateInput = createAjv({ applyDefaults: true, copiedData: true }).compile(INPUT);
  const validateOutput = createAjv({ applyDefaults: false, copiedData: true }).compile({ type: "object" });
  return {
    name: "proto",
    version: 1,
    effect: "read",
    idempotent: true,
    timeoutMs: 1000,
    retry: { attempts: 1, backoffMs: 0, maxBackoffMs: 0, budgetMs: 0 },
    errors: {},
    inputSchema: INPUT,
    outputSchema: { type: "object" },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    meta: {},
    sensitive: { input: [], output: [] },
    validators: async () => ({ validateInput, validateOutput }),
  } as unknown as AnyToolContract;
}

describe("the executor with validators compiled for its copies", () => {
  it("finds inherited names missing, even one added to Object.prototype", async () => {
    const proto = Object.prototype as Record<string, unknown>;
    // Non-enumerable, so that only property reads see it (an enumerable one breaks the test runner's own loops).
    Object.defineProperty(proto, "constructor2", { value: "inherited", configurable: true, writable: true, enumerable: false });
    try {
      const polluted = { ...INPUT, properties: { ...INPUT.properties, constructor2: { type: "string" } }, required: ["constructor", "constructor2"] };
      const c = {
        ...contract(),
        inputSchema: polluted,
        validators: { validateInput: createAjv({ applyDefaults: true, copiedData: true }).compile(polluted), validateOutput: () => true },
      } as unknown as AnyToolContract;
      let ran = false;
      const result = await executeTool(c, {}, () => ((ran = true), {}));
      expect(result).toMatchObject({ ok: false, code: "INVALID_INPUT", issues: [{ path: "constructor" }, { path: "constructor2" }] });
      expect(ran).toBe(false);
    } finally {
      delete proto["constructor2"];
    }
  });
});

describe("loadValidators", () => {
  it("counts only own properties, though the generated functions check none", async () => {
    const c = contract();
    const generated = await validatorsOf(c);
    // The generated function alone takes the inherited constructor for the property.
    expect(generated.validateInput({ toString: "t" })).toBe(false);
    expect(generated.validateInput.errors?.map((e) => e.keyword)).not.toContain("required");
    const { validateInput } = await loadValidators(c);
    expect(validateInput({ toString: "t" })).toBe(false);
    expect(validateInput.errors?.map(({ instancePath, keyword, params }) => ({ instancePath, keyword, params }))).toEqual([
      { instancePath: "", keyword: "required", params: { missingProperty: "constructor" } },
    ]);
    expect(validateInput({ constructor: "c" })).toBe(true);
    expect(validateInput.errors).toBeNull();
  });

  it("never modifies the caller's value: defaults go to the copy", async () => {
    const { validateInput } = await loadValidators(contract());
    const value = { constructor: "c" };
    expect(validateInput(value)).toBe(true);
    expect(value).toEqual({ constructor: "c" });
  });

  it("fails a value that is not JSON, saying where", async () => {
    const { validateInput } = await loadValidators(contract());
    expect(validateInput({ constructor: "c", toString: new Date(0) })).toBe(false);
    expect(validateInput.errors).toHaveLength(1);
    expect(validateInput.errors?.[0]?.message).toMatch(/plain JSON data.*toString/);
  });

  it("hands out the same functions on every call", async () => {
    const c = contract();
    expect(await loadValidators(c)).toBe(await loadValidators(c));
  });

  it("makes a tool's code once when its first calls arrive together (a group's function runs once), and tries a failed load again", async () => {
    const base = contract();
    const made = (base.validators as () => Promise<unknown>)();
    let runs = 0;
    let fail = true;
    const c = {
      ...base,
      validators: async () => {
        runs++;
        await new Promise((resolve) => setTimeout(resolve, 5));
        return made;
      },
    } as unknown as AnyToolContract;
    const [a, b, d] = await Promise.all([validatorsOf(c), validatorsOf(c), validatorsOf(c)]);
    expect(runs).toBe(1);
    expect(a).toBe(b);
    expect(d).toBe(a);
    expect(validatorsOf(c)).toBe(a);

    let tries = 0;
    const flaky = {
      ...base,
      validators: async () => {
        tries++;
        if (fail) throw new Error("module not found");
        return made;
      },
    } as unknown as AnyToolContract;
    await expect(Promise.all([validatorsOf(flaky), validatorsOf(flaky)])).rejects.toThrow("module not found");
    expect(tries).toBe(1);
    fail = false;
    expect((await validatorsOf(flaky)).validateInput).toBe(a.validateInput);
    expect(tries).toBe(2);
  });

  it("uses a tool's schema-aware copies from its COPIES_FROM_CALL-th call on, the generic copy before, with the same results", async () => {
    const base = contract();
    const made = await (base.validators as () => Promise<{ validateInput: unknown; validateOutput: unknown }>)();
    const copied = { input: 0, output: 0 };
    const c = {
      ...base,
      validators: async () => ({
        ...made,
        copyInput: (value: unknown) => (copied.input++, copyJson(value)),
        copyOutput: (value: unknown) => (copied.output++, copyJson(value)),
      }),
    } as unknown as AnyToolContract;
    const results = [];
    for (let call = 1; call <= COPIES_FROM_CALL + 1; call++) {
      results.push(await executeTool(c, { constructor: "c" }, () => ({ id: call % 2 })));
      const schemaAware = Math.max(0, call - COPIES_FROM_CALL + 1);
      expect(copied).toEqual({ input: schemaAware, output: schemaAware });
    }
    expect(COPIES_FROM_CALL).toBeGreaterThan(1);
    expect(results.map((r) => r.ok && r.data)).toEqual(results.map((_, i) => ({ id: (i + 1) % 2 })));
  });

  it("plans a tool's copies from the schemas its contract serves on its COPIES_FROM_CALL-th call, the output's unwrapped", async () => {
    const base = contract();
    const output = { type: "array", items: { type: "object", properties: { id: { type: "integer" } } } };
    const c = { ...base, outputSchema: output } as unknown as AnyToolContract;
    for (let call = 1; call < COPIES_FROM_CALL; call++) {
      const validators = await validatorsOf(c);
      expect(validators.copyInput, `call ${call}`).toBeUndefined();
      expect(validators.copyOutput, `call ${call}`).toBeUndefined();
    }
    const planned = await validatorsOf(c);
    expect(planned.copyInput).toBe(copyPlan(INPUT));
    expect(planned.copyOutput).toBe(copyPlan(output));
    expect(await validatorsOf(c)).toBe(planned);
    expect(planned.copyOutput!([{ id: 1, extra: [true] }])).toEqual(copyJson([{ id: 1, extra: [true] }]));
  });

  it("loads copies kept in a module of their own (a group's) on the COPIES_FROM_CALL-th call, not before, and uses them once they are in", async () => {
    const base = contract();
    const made = await (base.validators as () => Promise<{ validateInput: unknown; validateOutput: unknown }>)();
    let loads = 0;
    const copied = { input: 0, output: 0 };
    const c = {
      ...base,
      validators: async () => ({
        ...made,
        loadCopies: async () => {
          loads++;
          return {
            copyInput: (value: unknown) => (copied.input++, copyJson(value)),
            copyOutput: (value: unknown) => (copied.output++, copyJson(value)),
          };
        },
      }),
    } as unknown as AnyToolContract;
    for (let call = 1; call < COPIES_FROM_CALL; call++) {
      expect(await executeTool(c, { constructor: "c" }, () => ({}))).toMatchObject({ ok: true });
      expect(loads).toBe(0);
    }
    // This call starts the load and goes on with the generic copy; the next one has the copies.
    expect(await executeTool(c, { constructor: "c" }, () => ({}))).toMatchObject({ ok: true });
    expect(loads).toBe(1);
    expect(copied).toEqual({ input: 0, output: 0 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await executeTool(c, { constructor: "c" }, () => ({ id: 1 }))).toMatchObject({ ok: true, data: { id: 1 } });
    expect(copied).toEqual({ input: 1, output: 1 });
    expect(loads).toBe(1);
  });

  it("goes on with the generic copy when the copies' module cannot load", async () => {
    const base = contract();
    const made = await (base.validators as () => Promise<{ validateInput: unknown; validateOutput: unknown }>)();
    const c = {
      ...base,
      validators: async () => ({ ...made, loadCopies: () => Promise.reject(new Error("module not found")) }),
    } as unknown as AnyToolContract;
    for (let call = 1; call <= COPIES_FROM_CALL + 2; call++)
      expect(await executeTool(c, { constructor: "c" }, () => ({ call }))).toMatchObject({ ok: true, data: { call } });
  });
});
