/** A pending call as lists and run events show it; apart from run-views so run events need not know the run. */
import { utf8Length } from '../bounds/truncate.js';
import { LIMITS } from '../contract/limits.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import { auditArgs } from './audit-log.js';

/** Arguments over the list budget cut to a preview (the `pendingApproval` query has the call whole). */
export function listedApproval(p: PendingApproval): PendingApproval {
  const bytes = utf8Length(JSON.stringify(p.args));
  if (bytes <= LIMITS.listedArgumentsBytes) return p;
  return { ...p, args: auditArgs(p.args) ?? {}, argsTruncated: true };
}
