/**
 * Handlers for the SDK-line tests, written against whichever generated tree
 * is under test: the tree's own TransientError must be thrown, since the
 * executor recognizes its own class. Every call is reported to `onCall`.
 */

/** Customer ids with special behaviour. */
export const DOWN = "cus_down"; // every call fails transiently
export const LEAKY = "cus_leak"; // get_order returns an undeclared field
export const BLOCKED = "cus_blocked"; // get_order rejects with CUSTOMER_BLOCKED
export const LEAKED = "INTERNAL-LEAK-4242";
export const CHATTY = "cus_chatty"; // get_order reports progress 0, 50, 100 of 100 and logs once per level
export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;

export interface LineCall {
  tool: string;
  attempt: number;
  seen: Record<string, unknown>;
}

interface Ctx {
  attempt: number;
  reject(reason: string, message?: string): never;
  progress(update: { progress: number; total?: number; message?: string }): Promise<void>;
  log(level: (typeof LOG_LEVELS)[number], data: unknown): Promise<void>;
}

type Handler = (input: Record<string, unknown>, ctx: Ctx) => unknown;

/** The generated index module, as far as these handlers use it. */
export interface GeneratedApi {
  TransientError: new (message: string) => Error;
}

export function lineHandlers(api: GeneratedApi, onCall: (call: LineCall) => void): Record<string, Handler> {
  return {
    get_order: async (input, ctx) => {
      if (input["customerId"] === CHATTY) {
        for (const progress of [0, 50, 100]) await ctx.progress({ progress, total: 100, message: `at ${progress}` });
        for (const level of LOG_LEVELS) await ctx.log(level, { level });
      }
      onCall({ tool: "get_order", attempt: ctx.attempt, seen: { customerId: input["customerId"], includeHistory: input["includeHistory"] } });
      if (input["customerId"] === DOWN) throw new api.TransientError("orders service unavailable");
      if (input["customerId"] === LEAKY) return { found: true, customerId: LEAKY, orders: [], internalNote: LEAKED };
      if (input["customerId"] === BLOCKED) return ctx.reject("CUSTOMER_BLOCKED", "This customer is blocked.");
      return { found: false, customerId: input["customerId"], orders: [] };
    },
  };
}

/** test/fixtures/outputs: outputs that are an array, a string and a union. */
export const USERS = [
  { id: "usr_1", name: "Alice", email: "alice@example.com" },
  { id: "usr_2", name: "Bob", email: "bob@example.com" },
] as const;
export const LEAKY_TEAM = "leaky"; // list_users returns a user with an undeclared field
export const OVERLONG = "overlong"; // summarize returns more than the schema's 280 characters
export const AMBIGUOUS = "a@example.com"; // find_user returns the ids of close matches

export function outputHandlers(_api: GeneratedApi, onCall: (call: LineCall) => void): Record<string, Handler> {
  return {
    list_users: (input, ctx) => {
      onCall({ tool: "list_users", attempt: ctx.attempt, seen: input });
      if (input["team"] === "empty") return [];
      if (input["team"] === LEAKY_TEAM) return [{ ...USERS[0], internalNote: LEAKED }];
      return USERS;
    },
    summarize: (input, ctx) => {
      onCall({ tool: "summarize", attempt: ctx.attempt, seen: input });
      const text = String(input["text"]);
      return text === OVERLONG ? "x".repeat(281) : `${text.split(".")[0]}.`;
    },
    find_user: (input, ctx) => {
      onCall({ tool: "find_user", attempt: ctx.attempt, seen: input });
      if (input["email"] === USERS[0].email) return USERS[0];
      return input["email"] === AMBIGUOUS ? ["usr_1", "usr_3"] : null;
    },
  };
}
