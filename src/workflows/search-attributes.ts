/** Keeps the run's search attributes current, upserting only what changed (each upsert is a history event). */
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import { upsertSearchAttributes } from '@temporalio/workflow';
import type { RunStatus } from '../contract/run-status.js';
import { HitlAgent, HitlNextDeadline, HitlPendingCount, HitlPendingTools, HitlStatus } from '../contract/search-attributes.js';
import type { PendingApproval } from '../schemas/pending-approval.js';

export interface VisibleState {
  agent: string;
  status: RunStatus;
  pending: readonly PendingApproval[];
}

export class SearchAttributePublisher {
  private readonly last = new Map<string, string>();

  publish({ agent, status, pending }: VisibleState): void {
    const deadlines = pending.map((p) => Date.parse(p.deadline));
    const pairs: SearchAttributeUpdatePair[] = [
      { key: HitlAgent, value: agent },
      { key: HitlStatus, value: status },
      { key: HitlPendingTools, value: [...new Set(pending.map((p) => p.toolName))].sort() },
      { key: HitlPendingCount, value: pending.length },
      { key: HitlNextDeadline, value: deadlines.length ? new Date(Math.min(...deadlines)) : null },
    ];
    const changed = pairs.filter((pair) => {
      const value = JSON.stringify(pair.value);
      if (this.last.get(pair.key.name) === value) return false;
      this.last.set(pair.key.name, value);
      return true;
    });
    if (changed.length) upsertSearchAttributes(changed);
  }
}
