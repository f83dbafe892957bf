/** Deciding and inspecting gated calls through the real update, signal and queries. */
import type { WorkflowHandle } from '@temporalio/client';
import type { DecideInput } from '../../src/schemas/decision.js';
import type { PendingApproval } from '../../src/schemas/pending-approval.js';
import { decideUpdate, decisionSignal, pendingApprovalsQuery, runStateQuery } from '../../src/contract/messages.js';
import { waitFor } from './history.js';

export function decide(handle: WorkflowHandle, input: DecideInput) {
  return handle.executeUpdate(decideUpdate, { args: [input] });
}

export function signalDecision(handle: WorkflowHandle, input: unknown) {
  return handle.signal(decisionSignal, input as DecideInput);
}

/** Waits until exactly `count` calls are pending, and returns them. */
export async function waitForPending(handle: WorkflowHandle, count: number, timeoutMs = 60_000): Promise<PendingApproval[]> {
  await waitFor(async () => (await handle.query(pendingApprovalsQuery)).length === count, timeoutMs, `${count} pending approvals`);
  return handle.query(pendingApprovalsQuery);
}

export async function toolMessages(handle: WorkflowHandle): Promise<[string, string][]> {
  const { messages } = await handle.query(runStateQuery);
  return messages.flatMap((m) => (m.role === 'tool' ? [[m.tool_call_id, m.content] as [string, string]] : []));
}

/** The update's rejection message (what a caller is told). */
export async function refusalOf(promise: Promise<unknown>): Promise<{ message: string; code?: string }> {
  const error = (await promise.then(
    () => {
      throw new Error('expected the update to be refused');
    },
    (e) => e,
  )) as { cause?: { message: string; details?: { code?: string }[] } };
  return { message: error.cause?.message ?? String(error), code: error.cause?.details?.[0]?.code };
}
