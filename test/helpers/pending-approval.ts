/** A call as it waits for a decision, for the planner's unit tests: a write-style gate anyone may decide, unless `extra` says otherwise. */
import { argsHash } from '../../src/policy/args-hash.js';
import type { PendingApproval } from '../../src/schemas/pending-approval.js';

export function pendingApproval(
  id: string,
  toolName: string,
  args: Record<string, unknown>,
  extra: Partial<PendingApproval> = {},
): PendingApproval {
  return {
    id,
    toolName,
    args,
    argsHash: argsHash(args),
    description: '',
    allowedDecisions: ['approve', 'edit', 'reject', 'respond'],
    requestedAt: '2026-01-01T00:00:00.000Z',
    deadline: '2026-01-08T00:00:00.000Z',
    step: 1,
    onTimeout: 'reject',
    rule: 'test',
    ...extra,
  };
}
