/** Narrow the queue to one agent and/or one tool; the choice lives in the URL so it can be bookmarked and shared. */
import { html } from 'htm/preact';
import { visibleText } from './visible-text.js';

export function filtersFromUrl() {
  const query = new URLSearchParams(location.search);
  return { agent: query.get('agent') ?? '', tool: query.get('tool') ?? '' };
}

export function filtersToUrl(filters) {
  const query = new URLSearchParams(Object.entries(filters).filter(([, value]) => value));
  history.replaceState(null, '', query.size ? `?${query}` : location.pathname);
}

/** @param {{filters: {agent: string, tool: string}, onChange: (f: object) => void, agents: string[], tools: string[]}} props */
export function Filters({ filters, onChange, agents, tools }) {
  return html`<form class="filters" role="search" aria-label="Filter approvals" onSubmit=${(event) => event.preventDefault()}>
    <div class="field">
      <label for="filter-agent">Agent</label>
      <input
        id="filter-agent"
        name="agent"
        list="agent-options"
        placeholder="All agents"
        autocomplete="off"
        value=${visibleText(filters.agent)}
        onChange=${(event) => onChange({ ...filters, agent: event.currentTarget.value.trim() })}
      />
      <datalist id="agent-options">${agents.map((agent) => html`<option value=${visibleText(agent)}></option>`)}</datalist>
    </div>
    <div class="field">
      <label for="filter-tool">Tool</label>
      <select
        id="filter-tool"
        name="tool"
        value=${filters.tool}
        onChange=${(event) => onChange({ ...filters, tool: event.currentTarget.value })}
      >
        <option value="">All tools</option>
        ${tools.map((tool) => html`<option value=${tool}>${tool}</option>`)}
      </select>
    </div>
  </form>`;
}
