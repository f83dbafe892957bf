import { z } from 'zod';
import { AuditEntry } from './audit-entry.js';
import { AssistantMessage } from './chat-message.js';
import { PendingApproval } from './pending-approval.js';
import { RunStatus } from '../contract/run-status.js';
import { AgentResult } from './run-state.js';

/** What `watch` yields as a run moves. */
export const RunEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('status'), status: RunStatus }),
  z.object({ type: z.literal('step'), step: z.number().int() }),
  z.object({ type: z.literal('model_reply'), message: AssistantMessage }),
  z.object({ type: z.literal('approval_requested'), approval: PendingApproval }),
  z.object({ type: z.literal('decision'), entry: AuditEntry }),
  z.object({ type: z.literal('tool_result'), toolCallId: z.string(), content: z.string() }),
  z.object({ type: z.literal('user_message'), content: z.string() }),
  z.object({ type: z.literal('completed'), status: RunStatus, result: AgentResult.optional(), error: z.string().optional() }),
]);

export type RunEvent = z.infer<typeof RunEvent>;
