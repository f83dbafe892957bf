/** The queue: every pending approval the filters match, oldest first; calls you may decide can be checked for bulk decisions. */
import { html } from 'htm/preact';
import { visibleText } from './visible-text.js';
import { Countdown } from './countdown.js';

/** Short words for who decides, on the item itself. */
function badges(approval) {
  return [
    approval.requiredApprovals && `${approval.approvals?.length ?? 0} of ${approval.requiredApprovals} approvals`,
    approval.review && `reviewer: ${approval.review.verdict === 'failed' ? 'failed' : 'escalated'}`,
    approval.escalations?.some((tier) => tier.reached) && 'escalated',
    approval.repended && 'waits again',
  ].filter(Boolean);
}

/**
 * @param {{approvals: any[], selectedId?: string, onSelect: (id: string) => void, loading: boolean,
 *   checked: Set<string>, onCheck: (id: string, on: boolean) => void}} props
 */
export function ApprovalList({ approvals, selectedId, onSelect, loading, checked, onCheck }) {
  if (loading) return html`<p class="empty">Loading…</p>`;
  if (!approvals.length) return html`<p class="empty">Nothing is waiting for a decision. New approvals show up here by themselves.</p>`;
  return html`<ol class="approval-list">
    ${approvals.map(
      (approval) =>
        html`<li key=${approval.id} class="approval-row">
          ${
            // A call too large for the list is decided on its own, once it is shown whole (inbox.js).
            approval.canDecide && !approval.argumentsTruncated
              ? html`<input
                  type="checkbox"
                  class="check"
                  aria-label=${visibleText(`Check ${approval.toolName} in ${approval.agent} for a bulk decision`)}
                  checked=${checked.has(approval.id)}
                  onChange=${(event) => onCheck(approval.id, event.currentTarget.checked)}
                />`
              : html`<span class="check" aria-hidden="true"></span>`
          }
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
              ${!approval.canDecide && html`<span class="badge">${approval.canWithdraw ? 'withdraw only' : 'view only'}</span>`}
              ${badges(approval).map((text) => html`<span class="badge">${text}</span>`)}
            </span>
          </button>
        </li>`,
    )}
  </ol>`;
}
