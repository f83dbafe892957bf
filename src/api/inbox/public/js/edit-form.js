/** The edit decision: the arguments as JSON in a textarea, checked as you type, with a diff against the original. */
import { diffLines } from 'diff';
import { html } from 'htm/preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { checkEditedArgs } from './edit-check.js';
import { visibleJson } from './visible-text.js';

// Hidden characters as JSON escapes: the approver sees them, and the text parses to the arguments as they are.
const pretty = visibleJson;

export function ArgsDiff({ before, after }) {
  const parts = useMemo(() => diffLines(before, after), [before, after]);
  if (!parts.some((p) => p.added || p.removed)) return html`<p class="muted">No changes yet.</p>`;
  return html`<pre class="diff">
${parts.flatMap((part) => {
      const lines = part.value.replace(/\n$/, '').split('\n');
      if (part.added) return lines.map((line) => html`<ins>+ ${line}${'\n'}</ins>`);
      if (part.removed) return lines.map((line) => html`<del>- ${line}${'\n'}</del>`);
      return lines.map((line) => html`<span>${'  '}${line}${'\n'}</span>`);
    })}</pre>`;
}

/**
 * @param {{approval: any, schema?: object, busy: boolean, onSubmit: (args: object) => void, onCancel: () => void}} props
 */
export function EditForm({ approval, schema, busy, onSubmit, onCancel }) {
  const original = useMemo(() => pretty(approval.arguments), [approval.argsHash]);
  const [text, setText] = useState(original);
  const [refused, setRefused] = useState(false);
  const check = useMemo(() => checkEditedArgs(text, schema), [text, schema]);
  const field = useRef(null);
  useEffect(() => field.current?.focus(), []);

  const submit = (event) => {
    event.preventDefault();
    // Refused here, in the page: an invalid edit never reaches the run.
    if (check.problems) return setRefused(true);
    onSubmit(check.args);
  };
  const onKeyDown = (event) => {
    if (event.key === 'Escape') onCancel();
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      event.currentTarget.requestSubmit();
    }
  };

  return html`<form class="decision-form" onSubmit=${submit} onKeyDown=${onKeyDown} aria-labelledby="edit-title" novalidate>
    <h4 id="edit-title">Edit the arguments</h4>
    <label for="edit-args">Arguments as JSON, checked against the schema of <code>${approval.toolName}</code></label>
    <textarea
      id="edit-args"
      ref=${field}
      rows=${Math.min(16, Math.max(5, text.split('\n').length + 1))}
      spellcheck="false"
      autocomplete="off"
      value=${text}
      aria-invalid=${check.problems ? 'true' : 'false'}
      aria-describedby="edit-check"
      onInput=${(event) => {
        setText(event.currentTarget.value);
        setRefused(false);
      }}
    ></textarea>
    <div id="edit-check" class=${`check ${check.problems ? 'bad' : 'good'}`}>
      ${
        check.problems
          ? html`<ul>
              ${check.problems.map((problem) => html`<li>${problem}</li>`)}
            </ul>`
          : schema
            ? 'These arguments fit the tool.'
            : 'The tool’s schema is not available here; the server will check the arguments.'
      }
    </div>
    ${
      refused &&
      html`<div class="refusal" role="alert">
        <strong>Not sent: the edited arguments do not fit the tool.</strong>
        <p class="detail">Fix the problems listed above, then send again. Nothing was decided.</p>
      </div>`
    }
    <h5>Changes against the original</h5>
    <${ArgsDiff} before=${original} after=${check.args ? pretty(check.args) : text} />
    <div class="form-actions">
      <button type="submit" class="primary" disabled=${busy}>Send edited arguments</button>
      <button type="button" onClick=${onCancel}>Cancel</button>
    </div>
  </form>`;
}
