/** The queue: every pending approval the filters match, oldest first. */
import { html } from 'htm/preact';
import { Countdown } from './countdown.js';

/** @param {{approvals: any[], selectedId?: string, onSelect: (id: string) => void, loading: boolean}} props */
export function ApprovalList({ approvals, selectedId, onSelect, loading }) {
  if (loading) return html`<p class="empty">Loading…</p>`;
  if (!approvals.length) return html`<p class="empty">Nothing is waiting for a decision. New approvals show up here by themselves.</p>`;
  return html`<ol class="approval-list">
    ${approvals.map(
      (approval) =>
        html`<li key=${approval.id}>
          <button
            type="button"
            class="approval-item"
            data-approval-id=${approval.id}
            aria-current=${approval.id === selectedId ? 'true' : undefined}
            onClick=${() => onSelect(approval.id)}
          >
            <span class="item-top">
              <code class="tool">${approval.toolName}</code>
              <${Countdown} deadline=${approval.deadline} />
            </span>
            <span class="item-description">${approval.description}</span>
            <span class="item-meta">
              <span>${approval.agent}</span>
              ${!approval.canDecide && html`<span class="badge">view only</span>`}
            </span>
          </button>
        </li>`,
    )}
  </ol>`;
}
