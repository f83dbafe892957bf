/**
 * Who decides this call, beside the buttons: how many approvals it needs and from whom so far, what the reviewer
 * said before it reached people, the approver ladder, how long an approval holds, and, for a call that had been
 * approved and waits again, why and what changed in the world the tool depends on.
 */
import { html } from 'htm/preact';
import { ArgsDiff } from './edit-form.js';
import { visibleJson as pretty } from './visible-text.js';

const when = (iso) => new Date(iso).toLocaleString();

const REVIEW = {
  escalate: 'passed this call to people',
  failed: 'could not decide, so this call came to people',
};
const AGAIN = {
  consent_expired: 'The approval lapsed before the tool started',
  world_changed: 'What the tool depends on changed after it was approved',
  precheck_failed: 'The tool could not check the world before running',
};
const UNSEEN = 'No approver had seen what the tool depends on';

function Quorum({ approval }) {
  const approvals = approval.approvals ?? [];
  const missing = approval.requiredApprovals - approvals.length;
  const sofar = approvals.length
    ? `${approvals.length} so far (${approvals.map((a) => a.approver).join(', ')}), ${missing} to go.`
    : 'none yet.';
  return html`<p class="quorum">
    Needs <strong>${approval.requiredApprovals} approvals</strong> from different people: ${sofar} One rejection rejects it.
  </p>`;
}

function Ladder({ escalations }) {
  return html`<ul class="ladder">
    ${escalations.map(
      (tier) =>
        html`<li class=${tier.reached ? 'reached' : ''}>
          ${tier.reached ? 'Escalated: ' : `From ${when(tier.at)}: `}<strong>${tier.approvers.join(', ')}</strong> may decide it too.
        </li>`,
    )}
  </ul>`;
}

/** @param {{approval: any}} props */
export function WhoDecides({ approval }) {
  const { review, escalations, repended, world } = approval;
  // What changed shows as a difference; a world no approver had seen has none, and the run's words say why.
  const drifted = repended?.reason === 'world_changed' && repended.worldBefore !== undefined;
  const unseen = repended?.reason === 'world_changed' && !drifted;
  const proposer = approval.proposedBy?.approver ? html`Proposed by <strong>${approval.proposedBy.approver}</strong>` : 'Written';
  const parts = [
    approval.proposedBy &&
      html`<p class="proposed">
        ${proposer} by an edit of <code>${approval.proposedBy.toolName}</code> (${approval.proposedBy.callId}): the model asked for that
        call, not this one.
      </p>`,
    approval.requiredApprovals && html`<${Quorum} approval=${approval} />`,
    review &&
      html`<p class="review">
        The reviewer <strong>${review.reviewer}</strong> ${REVIEW[review.verdict] ?? review.verdict}: ${review.reason}
      </p>`,
    escalations?.length && html`<${Ladder} escalations=${escalations} />`,
    approval.validFor &&
      html`<p class="valid-for">
        ${
          approval.requiredApprovals
            ? `Each approval holds for ${approval.validFor}: an older one no longer counts, and once all are in, the tool must start within ${approval.validFor} of the oldest, or the call comes back here.`
            : `An approval holds for ${approval.validFor}: if the tool has not started by then, the call comes back here.`
        }
      </p>`,
    repended &&
      html`<div class="again" role="note">
        <p>
          <strong>${unseen ? UNSEEN : (AGAIN[repended.reason] ?? repended.reason)}</strong
          >${repended.approvedBy ? ` (approved by ${repended.approvedBy})` : ''}. ${drifted ? '' : `${repended.message} `}It waits for a new
          decision.
        </p>
        ${repended.worldBefore !== undefined && html`<${ArgsDiff} before=${pretty(repended.worldBefore)} after=${pretty(world)} />`}
      </div>`,
    approval.preparing &&
      html`<p class="preparing" role="status">What the tool depends on is being looked up; you can decide in a moment.</p>`,
    world !== undefined &&
      !repended?.worldBefore &&
      html`<div class="world">
        <h4>What the tool saw when the call was shown</h4>
        <pre class="json">${pretty(world)}</pre>
        <p class="muted">It looks again just before it runs: if this has changed, the call comes back here.</p>
      </div>`,
  ].filter(Boolean);
  if (!parts.length) return null;
  return html`<section class="who-decides" aria-labelledby="who-title">
    <h3 id="who-title">Who decides</h3>
    ${parts}
  </section>`;
}
