/**
 * Tool arguments, readable: one row per argument, each value as highlighted JSON; long values start folded so one
 * big email body does not push the decision buttons off the screen.
 */
import hljs from 'highlight.js/core';
import json from 'highlight.js/json';
import { html } from 'htm/preact';
import { useMemo } from 'preact/hooks';
import { visibleJson } from './visible-text.js';

hljs.registerLanguage('json', json);

const FOLD_OVER_CHARS = 200;
const FOLD_OVER_LINES = 8;

/** highlight.js escapes the text it is given, so its markup is safe to insert. */
function HighlightedJson({ text }) {
  const markup = useMemo(() => hljs.highlight(text, { language: 'json' }).value, [text]);
  return html`<pre class="json"><code class="hljs language-json" dangerouslySetInnerHTML=${{ __html: markup }}></code></pre>`;
}

function JsonValue({ value }) {
  const text = visibleJson(value);
  const long = text.length > FOLD_OVER_CHARS || text.split('\n').length > FOLD_OVER_LINES;
  if (!long) return html`<${HighlightedJson} text=${text} />`;
  return html`<details class="fold">
    <summary>
      <span class="preview">${text.replace(/\s+/g, ' ').slice(0, 90)}…</span>
      <span class="size">${text.length.toLocaleString()} characters, show all</span>
    </summary>
    <${HighlightedJson} text=${text} />
  </details>`;
}

/** @param {{value: unknown}} props */
export function JsonView({ value }) {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return html`<${JsonValue} value=${value} />`;
  const entries = Object.entries(value);
  if (!entries.length) return html`<p class="muted">No arguments.</p>`;
  return html`<dl class="args">
    ${entries.map(
      ([key, item]) =>
        html`<div class="arg" key=${key}>
          <dt>${key}</dt>
          <dd><${JsonValue} value=${item} /></dd>
        </div>`,
    )}
  </dl>`;
}
