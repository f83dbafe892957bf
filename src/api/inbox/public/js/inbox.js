/**
 * The signed-in inbox: the queue on one side, the selected approval on the other, kept current by polling, with
 * single-key shortcuts. Sending decisions and what happens around them (announcements, refusals) lives here.
 */
import { html } from 'htm/preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { createApi } from './api.js';
import { ApprovalDetail } from './approval-detail.js';
import { ApprovalList } from './approval-list.js';
import { BulkBar } from './bulk-bar.js';
import { Filters, filtersFromUrl, filtersToUrl } from './filters.js';
import { useShortcuts } from './keyboard.js';
import { usePolling } from './polling.js';
import { useReadFirst } from './read-first.js';
import { describeRefusal } from './refusals.js';
import { useLiveRun } from './live-run.js';
import { useWholeCall } from './whole-call.js';
import { RunContext } from './run-context.js';

const POLL_MS = 2000;
const DONE = { approve: 'Approved', edit: 'Sent edited arguments for', reject: 'Rejected', respond: 'Answered for' };
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
/** Whether a decision settled its call: an approval that is one of several leaves the call waiting for the rest. */
const settled = (applied) => !(applied?.quorum && applied.quorum.approvals < applied.quorum.required);
const focusItem = (id) => document.querySelector(`[data-approval-id="${CSS.escape(id)}"]`)?.focus();
const narrowScreen = () => matchMedia('(max-width: 56rem)').matches;

/** @param {{token: string, identity: {approver: string, groups: string[]}, onSignOut: (why?: string) => void}} props */
export function Inbox({ token, identity, onSignOut }) {
  const api = useMemo(() => createApi(token), [token]);
  const [filters, setFilters] = useState(filtersFromUrl);
  const [tools, setTools] = useState([]);
  const [selectedId, setSelectedId] = useState(undefined);
  const [mode, setMode] = useState(null);
  const [always, setAlways] = useState(false);
  const [sending, setSending] = useState(false);
  const [refusal, setRefusal] = useState(undefined);
  const [announcement, setAnnouncement] = useState('');
  // Ids this page decided: hidden at once, even if the next listing still shows them for a moment.
  const [decidedHere, setDecidedHere] = useState(() => new Set());
  // The last call decided here, and how: its run is followed live while nothing else is there to select.
  const [followed, setFollowed] = useState(undefined);
  // Calls checked for a bulk decision, and what the runs refused of the last one.
  const [checked, setChecked] = useState(() => new Set());
  const [bulkRefusals, setBulkRefusals] = useState([]);

  useEffect(() => {
    api.tools().then(setTools, () => setTools([]));
  }, [api]);
  useEffect(() => filtersToUrl(filters), [filters]);
  const schemas = useMemo(() => Object.fromEntries(tools.map((tool) => [tool.name, tool.parameters])), [tools]);

  const listing = usePolling(() => api.approvals(filters), POLL_MS, [api, filters.agent, filters.tool]);
  const approvals = useMemo(() => (listing.data?.items ?? []).filter((a) => !decidedHere.has(a.id)), [listing.data, decidedHere]);
  const checkedApprovals = approvals.filter((a) => checked.has(a.id) && a.canDecide && !a.argumentsTruncated);
  const selected = approvals.find((a) => a.id === selectedId);
  const agents = useMemo(
    () => [...new Set([...(listing.data?.items ?? []).map((a) => a.agent), filters.agent].filter(Boolean))].sort(),
    [listing.data, filters.agent],
  );
  // MCP tools' schemas are the run's own (recorded when it started): fetched for a call whose tool is not one of ours.
  const [runSchemas, setRunSchemas] = useState({});
  const selectedRun = selected && !schemas[selected.toolName] ? selected.workflowId : undefined;
  useEffect(() => {
    if (!selectedRun || runSchemas[selectedRun]) return;
    api.runTools(selectedRun).then(
      (list) => setRunSchemas((known) => ({ ...known, [selectedRun]: Object.fromEntries(list.map((t) => [t.name, t.parameters])) })),
      () => {},
    );
  }, [api, selectedRun]);
  const runState = useLiveRun(api, selected ?? followed?.approval);
  const { shown, failure: wholeFailure } = useWholeCall(api, selected);

  useEffect(() => {
    if (listing.error?.status === 401) onSignOut('Your token is no longer accepted. Sign in again.');
  }, [listing.error]);

  // Announce what arrived and what left, and keep a selection: the item that took the place of one that left.
  const previous = useRef(undefined);
  useEffect(() => {
    if (!listing.data) {
      previous.current = undefined;
      return;
    }
    const before = previous.current;
    previous.current = approvals;
    if (before) {
      const now = new Set(approvals.map((a) => a.id));
      const had = new Set(before.map((a) => a.id));
      const arrived = approvals.filter((a) => !had.has(a.id));
      const left = before.filter((a) => !now.has(a.id) && !decidedHere.has(a.id));
      const lines = [];
      if (arrived.length === 1) lines.push(`New approval: ${arrived[0].toolName} in ${arrived[0].agent}.`);
      if (arrived.length > 1) lines.push(`${plural(arrived.length, 'new approval')}.`);
      if (left.some((a) => a.id === selectedId))
        lines.push('The call you were looking at was decided elsewhere or timed out; it left the list.');
      else if (left.length) lines.push(`${plural(left.length, 'approval')} decided elsewhere left the list.`);
      if (lines.length) setAnnouncement(lines.join(' '));
    }
    if (!approvals.some((a) => a.id === selectedId)) {
      const index = before?.findIndex((a) => a.id === selectedId) ?? -1;
      setSelectedId(approvals[Math.min(Math.max(index, 0), approvals.length - 1)]?.id);
    }
  }, [approvals]);

  // A different call starts from a clean slate: no open form, no sticky approval, no old refusal.
  useEffect(() => {
    setMode(null);
    setAlways(false);
    setRefusal(undefined);
  }, [selectedId]);

  const decide = async (approval, type, body) => {
    if (sending) return;
    setSending(true);
    setRefusal(undefined);
    try {
      const result = await api[type](approval.id, body);
      if (settled(result?.applied?.[0])) setDecidedHere((ids) => new Set(ids).add(approval.id));
      setFollowed({ approval, type });
      setAnnouncement(`${DONE[type]} ${approval.toolName} (${approval.agent}).`);
    } catch (error) {
      if (error.status === 401) return onSignOut('Your token is no longer accepted. Sign in again.');
      setRefusal(describeRefusal(error));
      // The run got stuck since its state was loaded: load it again, and the stuck notice replaces the buttons.
      if (error.code === 'run_stuck') runState.reload();
    } finally {
      setSending(false);
      listing.refresh();
    }
  };

  /** One request per run: each applies all of its decisions or none (the same rules as one call at a time). */
  const decideChecked = async (type, reason) => {
    if (sending || !checkedApprovals.length) return;
    setSending(true);
    setBulkRefusals([]);
    const byRun = new Map();
    for (const a of checkedApprovals) byRun.set(a.workflowId, [...(byRun.get(a.workflowId) ?? []), a]);
    const outcomes = await Promise.all(
      [...byRun].map(([workflowId, calls]) =>
        api
          .decideMany(
            workflowId,
            calls.map((a) => ({ id: a.callId, type, argsHash: a.argsHash, ...(reason && { message: reason }) })),
          )
          .then(
            (result) => ({ calls, result }),
            (error) => ({ calls, error }),
          ),
      ),
    );
    setSending(false);
    if (outcomes.some((o) => o.error?.status === 401)) return onSignOut('Your token is no longer accepted. Sign in again.');
    const done = outcomes.filter((o) => !o.error).flatMap((o) => o.calls);
    const refused = outcomes.filter((o) => o.error);
    const gone = outcomes.flatMap((o) => (o.error ? [] : o.calls.filter((a) => settled(o.result.applied.find((x) => x.id === a.callId)))));
    setDecidedHere((ids) => new Set([...ids, ...gone.map((a) => a.id)]));
    setChecked((ids) => new Set([...ids].filter((id) => !done.some((a) => a.id === id))));
    setBulkRefusals(
      refused.map(({ calls, error }) => ({
        label: `${calls[0].agent} (${plural(calls.length, 'call')}, none decided)`,
        ...describeRefusal(error),
      })),
    );
    setAnnouncement(
      `${type === 'approve' ? 'Approved' : 'Rejected'} ${plural(done.length, 'call')}.` +
        (refused.length
          ? ` ${plural(
              refused.reduce((n, o) => n + o.calls.length, 0),
              'call',
            )} in ${plural(refused.length, 'run')} not decided.`
          : ''),
    );
    listing.refresh();
  };
  const check = (id, on) =>
    setChecked((ids) => {
      const next = new Set(ids);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const select = (id, { viaKeyboard = false } = {}) => {
    setSelectedId(id);
    if (viaKeyboard) focusItem(id);
    else if (narrowScreen()) requestAnimationFrame(() => document.getElementById('detail-title')?.focus());
  };
  const move = (step) => {
    const index = approvals.findIndex((a) => a.id === selectedId);
    const next = approvals[Math.min(Math.max(index + step, 0), approvals.length - 1)];
    if (next) select(next.id, { viaKeyboard: true });
  };
  // Keys do what the buttons do, and only when the buttons are there: never on a stuck run, nor before it is checked.
  const decidable = Boolean(runState.run && !runState.run.problem) || Boolean(runState.error);
  const readable = useReadFirst(selectedId, decidable);
  const allows = (type) => decidable && !shown?.argumentsTruncated && selected?.canDecide && selected.allowedDecisions.includes(type);
  const withdrawable = decidable && !shown?.argumentsTruncated && selected?.canWithdraw;
  useShortcuts({
    j: () => move(1),
    k: () => move(-1),
    a: () => {
      if (!allows('approve')) return;
      if (!readable) return setAnnouncement(`Not approved: ${selected.toolName} came up a moment ago. Read it, then press a again.`);
      decide(selected, 'approve', { argsHash: selected.argsHash, ...(always && { always: true }) });
    },
    e: () => allows('edit') && setMode('edit'),
    r: () => (allows('reject') ? setMode('reject') : withdrawable && setMode('withdraw')),
    Escape: () => setMode(null),
  });

  return html`<div class="layout">
    <header class="topbar">
      <h1>Approval inbox</h1>
      <p class="identity">
        Signed in as <strong>${identity.approver}</strong>
        ${identity.groups.length > 0 && html` <span class="groups">(${identity.groups.join(', ')})</span>`}
      </p>
      <button type="button" class="quiet" onClick=${() => onSignOut()}>Sign out</button>
    </header>
    <p class="announcement" role="status" aria-live="polite">${announcement}</p>
    <main class="columns">
      <section class="queue" aria-labelledby="queue-title">
        <h2 id="queue-title">Waiting for a decision <span class="count">${approvals.length}</span></h2>
        <${Filters} filters=${filters} onChange=${setFilters} agents=${agents} tools=${tools.map((t) => t.name)} />
        ${
          listing.error &&
          listing.error.status !== 401 &&
          html`<p class="refusal" role="alert">
            The list could not be refreshed: ${describeRefusal(listing.error).headline} Trying again.
          </p>`
        }
        ${
          listing.data?.unreadableRuns > 0 &&
          html`<p class="refusal unreadable-runs" role="alert">
            ${plural(listing.data.unreadableRuns, 'waiting run')} could not be read by the approval API (encrypted with keys it lacks, or
            not answering), so their calls are not listed here. The API's log names them.
          </p>`
        }
        <${BulkBar}
          count=${checkedApprovals.length}
          busy=${sending}
          refusals=${bulkRefusals}
          onApprove=${() => decideChecked('approve')}
          onReject=${(reason) => decideChecked('reject', reason)}
          onClear=${() => {
            setChecked(new Set());
            setBulkRefusals([]);
          }}
        />
        <${ApprovalList}
          approvals=${approvals}
          selectedId=${selectedId}
          onSelect=${(id) => select(id)}
          loading=${!listing.data && !listing.error}
          checked=${checked}
          onCheck=${check}
        />
      </section>
      ${
        selected
          ? html`<${ApprovalDetail}
              key=${selected.id}
              approval=${shown}
              runState=${runState}
              panel=${{
                schema: schemas[selected.toolName] ?? runSchemas[selected.workflowId]?.[selected.toolName],
                mode,
                onMode: setMode,
                always,
                onAlways: setAlways,
                busy: sending || !readable || Boolean(shown.argumentsTruncated),
                refusal: refusal ?? wholeFailure,
                onDecide: (type, body) => decide(selected, type, body),
              }}
            />`
          : followed && !approvals.length
            ? html`<article class="detail followed" aria-labelledby="followed-title">
                <h2 id="followed-title">${DONE[followed.type]} ${followed.approval.toolName}; the run goes on.</h2>
                <p class="muted">When an agent’s tool call needs a human, it shows up here.</p>
                <${RunContext} approval=${followed.approval} state=${runState} />
              </article>`
            : html`<section class="detail placeholder" aria-label="Selected approval">
                <p>
                  ${approvals.length ? 'Select an approval to see its arguments and the run.' : 'When an agent’s tool call needs a human, it shows up here.'}
                </p>
              </section>`
      }
    </main>
    <footer class="keys" aria-label="Keyboard shortcuts">
      <span><kbd>j</kbd> <kbd>k</kbd> next / previous</span>
      <span><kbd>a</kbd> approve</span>
      <span><kbd>e</kbd> edit</span>
      <span><kbd>r</kbd> reject</span>
      <span><kbd>Esc</kbd> close the form</span>
    </footer>
  </div>`;
}
