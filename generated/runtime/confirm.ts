// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * Confirmed calls (`confirm: true`): the user approves each call through the
 * client before the handler runs. The server asks with an elicitation (MCP
 * 2026-07-28's multi round-trip `InputRequiredResult`; the SDK 2.x shim
 * carries it to 2025-era clients that support elicitation) and hands the
 * client a signed approval state to echo back with the answer. The state
 * names the tool, a keyed digest of the exact arguments and an id used once,
 * and is bound to the caller and an expiry by the SDK's state codec, so a
 * changed call, another caller or a replay needs a new approval. Nothing in
 * the arguments can approve a call: only the client's answer to a question
 * this server asked, with the state it minted for it.
 */
import {
  confirmationQuestion,
  tooLongMessage,
  type ConfirmationReason,
} from "./approval.js";
import type { AnyToolContract } from "./contract.js";
import { copyJson } from "./json.js";
import {
  approvalCodec,
  type ApprovalCodec,
  type ConfirmationChannel,
} from "./sdk.js";
import type { ApprovalState } from "./sdk-port.js";
import { memoryStore, withTimeout, type SharedStore } from "./store.js";

export type { ConfirmationReason };

export interface ConfirmOptions {
  /**
   * The key that signs approvals and digests their arguments: at least 32
   * bytes (a string is taken as UTF-8). Every instance that may see the
   * answer to another's question needs the same key. Default: a random key
   * per process, which serves stdio and a single HTTP instance; with a
   * shared `store` or more than one `instances` (ServerOptions) a missing
   * key is a start-up error.
   */
  secret?: string | Uint8Array;
  /** How long the user has to answer, in seconds. Default 300. */
  ttlSeconds?: number;
  /**
   * Marks an approval used; returns false when it already was, and the
   * call is then refused. Default: a set-if-absent in the server's `store`
   * (ServerOptions), which is a store in this process unless one is given.
   * Behind a load balancer every instance needs the same store, or a
   * replayed approval may run once per instance (docs/scaling.md).
   */
  consume?: (
    approvalId: string,
    expiresAtMs: number,
  ) => boolean | Promise<boolean>;
}

/** What the server does with a confirmed call. */
export type Confirmation =
  | { readonly kind: "run" }
  | {
      readonly kind: "ask";
      readonly message: string;
      readonly state: ApprovalState;
    }
  | {
      readonly kind: "refuse";
      readonly reason: ConfirmationReason;
      readonly message: string;
    }
  | {
      /** Whether the approval was used could not be checked (the store is down or slow): refused, retryable, nothing run. */
      readonly kind: "unavailable";
      readonly message: string;
      /** Why, for the operator's trace alone. */
      readonly cause: unknown;
    };

/** WebCrypto, read from globalThis so that the runtime needs neither Node's types nor the DOM's. */
interface WebCrypto {
  getRandomValues(array: Uint8Array): Uint8Array;
  readonly subtle: {
    importKey(
      format: "raw",
      key: Uint8Array,
      algorithm: { name: "HMAC"; hash: "SHA-256" },
      extractable: false,
      usages: ["sign"],
    ): Promise<unknown>;
    sign(
      algorithm: "HMAC",
      key: unknown,
      data: Uint8Array,
    ): Promise<ArrayBuffer>;
  };
}
const webCrypto = (): WebCrypto => {
  const crypto = (globalThis as { crypto?: WebCrypto }).crypto;
  if (crypto === undefined)
    throw new Error("confirmed tools need WebCrypto (globalThis.crypto)");
  return crypto;
};
const utf8 = (text: string): Uint8Array => {
  const Encoder = (
    globalThis as {
      TextEncoder?: new () => { encode(text: string): Uint8Array };
    }
  ).TextEncoder;
  if (Encoder === undefined)
    throw new Error("confirmed tools need TextEncoder");
  return new Encoder().encode(text);
};
const hex = (bytes: Uint8Array): string =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** The SDK codec requires at least this much key. */
const MIN_KEY_BYTES = 32;
const DEFAULT_TTL_SECONDS = 300;
/** One server configuration's approval machinery: its key, the SDK codec over it, and what remembers used approvals. */
export interface Approvals {
  readonly codec: ApprovalCodec | undefined;
  readonly ttlSeconds: number;
  digest(tool: string, args: unknown): Promise<string>;
  /** Marks the approval used: true the first time; rejects when what remembers used approvals cannot answer. */
  consume(id: string): Promise<boolean>;
}

/** Where the approvals of a server configuration are remembered, and how many instances serve it. */
export interface SharedState {
  /** The store every instance shares; unset: a store in this process. */
  readonly store?: SharedStore | undefined;
  /** How many instances serve this endpoint behind a load balancer; unset: 1. */
  readonly instances?: number | undefined;
}

/**
 * A configuration that would run behind a load balancer with a guarantee
 * silently per process: thrown when the server is made, which the HTTP
 * handlers do when they are created, so it stops the start-up. Its stack is
 * its message alone: the fix is in the configuration, not in a stack frame.
 */
export class ConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigurationError";
    this.stack = `${this.name}: ${message}`;
  }
}

/** The start-up check: more than one instance needs a shared store, and a shared store (any but a memoryStore) or more than one instance a shared key. */
export function checkSharedState(
  options: ConfirmOptions | undefined,
  shared: SharedState,
): void {
  const instances = shared.instances ?? 1;
  if (
    instances > 1 &&
    (shared.store === undefined || shared.store.local === true) &&
    options?.consume === undefined
  )
    throw new ConfigurationError(
      `toolc: this server is configured for ${instances} instances but has no shared store, so an approval of a confirmed call could be used once per instance. Pass the same \`store\` to every instance (redisStore, runtime/store.ts); see docs/scaling.md.`,
    );
  const sharedStore = shared.store !== undefined && shared.store.local !== true;
  if ((instances > 1 || sharedStore) && options?.secret === undefined)
    throw new ConfigurationError(
      `toolc: this server shares state with other instances (${shared.store === undefined ? `${instances} instances` : "a shared store is given"}) but has no \`confirm.secret\`, so each instance would sign approvals with a key of its own and refuse the others'. Give every instance the same secret of at least ${MIN_KEY_BYTES} bytes (from the environment, say); see docs/scaling.md.`,
    );
}

function keyOf(secret: ConfirmOptions["secret"]): Uint8Array {
  if (secret === undefined)
    return webCrypto().getRandomValues(new Uint8Array(MIN_KEY_BYTES));
  const key = typeof secret === "string" ? utf8(secret) : secret;
  if (key.length < MIN_KEY_BYTES)
    throw new RangeError(
      `confirm.secret must be at least ${MIN_KEY_BYTES} bytes`,
    );
  return key;
}

/** JSON with object keys sorted, so that the same arguments give the same digest however they were spelled. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const record = value as { readonly [key: string]: unknown };
    return `{${Object.keys(record)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The key under which a used approval is remembered in the store. */
const usedKey = (id: string): string => `approval:${id}`;

function newApprovals(options: ConfirmOptions, store: SharedStore): Approvals {
  const key = keyOf(options.secret);
  const ttlSeconds = options.ttlSeconds ?? DEFAULT_TTL_SECONDS;
  const used =
    options.consume ??
    ((id: string, expiresAtMs: number) =>
      store.setIfAbsent(
        usedKey(id),
        "1",
        Math.max(1, expiresAtMs - Date.now()),
      ));
  let hmacKey: Promise<unknown> | undefined;
  return {
    codec: approvalCodec(key, ttlSeconds),
    ttlSeconds,
    async digest(tool, args) {
      const crypto = webCrypto();
      hmacKey ??= crypto.subtle.importKey(
        "raw",
        key,
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign"],
      );
      // Keyed, so that the digest a client holds cannot be tried against guessed arguments.
      const mac = await crypto.subtle.sign(
        "HMAC",
        await hmacKey,
        utf8(`toolc.confirm.args\u0000${tool}\u0000${canonicalJson(args)}`),
      );
      return hex(new Uint8Array(mac));
    },
    consume: async (id) =>
      (await used(id, Date.now() + ttlSeconds * 1000)) === true,
  };
}

/** What stands for "no options" and "no store" in the cache below. */
const NONE = {};
const byOptions = new WeakMap<object, WeakMap<object, Approvals>>();
/** The store of this process, for every configuration that names none. */
let processStore: SharedStore | undefined;

/**
 * The approvals of a server configuration. The generated servers are made
 * per request (HTTP) or per connection (stdio) from the same options, so
 * this is made once per options object and store, and once per process
 * without either. Throws ConfigurationError when the configuration would
 * share a store without sharing the key (checkSharedState).
 */
export function approvalsFor(
  options: ConfirmOptions | undefined,
  shared: SharedState = {},
): Approvals {
  checkSharedState(options, shared);
  let byStore = byOptions.get(options ?? NONE);
  if (byStore === undefined)
    byOptions.set(options ?? NONE, (byStore = new WeakMap()));
  let approvals = byStore.get(shared.store ?? NONE);
  if (approvals === undefined) {
    const store = shared.store ?? (processStore ??= memoryStore());
    byStore.set(
      shared.store ?? NONE,
      (approvals = newApprovals(options ?? {}, store)),
    );
  }
  return approvals;
}

const REFUSALS: Readonly<Record<ConfirmationReason | "USED", string>> = {
  CONFIRMATION_DECLINED:
    "The user did not confirm the call, so nothing was done.",
  CONFIRMATION_INVALID:
    "The approval was given for another call (other arguments or another tool), so nothing was done. Call again to ask for a new approval.",
  USED: "This approval was already used, so nothing was done. Call again to ask for a new approval.",
  CONFIRMATION_UNAVAILABLE:
    "This tool needs the user's confirmation, and the client cannot ask for it (it declares no form elicitation, or its connection cannot carry the question). Nothing was done.",
};

const refuse = (
  reason: ConfirmationReason,
  message = REFUSALS[reason],
): Confirmation => ({ kind: "refuse", reason, message });

/** What the caller is told when the store cannot say whether an approval was used: nothing about the store itself. */
const UNCHECKED =
  "The approval could not be checked just now, so nothing was done. Send the same answer again shortly.";

/**
 * Marks an accepted approval used, within the contract's timeout: the first
 * use runs, a second is refused, and a store that fails or does not answer
 * in time refuses the call as retryable, never runs it unchecked.
 */
async function spend(
  contract: AnyToolContract,
  state: ApprovalState,
  approvals: Approvals,
): Promise<Confirmation> {
  try {
    const first = await withTimeout(
      approvals.consume(state.id),
      contract.timeoutMs,
      "marking the approval used",
    );
    return first
      ? { kind: "run" }
      : refuse("CONFIRMATION_INVALID", REFUSALS.USED);
  } catch (cause) {
    return { kind: "unavailable", message: UNCHECKED, cause };
  }
}

/** A fresh approval id. */
function approvalId(): string {
  return hex(webCrypto().getRandomValues(new Uint8Array(16)));
}

/**
 * Whether a call of a confirmed tool runs, asks, or is refused. `args` are
 * the arguments exactly as sent (before defaults). An answer counts only
 * with the state minted for this tool and these arguments, and only once.
 */
export async function confirmCall(
  contract: AnyToolContract,
  args: unknown,
  channel: ConfirmationChannel,
  approvals: Approvals,
): Promise<Confirmation> {
  const plain = copyJson(args);
  const value = plain.ok ? plain.value : args;
  const digest = await approvals.digest(contract.name, value);
  const state = channel.state;
  if (state !== undefined) {
    if (state.tool !== contract.name || state.args !== digest)
      return refuse("CONFIRMATION_INVALID");
    if (channel.answer === "declined") return refuse("CONFIRMATION_DECLINED");
    if (channel.answer === "accepted") return spend(contract, state, approvals);
  }
  if (!channel.canAsk) return refuse("CONFIRMATION_UNAVAILABLE");
  // Every argument in full, in the contract's order, or no question at all: never a question cut short.
  const question = confirmationQuestion(contract, value);
  if (!question.ok)
    return refuse("CONFIRMATION_UNAVAILABLE", tooLongMessage(question.length));
  return {
    kind: "ask",
    message: question.text,
    state: { tool: contract.name, args: digest, id: approvalId() },
  };
}
