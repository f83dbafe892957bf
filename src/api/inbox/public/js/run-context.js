/**
 * What the run was asked and what happened since: the prompt and the transcript's tail, kept live (live-run.js),
 * with the model's text as it is written.
 */
import { html } from 'htm/preact';

const RECENT_MESSAGES = 6;
const FOLD_OVER_CHARS = 600;
const ROLE_NAMES = { user: 'User', assistant: 'Agent', tool: 'Tool result', system: 'System', note: 'Run' };

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

/** The model's text while it is being written (never folded: it grows in place). */
function LiveText({ live }) {
  return html`<li class="message assistant live" aria-live="off">
    <span class="role">Agent <span class="writing">writing…</span></span>
    <p class="text live-text">${live.text}</p>
  </li>`;
}

/** Our activity types, as a reader names what they do (as `hitl show` names them). */
const ACTIVITY_WORDS = { callModel: 'the model call', executeTool: 'the tool call' };

/**
 * What the run keeps trying again (the model API down, a tool's service failing), read from Temporal by the run's
 * state: the run itself sees nothing of it until the last attempt fails, so without this it only looks slow.
 */
function Retrying({ retrying }) {
  // Each line's text is built here, not in the template, where a line break would change the words' spacing.
  const line = (r) =>
    `: attempt ${r.attempt}${r.maximumAttempts ? ` of ${r.maximumAttempts}` : ''}` +
    `${r.nextAttemptAt ? `, next at ${new Date(r.nextAttemptAt).toLocaleTimeString()}` : ''}. `;
  return html`<ul class="retrying" role="status">
    ${retrying.map(
      (r) =>
        html`<li>
          Retrying ${ACTIVITY_WORDS[r.activity] ?? html`activity <code>${r.activity}</code>`}${line(r)}
          <span class="failure">Last failure: ${r.lastFailure}</span>
        </li>`,
    )}
  </ul>`;
}

/**
 * A run whose state did not fit in the next run's input stays in this run (as `hitl show` and the Temporal UI say):
 * it goes on, but its history keeps growing, and a decision on it after the worker let it go replays more.
 */
function CarryUnfit({ unfit }) {
  const text =
    `Could not continue as new at event ${unfit.historyLength}: its state was ${unfit.bytes} bytes, over the limit of ` +
    `${unfit.limit} (waiting calls, queued messages and the prompt cannot be shed). It goes on in this run and tries ` +
    'again at its next step.';
  return html`<p class="carry-unfit" role="status">${text}</p>`;
}

/** @param {{approval: any, state: {run?: any, view?: any, following?: boolean, error?: {headline: string}}}} props */
export function RunContext({ approval, state }) {
  const { run, view, error, following } = state;
  // The prompt is shown on its own; repeating it as the transcript's first message adds nothing.
  const messages = view?.messages.filter((m) => m.role !== 'system' && !(m.role === 'user' && m.content === approval.userPrompt)) ?? [];
  const recent = messages.slice(-RECENT_MESSAGES);

  return html`<section class="context" aria-labelledby="context-title">
    <h3 id="context-title">
      ${approval.subAgentWorkflowId ? 'The run that started this sub-agent' : 'The run'}${following ? html` <span class="following">live</span>` : ''}
    </h3>
    ${run?.retrying?.length > 0 && html`<${Retrying} retrying=${run.retrying} />`}
    ${run?.carryUnfit && html`<${CarryUnfit} unfit=${run.carryUnfit} />`}
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
                  ${view.live && html`<${LiveText} live=${view.live} />`}
                </ol>`
    }
  </section>`;
}
