/** One pending approval in full: what is asked, with which arguments, by when, and the run around it. */
import { html } from 'htm/preact';
import { Countdown } from './countdown.js';
import { DecisionPanel } from './decision-panel.js';
import { JsonView } from './json-view.js';
import { RunContext } from './run-context.js';
import { WhoDecides } from './who-decides.js';

const ON_TIMEOUT = {
  reject: 'it is rejected automatically',
  approve: 'it is approved automatically',
  fail: 'the run fails',
};

/**
 * Past this many characters a description is headed by its beginning, and the whole of it folds out below: a tool's
 * or the policy's text may run to 4 KiB (a call's whole arguments, say), and as a heading it pushed the arguments
 * and the buttons off the screen.
 */
const HEADLINE_CHARS = 240;

/** How much of a rule is shown: it quotes the policy's conditions, and may name an argument by its key (as `hitl review`). */
const RULE_CHARS = 1000;

/** `text` cut to `max` characters (code points), with an ellipsis when cut. */
function clipped(text, max) {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max).join('')}…`;
}

/** What a reader sees as one character (a flag, an emoji with its skin tone, a letter with its accent). */
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The description as the detail's heading: whole when short, else its beginning (whole characters) and a fold. */
function Headline({ description }) {
  const chars = Array.from(graphemes.segment(description), (s) => s.segment);
  if (chars.length <= HEADLINE_CHARS) return html`<h2 id="detail-title" tabindex="-1">${description}</h2>`;
  return html`<h2 id="detail-title" tabindex="-1">${chars.slice(0, HEADLINE_CHARS).join('')}…</h2>
    <details class="fold whole-description">
      <summary><span class="size">the whole description, ${chars.length.toLocaleString()} characters</span></summary>
      <p class="text">${description}</p>
    </details>`;
}

/** A stuck run cannot take decisions: say so, since when, why, and what to do, instead of offering buttons. */
function StuckNotice({ problem }) {
  const what =
    problem.kind === 'no_worker' ? 'no worker is polling its task queue' : `its workflow task keeps failing (${problem.attempts} attempts)`;
  return html`<section class="stuck" role="alert" aria-labelledby="stuck-title">
    <h3 id="stuck-title">This run is stuck: ${what}</h3>
    <p>Since ${new Date(problem.since).toLocaleString()}. Decisions cannot be taken until it is unstuck.</p>
    ${problem.failure && html`<pre class="failure">${problem.failure}</pre>`}
    <ol class="advice">
      ${problem.advice.map((line) => html`<li><${Advice} line=${line} /></li>`)}
    </ol>
  </section>`;
}

/** One piece of advice; a command in it (`temporal workflow …`) is set as code, to copy as it is. */
function Advice({ line }) {
  const at = line.indexOf('temporal workflow');
  if (at < 0) return line;
  return html`${line.slice(0, at)}<code class="command">${line.slice(at)}</code>`;
}

/** @param {{approval: any, runState: object, panel: object}} props `panel` is passed on to the DecisionPanel */
export function ApprovalDetail({ approval, runState, panel }) {
  const problem = runState.run?.problem;
  // Buttons only once the run is known not to be stuck (or could not be checked: the server refuses a stuck run).
  const checking = !runState.run && !runState.error;
  return html`<article class="detail" aria-labelledby="detail-title">
    <header class="detail-head">
      <p class="eyebrow">
        ${
          approval.subAgentWorkflowId
            ? html`<span>${approval.agent}, a sub-agent</span><span>its step ${approval.step}</span>`
            : html`<span>${approval.agent}</span><span>step ${approval.step}</span>`
        }
        ${approval.requestedBy && html`<span>requested by ${approval.requestedBy}</span>`}
      </p>
      <${Headline} description=${approval.description} />
      <dl class="facts">
        <div>
          <dt>Tool</dt>
          <dd><code>${approval.toolName}</code></dd>
        </div>
        <div>
          <dt>Deadline</dt>
          <dd>
            <${Countdown} deadline=${approval.deadline} live=${true} /><span class="then"
              >, then ${ON_TIMEOUT[approval.onTimeout] ?? approval.onTimeout}${problem ? ', once the run is unstuck' : ''}</span
            >
          </dd>
        </div>
        <div>
          <dt>Approvers</dt>
          <dd>${approval.approvers?.join(', ') ?? 'anyone'}</dd>
        </div>
        <div>
          <dt>Run</dt>
          <dd>
            <a href=${approval.temporalUiUrl} target="_blank" rel="noopener noreferrer"
              >Open in Temporal UI<span class="visually-hidden"> (new tab)</span></a
            >
          </dd>
        </div>
      </dl>
      ${approval.rule && html`<p class="rule">Waits by the rule <code>${clipped(approval.rule, RULE_CHARS)}</code></p>`}
    </header>
    <section class="arguments" aria-labelledby="args-title">
      <h3 id="args-title">Arguments</h3>
      <${JsonView} value=${approval.arguments} />
    </section>
    <${WhoDecides} approval=${approval} />
    ${
      problem
        ? html`<${StuckNotice} problem=${problem} />`
        : checking
          ? html`<p class="muted checking" role="status">Checking the run…</p>`
          : html`<${DecisionPanel} approval=${approval} ...${panel} />`
    }
    <${RunContext} approval=${approval} state=${runState} />
  </article>`;
}
