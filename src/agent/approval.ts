// Human approval of tool calls — spec 2025-11-25 server/tools ("Security Considerations":
// a human SHOULD be in the loop, able to deny a tool invocation; annotations are hints from
// an untrusted server, so they only decide what may run *without* asking, never what is safe).

import type { JsonObject } from "../client/types.ts";
import type { RegisteredTool } from "../registry/types.ts";
import type { ModelToolCall } from "./providers/types.ts";

/**
 * Which tool calls run without asking:
 * - `read-only`: only tools the server annotated `readOnlyHint: true`;
 * - `all`: every tool (`--yes`);
 * - `none`: no tool.
 * A call the policy does not let through goes to the `ask` callback, or is refused without one.
 */
export type ApprovalPolicy = "read-only" | "all" | "none";

export const APPROVAL_POLICIES: readonly ApprovalPolicy[] = ["read-only", "all", "none"];

/** One tool call waiting for a yes or no. */
export interface ApprovalRequest {
  /** The registered tool (its `annotations` carry the server's hints). */
  tool: RegisteredTool;
  /** The call as the model made it. */
  call: ModelToolCall;
  /** The arguments, parsed and checked against the tool's inputSchema. */
  arguments: JsonObject;
}

/** The answer: true (run it), false (refused), or a refusal with the user's reason. */
export type ApprovalAnswer = boolean | { approved: false; reason: string };

/** Called before each tool call; the Runner waits for it. */
export type ApproveFunction = (request: ApprovalRequest) => ApprovalAnswer | Promise<ApprovalAnswer>;

/** Whether the server annotated the tool read-only (only MCP tools carry annotations). */
export function isReadOnly(tool: RegisteredTool): boolean {
  return tool.annotations?.readOnlyHint === true;
}

/** Whether `policy` lets the call run without asking. */
export function runsWithoutAsking(policy: ApprovalPolicy, tool: RegisteredTool): boolean {
  return policy === "all" || (policy === "read-only" && isReadOnly(tool));
}

/**
 * The approve function of a policy: calls it lets through are approved at once; the rest go
 * to `ask` (a prompt on a terminal), or are refused with a reason naming the policy.
 */
export function approvalPolicy(policy: ApprovalPolicy, ask?: ApproveFunction): ApproveFunction {
  return (request) => {
    if (runsWithoutAsking(policy, request.tool)) return true;
    if (ask !== undefined) return ask(request);
    return {
      approved: false,
      reason: policy === "none"
        ? 'the approval policy is "none" and nobody is there to confirm'
        : "the tool is not annotated readOnlyHint and nobody is there to confirm it (no terminal)",
    };
  };
}

/** Parses an `--approve` value; undefined for anything else. */
export function parseApprovalPolicy(value: string): ApprovalPolicy | undefined {
  return (APPROVAL_POLICIES as readonly string[]).includes(value) ? value as ApprovalPolicy : undefined;
}
