/** Keeps the run's search attributes current, upserting only what changed (each upsert is a history event). */
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import { upsertSearchAttributes } from '@temporalio/workflow';
import type { RunStatus } from '../contract/run-status.js';
import { HitlAgent, HitlNextDeadline, HitlPendingCount, HitlPendingTools, HitlStatus } from '../contract/search-attributes.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import { jsonPrefixLength } from '../bounds/json-prefix.js';
import { utf8Length } from '../bounds/truncate.js';

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
      { key: HitlPendingTools, value: withinValueLimit([...new Set(pending.map((p) => p.toolName))].sort()) },
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

/**
 * Temporal refuses a search attribute value over 2 KiB (`frontend.searchAttributesSizeOfValueLimit`), and with it the
 * workflow task that upserts it, on every retry: 32 gated MCP tools of 60-character names waiting at once wedged the
 * run. The names that fit, in order, and `…` for the rest.
 */
const PENDING_TOOLS_BYTES = 1800;

export function withinValueLimit(names: string[]): string[] {
  if (utf8Length(JSON.stringify(names)) <= PENDING_TOOLS_BYTES) return names;
  // With room left for `,"…"`.
  return [...names.slice(0, jsonPrefixLength(names, PENDING_TOOLS_BYTES - utf8Length(',"…"'))), '…'];
}
