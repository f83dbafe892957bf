/** What the run was asked and what happened just before this call: the prompt and the transcript's tail. */
import { html } from 'htm/preact';
import { usePolling } from './polling.js';
import { describeRefusal } from './refusals.js';

const RECENT_MESSAGES = 6;
const RUN_POLL_MS = 5000;
const FOLD_OVER_CHARS = 600;
const ROLE_NAMES = { user: 'User', assistant: 'Agent', tool: 'Tool result', system: 'System' };

/**
 * The run state (GET /api/runs/:id) of the selected approval, loaded when the approval changes and again every few
 * seconds (a run can get stuck while someone looks at it), or at once on `reload()`.
 */
export function useRunState(api, approval) {
  const polling = usePolling(() => (approval ? api.run(approval.workflowId) : Promise.resolve(undefined)), RUN_POLL_MS, [
    api,
    approval?.workflowId,
    approval?.id,
    approval?.argsHash,
  ]);
  return {
    workflowId: approval?.workflowId,
    run: polling.data,
    ...(polling.error && { error: describeRefusal(polling.error) }),
    reload: polling.refresh,
  };
}

function Text({ text }) {
  if (text.length <= FOLD_OVER_CHARS) return html`<p class="text">${text}</p>`;
  return html`<details class="fold">
    <summary><span class="preview">${text.slice(0, 160)}…</span> <span class="size">show all</span></summary>
    <p class="text">${text}</p>
  </details>`;
}

function Message({ message }) {
  return html`<li class=${`message ${message.role}`}>
    <span class="role">${ROLE_NAMES[message.role] ?? message.role}</span>
    ${message.content && html`<${Text} text=${message.content} />`}
    ${message.tool_calls?.map((call) => html`<code class="call">${call.function.name}(${call.function.arguments})</code>`)}
  </li>`;
}

/** @param {{approval: any, state: {run?: any, error?: {headline: string}}}} props */
export function RunContext({ approval, state }) {
  const { run, error } = state;
  // The prompt is shown on its own; repeating it as the transcript's first message adds nothing.
  const messages = run?.messages.filter((m) => m.role !== 'system' && !(m.role === 'user' && m.content === approval.userPrompt)) ?? [];
  const recent = messages.slice(-RECENT_MESSAGES);

  return html`<section class="context" aria-labelledby="context-title">
    <h3 id="context-title">The run</h3>
    <figure class="prompt">
      <figcaption>Prompt${approval.requestedBy ? ` from ${approval.requestedBy}` : ''}</figcaption>
      <blockquote>${approval.userPrompt}</blockquote>
    </figure>
    <h4>Recent transcript</h4>
    ${
      error
        ? html`<p class="muted">The transcript could not be loaded: ${error.headline}</p>`
        : !run
          ? html`<p class="muted">Loading the transcript…</p>`
          : run.problem
            ? html`<p class="muted">A stuck run cannot show its transcript; the Temporal UI shows its history.</p>`
            : html`${messages.length > recent.length && html`<p class="muted">The last ${recent.length} of ${messages.length} messages.</p>`}
                <ol class="transcript">
                  ${recent.map((message) => html`<${Message} message=${message} />`)}
                </ol>`
    }
  </section>`;
}
