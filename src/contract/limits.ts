/**
 * Sizes and counts a run accepts from outside, set well below Temporal's own limits (2 MB per payload, 4 MB per
 * gRPC message, 2,000 pending activities, 50 MB / 51,200 events of history) so that nothing a model, a tool, an
 * approver or a caller sends can push a run into a workflow task that fails forever. What exceeds a limit is
 * refused with a clear error, or cut with a marker that says so (README, "Limits").
 */
/**
 * The longest workflow id Temporal takes, in bytes (its `limit.maxIDLength`, 1,000 by default). A run checks each id it
 * makes of its own (`<run>/<call>` for a sub-agent, `<run>/webhooks-<n>`) against it before it starts the child: a
 * child over it is refused by the server with the workflow task that asks for it, on every retry, and the run is
 * wedged.
 */
export const TEMPORAL_ID_MAX_BYTES = 1000;

export const LIMITS = {
  /** Tool calls run from one model reply; the rest are dropped and the model is told. */
  toolCallsPerReply: 32,
  /** Bytes of one tool call's arguments (JSON text); a larger call goes back to the model as an error. */
  argumentsBytes: 64 * 1024,
  /** Bytes of a model reply's text; the rest is cut with a marker. */
  replyTextBytes: 64 * 1024,
  /** Bytes of a whole model reply (text and all calls' arguments); calls past it go back as errors. */
  replyBytes: 192 * 1024,
  /** Bytes of one tool result the model reads; the rest is cut with a marker. */
  toolResultBytes: 64 * 1024,
  /** Bytes of all tool results of one step together; each result's share shrinks to fit. */
  stepResultsBytes: 256 * 1024,
  /** Bytes of the transcript a run keeps and sends to the model; the oldest messages are cut, then dropped. */
  transcriptBytes: 512 * 1024,
  /**
   * Bytes (as a payload holds them: jsonStringBytes) of an agent's instructions, refused when it is defined. They are
   * the transcript's system message, which is never cut: every model call's input carries them within the transcript's
   * budget (transcriptBytes), and a run carries them across continue-as-new twice (its agent and its transcript). A
   * quarter of that budget leaves the rest to the conversation; unbounded, a run of 2.5 MB of instructions never got
   * past its first workflow task.
   */
  instructionsBytes: 128 * 1024,
  /** Characters of a prompt or user message. */
  promptChars: 100_000,
  /**
   * Bytes (as a payload holds them: jsonStringBytes) of a session's messages queued and not yet taken by a turn; a
   * message past it is refused until the run takes them. The queue goes across continue-as-new whole.
   */
  queuedMessagesBytes: 512 * 1024,
  /** Bytes of the `context` a run starts with (JSON). */
  contextBytes: 64 * 1024,
  /** Bytes of a run's own `approval` and `interrupt` together (JSON): every run of a chain carries them on. */
  runPolicyBytes: 64 * 1024,
  /** Bytes of one decision input (all decisions, arguments included). */
  decisionInputBytes: 256 * 1024,
  /** Decisions in one input. */
  decisionsPerInput: 100,
  /** Characters of a decision's message (reason, response, comment). */
  decisionMessageChars: 20_000,
  /** Bytes a `runState` or `pendingApprovals` answer may take; larger values are cut with a marker. */
  queryBytes: 1024 * 1024,
  /** Bytes of one pending call's arguments shown in lists; the full arguments come from `pendingApproval`. */
  listedArgumentsBytes: 8 * 1024,
  /**
   * Bytes (as a payload holds them) of the text approvers read for a call, as the policy writes it (the default quotes
   * the arguments whole; since patch set 17) or as its tool does, with the policy's prefix (since patch set 18); the
   * rest is cut with a marker. The call's arguments are shown whole beside it, and a run carries the text twice per
   * waiting call (its gate and its pending entry).
   */
  descriptionBytes: 4 * 1024,
  /** Bytes of arguments an audit entry keeps (before and after an edit); larger ones keep a preview. */
  auditArgumentsBytes: 4 * 1024,
  /** MCP tools a run records when it starts (all its servers together); the rest are left out, with why. */
  mcpToolsPerRun: 128,
  /** Bytes of one MCP tool's input schema (JSON); a tool with a larger one is left out. */
  mcpSchemaBytes: 16 * 1024,
  /** Bytes of one MCP tool's description; the rest is cut with a marker. */
  mcpDescriptionBytes: 2 * 1024,
  /** Bytes of all MCP tools a run records (names, descriptions, schemas); tools past it are left out. */
  mcpToolsBytes: 256 * 1024,
  /** Bytes of audit entries carried across continue-as-new (the newest; older ones stay in earlier runs). */
  carriedAuditBytes: 128 * 1024,
  /**
   * Bytes (JSON) of the input a run continues as new with: its start input and its carried state. Temporal refuses a
   * larger payload and ends the run. Each part has its own bound above, but all of them at their bounds together, with
   * a large agent, pass 2 MiB: what the next run can go on without is shed first, and a state that still does not fit
   * stays in its run (src/workflows/carry-fit.ts).
   */
  carriedInputBytes: 2 * 1024 * 1024 - 64 * 1024,
  /** Bytes of a text (a reply, a tool result, a final answer) one run event carries; the run state has it whole. */
  eventTextBytes: 16 * 1024,
} as const;

/** What a cut value ends with, so a reader (human or model) knows it was cut. */
export function cutMarker(droppedBytes: number): string {
  return `…[${droppedBytes} more bytes cut: over the size limit]`;
}
