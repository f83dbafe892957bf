/**
 * Fuzzed decisions against real runs, through the update, the signal and the HTTP API, with fast-check:
 * random sequences of valid and invalid input (duplicates included), and two approvers racing for one call.
 * Invariants: each gated call is decided at most once; a refused input changes nothing but the audit log; the
 * audit log accounts for every signal and every accepted update; bad input never fails a run.
 */
import { WorkflowNotFoundError, type WorkflowHandle } from '@temporalio/client';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAgent } from '../src/agents/define-agent.js';
import { demoAgent } from '../src/agents/demo.js';
import { encodeApprovalId } from '../src/contract/approval-id.js';
import { argsHash } from '../src/policy/args-hash.js';
import type { AuditEntry } from '../src/schemas/audit-entry.js';
import type { Decision } from '../src/schemas/decision.js';
import { signedDecision } from '../src/signing/sign-decision.js';
import { signRequestToken } from '../src/signing/sign-request.js';
import type { RunState } from '../src/schemas/run-state.js';
import { decideUpdate, decisionSignal, runStateQuery } from '../src/contract/messages.js';
import { waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';
import { uniqueName } from './helpers/temporal.js';
import type { Listening } from '../src/api/listen.js';
import { startTestApi } from './helpers/api.js';
import { newSigner, trustOf } from './helpers/signing.js';

const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });
const TOKENS = {
  'ann-fuzz-token-0123456789': { approver: 'ann', groups: ['finance'] },
  'bob-fuzz-token-0123456789': { approver: 'bob', groups: [] },
  'rita-fuzz-token-012345678': { approver: 'rita', groups: ['finance'] },
};
const WHO = ['ann', 'bob', 'rita'] as const;
/** Runs requested by rita, under the four-eyes rule, with cancel_order reserved to finance. */
const FUZZ_POLICY = { fourEyes: true, tools: { cancel_order: { approvers: ['finance'] } } };
/** The run's three calls get ids call-1, call-2, call-3 (write_file, cancel_order, execute_sql), plus one that never exists. */
const IDS = ['call-1', 'call-2', 'call-3', 'nope'];

let h: Harness;
let api: Listening;
let runCount = 0;
const counts = { runs: 0, inputs: 0, update: 0, signal: 0, http: 0, refused: 0, applied: 0, races: 0, signed: 0 };

/** Runs of `signeddemo` require every decision to carry a token this key signed. */
const signer = newSigner('EdDSA', 'fuzz');
const stranger = newSigner('EdDSA', 'fuzz');

beforeAll(async () => {
  h = await startHarness({
    agents: { signeddemo: defineAgent({ ...demoAgent, name: 'signeddemo', requireSignedDecisions: true }) },
    signedDecisions: { trust: trustOf([signer.key.publicJwk]), requiredByDefault: false },
    script: {
      conversations: [
        {
          match: 'fuzz run',
          replies: [
            {
              toolCalls: [
                call('w', 'write_file', { path: 'f.txt', content: 'x' }),
                call('c', 'cancel_order', { orderId: '1236' }),
                call('s', 'execute_sql', { query: 'SELECT 1' }),
              ],
            },
            { content: 'fuzz done' },
          ],
        },
      ],
    },
  });
  api = await startTestApi(h, { tokens: TOKENS, rateLimitPerMinute: 100_000 });
});
afterAll(async () => {
  await api?.close();
  await h?.close();
});

async function pausedRun(agent = 'demo'): Promise<WorkflowHandle> {
  const workflowId = uniqueName('fuzz');
  const prompt = `fuzz run ${++runCount}`;
  // A run whose decisions must be signed takes its requester (four eyes reads it) only from a request token.
  const requestToken = signRequestToken(signer, { workflowId, agent, prompt, requestedBy: 'rita', now: Date.now() });
  const handle = await h.start({ agent, prompt, requestedBy: 'rita', requestToken, approval: FUZZ_POLICY }, workflowId);
  await waitForPending(handle, 3);
  counts.runs++;
  return handle;
}

const state = (handle: WorkflowHandle): Promise<RunState> => handle.query(runStateQuery);
const appliedPerCall = (audit: AuditEntry[]) =>
  audit.filter((e) => e.outcome === 'applied').reduce<Record<string, number>>((n, e) => ({ ...n, [e.id!]: (n[e.id!] ?? 0) + 1 }), {});

// Inputs: mostly well-formed decisions for real, decided or unknown ids (duplicates arise on their own), plus junk.
const argsHashOf = { w: argsHash({ path: 'f.txt', content: 'x' }), c: argsHash({ orderId: '1236' }), s: argsHash({ query: 'SELECT 1' }) };
const hash = fc.option(fc.constantFrom(argsHashOf.w, argsHashOf.c, 'sha256:stale'), { nil: undefined });
const always = fc.option(fc.boolean(), { nil: undefined });
const approver = fc.option(fc.constantFrom(...WHO), { nil: undefined });
const decision = fc
  .oneof(
    fc.record({ id: fc.constantFrom(...IDS), type: fc.constantFrom('approve', 'reject'), argsHash: hash, always, approver }),
    fc.record({ id: fc.constantFrom(...IDS), type: fc.constant('respond'), message: fc.constant('done by hand') }),
    fc.record({
      id: fc.constantFrom(...IDS),
      type: fc.constant('edit'),
      args: fc.constantFrom({ path: 'f.txt', content: 'edited' }, { path: 7 }, { orderId: '1238' }),
      name: fc.option(fc.constantFrom('write_file', 'cancel_order', 'process_refund'), { nil: undefined }),
    }),
    fc.record({ type: fc.constantFrom('approve', 'reject') }),
  )
  .map((d) => Object.fromEntries(Object.entries(d).filter(([, v]) => v !== undefined)));
const input = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .record({
        decisions: fc.array(decision, { minLength: 1, maxLength: 3 }),
        approver,
        groups: fc.option(fc.constantFrom([], ['finance']), { nil: undefined }),
      })
      .map((d) => Object.fromEntries(Object.entries(d).filter(([, v]) => v !== undefined))),
  },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.jsonValue(),
      fc.record({ decisions: fc.constant([]) }),
      fc.record({ decisions: fc.array(fc.object(), { maxLength: 2 }) }),
    ),
  },
);
const channel = fc.constantFrom('update', 'signal', 'http');

/** Sends one input; true when it was applied, false when refused (for signals: as the audit log says). */
async function send(handle: WorkflowHandle, via: 'update' | 'signal' | 'http', payload: unknown, auditBefore: number): Promise<boolean> {
  counts[via]++;
  counts.inputs++;
  if (via === 'update')
    return handle.executeUpdate(decideUpdate, { args: [payload as never] }).then(
      () => true,
      () => false,
    );
  if (via === 'signal') {
    await handle.signal(decisionSignal, payload as never);
    await waitFor(async () => (await state(handle)).decisions.length > auditBefore, 60_000, 'the signal in the audit log');
    return (await state(handle)).decisions.slice(auditBefore).some((e) => e.outcome === 'applied');
  }
  // HTTP takes one decision per request; send the first decision of the input for its call.
  const first = (payload as { decisions?: { id?: string; type?: string; message?: string; args?: unknown }[] })?.decisions?.[0];
  const id = encodeApprovalId({ workflowId: handle.workflowId, callId: typeof first?.id === 'string' ? first.id : 'call-1' });
  const action = ['approve', 'reject', 'respond', 'edit'].includes(String(first?.type)) ? String(first!.type) : 'approve';
  const body = action === 'respond' ? { message: first?.message ?? '' } : action === 'edit' ? { arguments: first?.args } : {};
  const who = (payload as { approver?: string })?.approver;
  const token = Object.keys(TOKENS)[Math.max(0, WHO.indexOf(who as (typeof WHO)[number]))];
  const response = await fetch(`${api.url}/api/approvals/${id}/${action}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect([200, 400, 403, 404, 409]).toContain(response.status);
  return response.status === 200;
}

describe('decision fuzzing against real runs', () => {
  it('random sequences via update, signal and HTTP keep every invariant', { timeout: 600_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(channel, input), { minLength: 3, maxLength: 8 }), async (inputs) => {
        const handle = await pausedRun();
        for (const [via, payload] of inputs) {
          const before = await state(handle);
          // Once every call is decided the run finishes; later input has nothing to act on.
          if (before.pending.length === 0) break;
          const applied = await send(handle, via, payload, before.decisions.length);
          const after = await state(handle);
          if (applied) counts.applied++;
          else {
            counts.refused++;
            // Refused: the pending list is exactly as it was; only a signal leaves a trace (its audit entry).
            expect(after.pending).toEqual(before.pending);
            expect(after.decisions.length - before.decisions.length).toBe(via === 'signal' ? 1 : 0);
          }
          expect(Object.values(appliedPerCall(after.decisions)).every((n) => n === 1)).toBe(true);
          expect(after.status).not.toBe('Failed');
        }
        // Whatever happened, the run finishes once what is left is decided.
        const left = (await state(handle)).pending.map((p) => ({ id: p.id, type: 'reject' as const }));
        if (left.length) await handle.executeUpdate(decideUpdate, { args: [{ decisions: left, approver: 'ann', groups: ['finance'] }] });
        expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'fuzz done' });
        const final = await state(handle);
        // Each of the model's calls was decided exactly once (an edit into another tool may have added a proposal, `<id>.2`).
        expect(
          Object.keys(appliedPerCall(final.decisions))
            .filter((id) => !id.includes('.'))
            .sort(),
        ).toEqual(['call-1', 'call-2', 'call-3']);
      }),
      { numRuns: 20 },
    );
  });

  it('two approvers deciding the same call at once: exactly one wins, the other is told clearly', { timeout: 600_000 }, async () => {
    const pairs = fc.tuple(channel, channel, fc.constantFrom('call-1', 'call-2', 'call-3'));
    await fc.assert(
      fc.asyncProperty(pairs, async ([first, second, id]) => {
        const handle = await pausedRun();
        counts.races++;
        const outcomes = await Promise.all(
          [first, second].map(async (via, i) => {
            const type = i === 0 ? 'approve' : 'reject';
            if (via === 'update')
              return handle
                .executeUpdate(decideUpdate, { args: [{ decisions: [{ id, type }], approver: 'ann', groups: ['finance'] }] })
                .then(
                  () => 'won',
                  (e) => e.cause?.details?.[0]?.code,
                );
            if (via === 'signal')
              return handle
                .signal(decisionSignal, { decisions: [{ id, type }], approver: 'ann', groups: ['finance'] })
                .then(() => 'signal');
            const response = await fetch(
              `${api.url}/api/approvals/${encodeApprovalId({ workflowId: handle.workflowId, callId: id })}/${type}`,
              {
                method: 'POST',
                headers: { authorization: `Bearer ${Object.keys(TOKENS)[0]}`, 'content-type': 'application/json' },
                body: '{}',
              },
            );
            return response.status === 200
              ? 'won'
              : `${response.status} ${((await response.json()) as { error: { code: string } }).error.code}`;
          }),
        );
        // A (refused) update is processed after every signal accepted before it: a barrier for the signals.
        await handle.executeUpdate(decideUpdate, { args: [{ decisions: [] }] }).catch(() => undefined);
        const entries = (await state(handle)).decisions.filter((e) => e.id === id);
        expect(entries.filter((e) => e.outcome === 'applied')).toHaveLength(1);
        // The loser: an update gets already_decided, HTTP a 409, a signal a refused audit entry with the reason.
        for (const outcome of outcomes) expect(['won', 'signal', 'already_decided', '409 already_decided']).toContain(outcome);
        expect(outcomes.filter((o) => o === 'won').length).toBeLessThanOrEqual(1);
        if (!outcomes.includes('signal')) expect(outcomes.filter((o) => o !== 'won')).toHaveLength(1);
        const refusedSignal = entries.find((e) => e.outcome === 'refused');
        if (refusedSignal) expect(refusedSignal.refusal?.code).toBe('already_decided');
        await handle.terminate('race checked');
      }),
      { numRuns: 12 },
    );
  });

  it(
    'signed and unsigned decisions: a run that requires tokens applies only what a trusted key signed for that very decision',
    { timeout: 600_000 },
    async () => {
      const kinds = fc.constantFrom('valid', 'forged', 'other-call', 'none');
      const signedInput = fc.tuple(channel, fc.constantFrom('call-1', 'call-2', 'call-3'), fc.constantFrom('approve', 'reject'), kinds);
      await fc.assert(
        fc.asyncProperty(fc.boolean(), fc.array(signedInput, { minLength: 2, maxLength: 6 }), async (requireTokens, inputs) => {
          const handle = await pausedRun(requireTokens ? 'signeddemo' : 'demo');
          for (const [via, id, type, kind] of inputs) {
            const before = await state(handle);
            const call = before.pending.find((p) => p.id === id);
            if (!call) continue;
            const other = before.pending.find((p) => p.id !== id);
            // A token for another call needs another call to be for.
            if (kind === 'other-call' && !other) continue;
            const decision = { id, type } as Decision & { id: string };
            const signedFor = (key: typeof signer, target: typeof call) =>
              signedDecision(
                key,
                { ...decision, id: target.id },
                { workflowId: handle.workflowId, argsHash: target.argsHash, approver: 'ann', groups: ['finance'], now: Date.now() },
              );
            const sent =
              kind === 'valid'
                ? signedFor(signer, call)
                : kind === 'forged'
                  ? signedFor(stranger, call)
                  : kind === 'other-call'
                    ? { ...signedFor(signer, other!), id }
                    : decision;
            counts.signed++;
            const applied = await send(handle, via, { decisions: [sent], approver: 'ann', groups: ['finance'] }, before.decisions.length);
            const expected = kind === 'valid' || (kind === 'none' && !requireTokens);
            // HTTP sends no token of its own here (this API signs nothing): a run requiring tokens refuses it, any
            // other run applies it, whatever token the input had.
            const possible = via === 'http' ? !requireTokens : expected;
            expect(applied, `${via} ${kind} token, ${requireTokens ? 'required' : 'optional'}`).toBe(possible);
            if (!applied) expect((await state(handle)).pending).toEqual(before.pending);
          }
          // Once every call is decided the run completes on its own, and there is nothing left to terminate.
          await handle.terminate('signed fuzz checked').catch((err) => expect(err).toBeInstanceOf(WorkflowNotFoundError));
        }),
        { numRuns: 10 },
      );
      console.log(
        `decision fuzzing: ${counts.runs} runs, ${counts.inputs} inputs (update ${counts.update}, signal ${counts.signal}, http ${counts.http}), ` +
          `${counts.applied} applied, ${counts.refused} refused, ${counts.races} races, ${counts.signed} signed or unsigned against token rules`,
      );
    },
  );
});
