/** The seeds' decision shapes: what each becomes here, what the planner makes of it, and tokens over them. */
import { describe, expect, it } from 'vitest';
import { NOW, newSigner, trustOf } from '../../test/helpers/signing.js';
import { argsHash } from '../policy/args-hash.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import { decisionBinding } from '../signing/decision-claims.js';
import { signDecisionToken } from '../signing/sign-decision.js';
import { toolSpecs } from '../tools/registry.js';
import { planDecisions, type PlanContext } from '../workflows/decision-plan.js';
import { ACCEPTED_SHAPES, normalizeDecisionInput } from './seed-decisions.js';

const FILE = { path: 'a.txt', content: 'x' };
const call = (id: string, args: Record<string, unknown>): PendingApproval => ({
  id,
  toolName: 'write_file',
  args,
  argsHash: argsHash(args),
  description: `Write ${String(args.path)}`,
  allowedDecisions: ['approve', 'edit', 'reject', 'respond', 'ignore'],
  requestedAt: '2026-07-01T00:00:00.000Z',
  deadline: '2026-07-08T00:00:00.000Z',
  step: 1,
  onTimeout: 'reject',
  rule: 'test',
});
const ctx: PlanContext = {
  pending: [call('call-1', FILE), call('call-2', { path: 'b.txt', content: 'y' })],
  decided: new Map(),
  available: ['write_file', 'read_data'],
  specs: toolSpecs,
};
const normalized = (raw: unknown) => {
  const n = normalizeDecisionInput(raw);
  return n.ok ? n.input : n.message;
};
const planned = (raw: unknown, context = ctx) => {
  const plan = planDecisions(raw, context);
  return plan.ok
    ? plan.decisions.map((d) => [d.call.id, d.decision.type, d.toolName, d.args])
    : `${plan.error.code}: ${plan.error.message}`;
};

describe('normalizeDecisionInput', () => {
  it("turns LangChain's edited_action into an edit's name and args, and leaves other decisions as they are", () => {
    const resume = {
      decisions: [
        { type: 'edit', edited_action: { name: 'write_file', args: { path: 'c.txt', content: 'z' } } },
        { type: 'reject', message: 'not that file' },
      ],
    };
    expect(normalized(resume)).toEqual({
      decisions: [
        { type: 'edit', name: 'write_file', args: { path: 'c.txt', content: 'z' } },
        { type: 'reject', message: 'not that file' },
      ],
    });
  });

  it('maps each LangGraph HumanResponse type, alone or in a list', () => {
    const action = { action: 'write_file', args: FILE };
    expect(normalized({ type: 'accept', args: null })).toEqual({ decisions: [{ type: 'approve' }] });
    expect(
      normalized([
        { type: 'accept', args: action },
        { type: 'ignore', args: null },
        { type: 'response', args: 'done by hand' },
        { type: 'edit', args: { action: 'write_file', args: { path: 'd.txt', content: '' } }, approver: 'ann' },
      ]),
    ).toEqual({
      decisions: [
        { type: 'approve', toolName: 'write_file', argsHash: argsHash(FILE) },
        { type: 'ignore' },
        { type: 'respond', message: 'done by hand' },
        { type: 'edit', name: 'write_file', args: { path: 'd.txt', content: '' }, approver: 'ann' },
      ],
    });
  });

  it('says what is wrong with a malformed seed shape', () => {
    expect(normalized({ type: 'accept', args: 'yes' })).toContain('HumanResponse is invalid');
    expect(normalized([{ type: 'ignore' }, { type: 'edit', args: 'x' }])).toContain('HumanResponse [1] is invalid');
    expect(normalized({ decisions: [{ type: 'approve', edited_action: { name: 'x', args: {} } }] })).toContain('belongs to an edit');
    expect(normalized({ decisions: [{ type: 'edit', edited_action: { name: 'x', args: {} }, args: {} }] })).toContain('not both');
    expect(normalized({ decisions: [{ type: 'edit', edited_action: { args: {} } }] })).toContain('edited_action is invalid');
  });
});

describe('planDecisions with the seeds’ shapes', () => {
  it('applies a LangChain resume in order to the oldest batch', () => {
    const resume = {
      decisions: [{ type: 'edit', edited_action: { name: 'write_file', args: { path: 'c.txt', content: 'z' } } }, { type: 'approve' }],
    };
    expect(planned(resume)).toEqual([
      ['call-1', 'edit', 'write_file', { path: 'c.txt', content: 'z' }],
      ['call-2', 'approve', 'write_file', { path: 'b.txt', content: 'y' }],
    ]);
  });

  it('applies LangGraph responses one per call, ignore included', () => {
    expect(
      planned([
        { type: 'ignore', args: null },
        { type: 'response', args: 'no' },
      ]),
    ).toEqual([
      ['call-1', 'ignore', 'write_file', FILE],
      ['call-2', 'respond', 'write_file', { path: 'b.txt', content: 'y' }],
    ]);
  });

  it('refuses an accept whose ActionRequest is not the call waiting (other arguments or another tool)', () => {
    expect(planned({ type: 'accept', args: { action: 'write_file', args: FILE }, id: 'call-1' })).toEqual([
      ['call-1', 'approve', 'write_file', FILE],
    ]);
    expect(planned({ type: 'accept', args: { action: 'write_file', args: { path: 'a.txt' } }, id: 'call-1' })).toMatch(
      /^args_hash_mismatch/,
    );
    expect(planned({ type: 'accept', args: { action: 'read_data', args: FILE }, id: 'call-1' })).toMatch(
      /^tool_mismatch: Your decision names the tool read_data, but write_file \(call-1\) is a call of write_file/,
    );
  });

  it('refuses ignore where the policy does not allow it', () => {
    const strict = { ...ctx, pending: [{ ...call('call-1', FILE), allowedDecisions: ['approve' as const, 'reject' as const] }] };
    expect(planned({ type: 'ignore' }, strict)).toMatch(/^decision_not_allowed: ignore is not allowed/);
  });

  it('refuses a shape that matches none, naming the accepted shapes', () => {
    for (const raw of [{ approve: true }, { type: 'approve' }, { decisions: [{ type: 'accept' }] }, 'yes', null]) {
      const result = planned(raw);
      expect(result).toMatch(/^malformed: Malformed decision input/);
      expect(result).toContain(ACCEPTED_SHAPES);
    }
  });

  it('refuses as malformed a number JSON cannot hold (1e400 reads as Infinity), in any shape, saying where it is', () => {
    const cases: [string, string][] = [
      ['{"type": "accept", "args": {"action": "write_file", "args": {"path": "a.txt", "n": 1e400}}}', 'args.args.n'],
      ['[{"type": "edit", "args": {"action": "write_file", "args": {"path": "a.txt", "n": -1e400}}}]', '[0].args.args.n'],
      ['{"decisions": [{"type": "edit", "name": "write_file", "args": {"path": "a.txt", "n": [1, 1e400]}}]}', 'decisions[0].args.n[1]'],
    ];
    for (const [json, where] of cases) {
      expect(planned(JSON.parse(json))).toBe(
        `malformed: Malformed decision input: ${where} is a number JSON cannot hold (one like 1e400 is read as Infinity).`,
      );
    }
  });

  it('verifies a token against the decision a seed shape becomes', () => {
    const signer = newSigner('EdDSA', 'seed-key');
    const signing = {
      required: true,
      trust: trustOf([signer.key.publicJwk]),
      now: NOW,
      rootWorkflowId: 'wf-1',
      shownIdPrefix: '',
      usedTokenIds: new Set<string>(),
    };
    const tokenFor = (decision: Parameters<typeof decisionBinding>[2]) =>
      signDecisionToken(signer, { binding: decisionBinding('wf-1', argsHash(FILE), decision), approver: 'ann', now: NOW, ttlSeconds: 60 });
    const newArgs = { path: 'c.txt', content: 'z' };
    // LangChain's edit is signed as {type: 'edit', name, args}; LangGraph's response as {type: 'respond', message}.
    const editToken = tokenFor({ id: 'call-1', type: 'edit', name: 'write_file', args: newArgs });
    const signedCtx = { ...ctx, pending: [ctx.pending[0]!], signing };
    const edit = { decisions: [{ type: 'edit', edited_action: { name: 'write_file', args: newArgs }, token: editToken }] };
    expect(planned(edit, signedCtx)).toEqual([['call-1', 'edit', 'write_file', newArgs]]);
    const respondToken = tokenFor({ id: 'call-1', type: 'respond', message: 'done' });
    expect(planned({ type: 'response', args: 'done', token: respondToken }, signedCtx)).toEqual([
      ['call-1', 'respond', 'write_file', FILE],
    ]);
    expect(planned({ type: 'response', args: 'other', token: respondToken }, signedCtx)).toMatch(/^token_refused: .*content_mismatch/);
  });
});
