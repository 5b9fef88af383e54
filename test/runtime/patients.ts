/**
 * A contract with sensitive output, shared by the tests of `x-sensitive` on
 * output (test/runtime/sensitive-output.test.ts in process,
 * test/e2e/sensitive-output.test.ts on generated code): a recursive Patient
 * type whose insurance number is delivered (`true`), whose national id and
 * notes are withheld, and whose keys map is sensitive whole.
 */
export const NATIONAL_ID = "zQ-national-756.1234.5678.97";
export const INSURANCE = "zQ-insurance-80756012345";
export const NOTE = "zQ-note-psychiatric-history";
export const KEY_NAME = "zQ-key-named-after-a-secret";

export const PATIENT_TYPES = `types:
  Patient:
    type: object
    properties:
      patientId: { type: string }
      name: { type: string }
      insuranceNumber: { type: string, x-sensitive: true }
      nationalId: { type: string, x-sensitive: withhold }
      notes: { type: object, additionalProperties: { type: string, x-sensitive: withhold } }
      keys: { type: object, additionalProperties: { type: string }, x-sensitive: true }
      guardian: { $ref: "#/types/Patient" }
    required: [patientId, name, insuranceNumber]
`;

/** What a handler reads from its store: every field, the withheld ones included, a guardian's too. */
export function stored(extra: Record<string, unknown> = {}): Record<string, unknown> {
  const guardian = { patientId: "p_0", name: "Guardian", insuranceNumber: `${INSURANCE}-g`, nationalId: `${NATIONAL_ID}-g`, notes: { g: `${NOTE}-g` } };
  return { patient: { patientId: "p_1", name: "Ada", insuranceNumber: INSURANCE, nationalId: NATIONAL_ID, notes: { n1: NOTE }, keys: { [KEY_NAME]: "v1" }, guardian }, ...extra };
}

/** What every caller must get for `stored()`: the same, without what is withheld. */
export const DELIVERED = {
  patient: {
    patientId: "p_1",
    name: "Ada",
    insuranceNumber: INSURANCE,
    notes: {},
    keys: { [KEY_NAME]: "v1" },
    guardian: { patientId: "p_0", name: "Guardian", insuranceNumber: `${INSURANCE}-g`, notes: {} },
  },
};

/** The values no caller may receive, and every sensitive value, which no trace may show. */
export const WITHHELD = [NATIONAL_ID, NOTE];
export const SENSITIVE = [...WITHHELD, INSURANCE, KEY_NAME];
