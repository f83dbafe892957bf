/** Tokens sent to a run that checks none: refused, unless a sub-agent that checks them owns the call. */
import { describe, expect, it } from 'vitest';
import { toolSpecs } from '../tools/registry.js';
import { pendingApproval as pending } from '../../test/helpers/pending-approval.js';
import { planDecisions, type PlanContext } from './decision-plan.js';

const ctx: PlanContext = {
  pending: [pending('a', 'write_file', { path: 'a', content: 'x' })],
  decided: new Map(),
  available: ['write_file'],
  specs: toolSpecs,
};

describe('a token to a run that checks none', () => {
  const withToken = { decisions: [{ id: 'a', type: 'approve', token: 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJtYWxsb3J5In0.' }], approver: 'm' };

  it('is refused, not taken without its token', () => {
    const plan = planDecisions(withToken, { ...ctx, refusesUncheckedTokens: true });
    expect(plan.ok).toBe(false);
    expect(!plan.ok && plan.error).toMatchObject({
      code: 'tokens_unchecked',
      message: expect.stringContaining('checks no signed decisions'),
    });
    // Without a token the same decision is taken.
    expect(planDecisions({ ...withToken, decisions: [{ id: 'a', type: 'approve' }] }, { ...ctx, refusesUncheckedTokens: true }).ok).toBe(
      true,
    );
  });

  it('is taken without it in a run from before patch set 6, as when it was recorded', () => {
    expect(planDecisions(withToken, ctx).ok).toBe(true);
  });

  it("goes on with a sub-agent's call whose run checks it, unchecked here; any other call is refused", () => {
    const sub = { ...pending('s1/call-1', 'write_file', { path: 'n', content: 'y' }), subAgentWorkflowId: 'wf/s1' };
    const subCtx = { ...ctx, pending: [...ctx.pending, sub], refusesUncheckedTokens: true };
    const forSub = { decisions: [{ ...withToken.decisions[0]!, id: 's1/call-1' }], approver: 'm' };
    const passed = planDecisions(forSub, { ...subCtx, tokensCheckedByOwner: new Set(['s1/call-1']) });
    expect(passed.ok && passed.decisions[0]!.decision.token).toBe(withToken.decisions[0]!.token);
    // Not verified here, so no token of this run's is used up by it.
    expect(passed.ok && passed.decisions[0]!.token).toBeUndefined();
    expect(planDecisions(forSub, { ...subCtx, tokensCheckedByOwner: new Set() })).toMatchObject({
      ok: false,
      error: { code: 'tokens_unchecked' },
    });
    // The set names calls by their ids here: this run's own call of that id is still refused.
    expect(planDecisions(withToken, { ...subCtx, tokensCheckedByOwner: new Set(['a']) })).toMatchObject({
      ok: false,
      error: { code: 'tokens_unchecked' },
    });
  });
});
