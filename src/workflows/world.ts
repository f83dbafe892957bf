/**
 * A tool's precheck (`precheck: true`): its view of what a call depends on (an order's status, a balance), looked at
 * when the call is shown to approvers and again just before it runs (consent.ts, proposal-preparation.ts).
 */
import { isCancellation } from '@temporalio/workflow';
import { truncateBytes, utf8Length } from '../bounds/truncate.js';
import type { CallRecord } from '../schemas/call-record.js';
import { ACTIVITY_OPTIONS, activities } from './activity-options.js';
import type { AgentRun } from './agent-run.js';
import { PATCHES, takesPatch } from './patches.js';

/** A precheck's view of the world larger than this is treated as a failed precheck (it travels in every view). */
const WORLD_BYTES = 8 * 1024;

/** The tool looks at the world before its calls are shown and before they run (recorded when the run started). */
export function prechecked(run: AgentRun, toolName: string): boolean {
  return run.snapshot.precheckedTools?.includes(toolName) === true && takesPatch(PATCHES.whoDecides);
}

/** The tool's view of the world for these arguments, or why it could not say. */
export async function lookAtWorld(
  run: AgentRun,
  record: CallRecord,
  toolName: string,
  args: Record<string, unknown>,
): Promise<{ ok: true; world: unknown } | { ok: false; error: string }> {
  try {
    const world = await activities.precheckCall.executeWithOptions({ ...ACTIVITY_OPTIONS.precheck, summary: `precheck ${toolName}` }, [
      { agent: run.agent, name: toolName, args, toolCallId: record.id, context: run.input.context },
    ]);
    const bytes = utf8Length(JSON.stringify(world ?? null));
    if (bytes > WORLD_BYTES) return { ok: false, error: `the precheck's answer is ${bytes} bytes; the limit is ${WORLD_BYTES}` };
    return { ok: true, world: world ?? null };
  } catch (err) {
    if (isCancellation(err)) throw err;
    const cause = (err as { cause?: Error }).cause?.message ?? String(err);
    return { ok: false, error: truncateBytes(cause, 1000) };
  }
}
