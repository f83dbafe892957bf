/**
 * Bulk decisions for the checked calls: approve them all, or reject them all with one reason. The page sends one
 * request per run and each run applies all of its decisions or none, under the same refusal rules as one call at
 * a time; what a run refused is said in plain words, and its calls stay in the list.
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

/**
 * @param {{count: number, busy: boolean, refusals: {label: string, headline: string, detail?: string}[],
 *   onApprove: () => void, onReject: (reason: string) => void, onClear: () => void}} props
 */
export function BulkBar({ count, busy, refusals, onApprove, onReject, onClear }) {
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  if (!count && !refusals.length) return null;
  const submit = (event) => {
    event.preventDefault();
    onReject(reason.trim());
    setRejecting(false);
    setReason('');
  };
  return html`<div class="bulk" role="group" aria-label="Decide the checked calls">
    ${
      count > 0 &&
      html`<div class="bulk-actions">
        <span class="bulk-count">${count} checked</span>
        <button type="button" class="primary" disabled=${busy} onClick=${onApprove}>Approve checked</button>
        <button type="button" class="danger-outline" disabled=${busy} aria-expanded=${rejecting} onClick=${() => setRejecting(!rejecting)}>
          Reject checked…
        </button>
        <button type="button" class="quiet" onClick=${onClear}>Uncheck all</button>
      </div>`
    }
    ${
      rejecting &&
      count > 0 &&
      html`<form class="bulk-reject" onSubmit=${submit}>
        <label for="bulk-reason">Reason (each agent is told)</label>
        <input id="bulk-reason" value=${reason} onInput=${(event) => setReason(event.currentTarget.value)} />
        <button type="submit" class="danger" disabled=${busy}>Reject ${count}</button>
      </form>`
    }
    ${refusals.map(
      (refusal) =>
        html`<div class="refusal" role="alert">
          <strong>${refusal.label}: ${refusal.headline}</strong>
          ${refusal.detail && html`<p class="detail">${refusal.detail}</p>`}
        </div>`,
    )}
  </div>`;
}
