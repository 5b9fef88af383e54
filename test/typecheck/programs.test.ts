/**
 * The sharing of tsc programs between checks: a diagnostic goes to the check
 * whose folder holds its file (so a broken fixture fails its own test), and
 * one that no check owns goes to every check (so it cannot be lost).
 */
import { describe, expect, it } from "vitest";
import { attribute, type TscProgram } from "./programs.js";

const program: TscProgram = {
  name: "p",
  base: "/base",
  options: {},
  checks: [
    { name: "a", files: ["/base/a/index.ts"], owns: ["/base/a"] },
    { name: "ab", files: ["/base/ab/index.ts"], owns: ["/base/ab"] },
    { name: "shared", files: ["/elsewhere/x.ts"], owns: ["/elsewhere", "/base/a/only.ts"] },
  ],
};

describe("attribute", () => {
  it("gives nothing to anyone when tsc printed nothing", () => {
    expect(attribute("", program)).toEqual({ a: "", ab: "", shared: "" });
  });

  it("gives a located diagnostic, continuation lines included, to the checks owning its file", () => {
    const output = "a/x.ts(1,2): error TS2322: Type 'string' is not assignable to type 'number'.\n  Details.\nab/y.ts(3,4): error TS6133: 'y' is declared but its value is never read.\n";
    expect(attribute(output, program)).toEqual({
      a: "a/x.ts(1,2): error TS2322: Type 'string' is not assignable to type 'number'.\n  Details.\n",
      ab: "ab/y.ts(3,4): error TS6133: 'y' is declared but its value is never read.\n",
      shared: "",
    });
  });

  it("matches owned files and folders by path segment, and paths tsc prints relative to the base", () => {
    const output = "a/only.ts(1,1): error TS1: x\n../elsewhere/x.ts(1,1): error TS2: y\n";
    expect(attribute(output, program)).toEqual({ a: "a/only.ts(1,1): error TS1: x\n", ab: "", shared: "a/only.ts(1,1): error TS1: x\n../elsewhere/x.ts(1,1): error TS2: y\n" });
  });

  it("gives a global diagnostic, or one in a file no check owns, to every check", () => {
    const output = "error TS5023: Unknown compiler option 'bogus'.\nnode_modules/z/index.d.ts(1,1): error TS2304: Cannot find name 'Q'.\n";
    const result = attribute(output, program);
    for (const check of ["a", "ab", "shared"]) expect(result[check]).toBe(output);
  });
});
