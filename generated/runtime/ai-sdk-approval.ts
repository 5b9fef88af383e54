// Part of the toolc runtime: toolc generate copies this file into a project's runtime/ folder as it is. Edit toolc's source, not a copy.
/**
 * The AI SDK's approval of a confirmed tool's call (`needsApproval`), as the
 * messages the SDK hands `execute` carry it. The AI SDK export's `execute`
 * lets the executor's border run a confirmed handler only for a call these
 * messages approve, or that the application's own `confirm` hook approves.
 */
import { equal } from "./equal.js";

/** What the AI SDK hands a tool's `execute` besides the input; `messages` carry the user's approval of a call that needed one. */
export interface AiSdkExecuteOptions {
  readonly abortSignal?: AbortSignal | undefined;
  readonly toolCallId?: string | undefined;
  readonly messages?: readonly unknown[] | undefined;
}

/** A message part, read field by field: the messages come from the application, so nothing in them is trusted to be well formed. */
interface Part {
  readonly role?: unknown;
  readonly content?: unknown;
  readonly type?: unknown;
  readonly toolCallId?: unknown;
  readonly toolName?: unknown;
  readonly input?: unknown;
  readonly approvalId?: unknown;
  readonly approved?: unknown;
}

function partsOf(message: unknown, role: string): Part[] {
  if (typeof message !== "object" || message === null) return [];
  const { role: actual, content } = message as Part;
  if (actual !== role || !Array.isArray(content)) return [];
  return content.filter(
    (part): part is Part => typeof part === "object" && part !== null,
  );
}

/**
 * Whether the AI SDK's messages carry the user's approval of exactly this
 * call: the SDK runs an approved call with the history whose last message
 * holds the `tool-approval-response`, and the assistant message before it
 * the `tool-approval-request` and the `tool-call` it approved. The approved
 * call must be this one (its id), of this tool, with these arguments, and
 * not answered yet; anything else (a call the SDK did not stop for, say,
 * because `toolApproval` overrode `needsApproval`) is not approved.
 */
export function sdkApproved(
  name: string,
  input: unknown,
  callOptions: AiSdkExecuteOptions,
): boolean {
  try {
    const { toolCallId, messages } = callOptions;
    if (typeof toolCallId !== "string" || !Array.isArray(messages))
      return false;
    const last = partsOf(messages.at(-1), "tool");
    if (
      last.some((p) => p.type === "tool-result" && p.toolCallId === toolCallId)
    )
      return false;
    const sent = messages.flatMap((m: unknown) => partsOf(m, "assistant"));
    const call = sent.find(
      (p) => p.type === "tool-call" && p.toolCallId === toolCallId,
    );
    if (
      call === undefined ||
      call.toolName !== name ||
      !equal(call.input, input)
    )
      return false;
    return sent.some(
      (request) =>
        request.type === "tool-approval-request" &&
        request.toolCallId === toolCallId &&
        typeof request.approvalId === "string" &&
        last.some(
          (response) =>
            response.type === "tool-approval-response" &&
            response.approvalId === request.approvalId &&
            response.approved === true,
        ),
    );
  } catch {
    return false;
  }
}

/** The executor's approval of a call the user approved through the AI SDK (sdkApproved). */
export const SDK_APPROVED = (): boolean => true;
