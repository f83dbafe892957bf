/** A decision that needs words: the reason for a rejection, or the text that answers for the tool. */
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * @param {{id: string, title: string, label: string, hint: string, submitLabel: string, tone: string, busy: boolean,
 *   onSubmit: (text: string) => void, onCancel: () => void}} props
 */
export function TextForm({ id, title, label, hint, submitLabel, tone, busy, onSubmit, onCancel }) {
  const [text, setText] = useState('');
  const field = useRef(null);
  useEffect(() => field.current?.focus(), []);

  const onKeyDown = (event) => {
    if (event.key === 'Escape') onCancel();
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      event.currentTarget.requestSubmit();
    }
  };
  return html`<form
    class="decision-form"
    aria-labelledby=${`${id}-title`}
    onKeyDown=${onKeyDown}
    onSubmit=${(event) => {
      event.preventDefault();
      onSubmit(text.trim());
    }}
  >
    <h4 id=${`${id}-title`}>${title}</h4>
    <label for=${id}>${label}</label>
    <textarea
      id=${id}
      ref=${field}
      rows="3"
      required
      aria-describedby=${`${id}-hint`}
      value=${text}
      onInput=${(event) => setText(event.currentTarget.value)}
    ></textarea>
    <p class="hint" id=${`${id}-hint`}>${hint} <kbd>Ctrl</kbd>+<kbd>Enter</kbd> sends, <kbd>Esc</kbd> cancels.</p>
    <div class="form-actions">
      <button type="submit" class=${tone} disabled=${busy}>${submitLabel}</button>
      <button type="button" onClick=${onCancel}>Cancel</button>
    </div>
  </form>`;
}
