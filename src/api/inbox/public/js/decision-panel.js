/**
 * The buttons for exactly the decisions the tool allows, and the forms behind them. Someone who may not decide a
 * call sees why instead of buttons; the server would refuse them anyway.
 */
import { html } from 'htm/preact';
import { EditForm } from './edit-form.js';
import { TextForm } from './text-form.js';

/** Why the signed-in user may only look, in words, from the reason the API gives (`whyNot`, the planner's rule). */
function whyViewOnly(approval) {
  switch (approval.whyNot?.code) {
    case 'approver_not_allowed':
      return `Only ${approval.approvers.join(', ')} may decide this call; you are not an approver for ${approval.toolName}.`;
    case 'already_approved': {
      const missing = approval.requiredApprovals - approval.approvals.length;
      return `You have approved this call; it waits for ${missing} more approval${missing === 1 ? '' : 's'} from other people.`;
    }
    case 'four_eyes':
      return approval.whyNot.proposer
        ? `You wrote this call ${approval.whyNot.atBreakpoint ? 'at a breakpoint' : 'by an edit'}, so someone else has to approve it (the four-eyes rule).`
        : 'You requested this run, so someone else has to approve this call (the four-eyes rule).';
    default:
      return 'You may not decide this call.';
  }
}

/** What the proposer of a call, or the requester of its run, may still do about it: withdraw it (a reject, which the agent is told). */
function Withdrawal({ mode, onMode, busy, onDecide, argsHash, proposer }) {
  return html`<p>${proposer ? 'You proposed this call, so you may withdraw it.' : 'You may withdraw it: it will not run.'}</p>
    <div class="buttons" role="group" aria-label="Decisions">
      <button
        type="button"
        class="danger-outline"
        aria-keyshortcuts="r"
        aria-expanded=${mode === 'withdraw'}
        disabled=${busy}
        onClick=${() => onMode(mode === 'withdraw' ? null : 'withdraw')}
      >
        Withdraw…
      </button>
    </div>
    ${
      mode === 'withdraw' &&
      html`<${TextForm}
        id="withdraw-reason"
        title=${proposer ? 'Withdraw your proposal' : 'Withdraw this call'}
        label="Reason (the agent is told)"
        tone="danger"
        hint="The call will not run; the agent reads your reason and carries on."
        submitLabel="Withdraw"
        busy=${busy}
        onSubmit=${(reason) => onDecide('reject', { reason, argsHash })}
        onCancel=${() => onMode(null)}
      />`
    }`;
}

/**
 * @param {{approval: any, schema?: object, mode: string | null,
 *   onMode: (mode: string | null) => void, always: boolean, onAlways: (always: boolean) => void, busy: boolean,
 *   refusal?: {headline: string, detail?: string}, onDecide: (type: string, body: object) => void}} props
 */
export function DecisionPanel({ approval, schema, mode, onMode, always, onAlways, busy, refusal, onDecide }) {
  const allows = (type) => approval.allowedDecisions.includes(type);
  const { argsHash } = approval;

  return html`<section class="decide" aria-labelledby="decide-title" aria-busy=${busy ? 'true' : 'false'}>
    <h3 id="decide-title">Your decision</h3>
    ${
      !approval.canDecide
        ? html`<p class="view-only">${whyViewOnly(approval)}</p>
            ${
              approval.canWithdraw &&
              html`<${Withdrawal}
                mode=${mode}
                onMode=${onMode}
                busy=${busy}
                onDecide=${onDecide}
                argsHash=${argsHash}
                proposer=${!(approval.whyNot?.code === 'four_eyes' && !approval.whyNot.proposer)}
              />`
            }`
        : html`
            <div class="buttons" role="group" aria-label="Decisions">
              ${
                allows('approve') &&
                html`<button
                  type="button"
                  class="primary"
                  aria-keyshortcuts="a"
                  disabled=${busy}
                  onClick=${() => onDecide('approve', { argsHash, ...(always && { always: true }) })}
                >
                  Approve
                </button>`
              }
              ${
                allows('edit') &&
                html`<button
                  type="button"
                  aria-keyshortcuts="e"
                  aria-expanded=${mode === 'edit'}
                  disabled=${busy}
                  onClick=${() => onMode(mode === 'edit' ? null : 'edit')}
                >
                  Edit…
                </button>`
              }
              ${
                allows('reject') &&
                html`<button
                  type="button"
                  class="danger-outline"
                  aria-keyshortcuts="r"
                  aria-expanded=${mode === 'reject'}
                  disabled=${busy}
                  onClick=${() => onMode(mode === 'reject' ? null : 'reject')}
                >
                  Reject…
                </button>`
              }
              ${
                allows('respond') &&
                html`<button
                  type="button"
                  aria-expanded=${mode === 'respond'}
                  disabled=${busy}
                  onClick=${() => onMode(mode === 'respond' ? null : 'respond')}
                >
                  Respond…
                </button>`
              }
            </div>
            ${
              allows('approve') &&
              !approval.requiredApprovals &&
              html`<label class="checkbox">
                <input type="checkbox" checked=${always} onChange=${(event) => onAlways(event.currentTarget.checked)} />
                <!-- The spaces are in the strings: htm drops whitespace that holds a line break, which a reformat adds. -->
                <span
                  >${'Always approve '}<code>${approval.toolName}</code>${` for ${approval.subAgentWorkflowId ? `this run of ${approval.agent}` : 'this run'}`}</span
                >
              </label>`
            }
            ${
              mode === 'edit' &&
              html`<${EditForm}
                key=${approval.argsHash}
                approval=${approval}
                schema=${schema}
                busy=${busy}
                onSubmit=${(args) => onDecide('edit', { arguments: args, argsHash })}
                onCancel=${() => onMode(null)}
              />`
            }
            ${
              mode === 'reject' &&
              html`<${TextForm}
                id="reject-reason"
                title="Reject this call"
                label="Reason (the agent is told)"
                tone="danger"
                hint="The tool will not run; the agent reads your reason and carries on."
                submitLabel="Reject"
                busy=${busy}
                onSubmit=${(reason) => onDecide('reject', { reason, argsHash })}
                onCancel=${() => onMode(null)}
              />`
            }
            ${
              mode === 'respond' &&
              html`<${TextForm}
                id="respond-text"
                title="Answer for the tool"
                label="Result the agent receives"
                tone="primary"
                hint="The tool will not run; your text is its result."
                submitLabel="Send response"
                busy=${busy}
                onSubmit=${(message) => onDecide('respond', { message })}
                onCancel=${() => onMode(null)}
              />`
            }
          `
    }
    ${
      refusal &&
      html`<div class="refusal" role="alert">
        <strong>${refusal.headline}</strong>
        ${refusal.detail && html`<p class="detail">${refusal.detail}</p>`}
      </div>`
    }
  </section>`;
}
