import { describe, expect, it } from 'vitest';
import { argsHash } from '../policy/args-hash.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import { ApprovalPolicy } from '../schemas/approval-policy.js';
import { toolSpecs } from '../tools/registry.js';
import { pendingApproval as pending } from '../../test/helpers/pending-approval.js';
import { NOW, newSigner, token, trustOf } from '../../test/helpers/signing.js';
import { planDecisions, type PlanContext } from './decision-plan.js';

const ctx: PlanContext = {
  pending: [
    pending('a', 'write_file', { path: 'a', content: 'x' }),
    pending('b', 'process_refund', { orderId: '1', amount: 20000 }, { approvers: ['finance', 'cfo'], excludedApprovers: ['rita'] }),
    pending('c', 'execute_sql', { query: 'SELECT 1' }, { step: 2, allowedDecisions: ['approve', 'reject'] }),
  ],
  decided: new Map([['z', { type: 'reject', approver: 'ann' }]]),
  available: ['write_file', 'process_refund', 'execute_sql', 'cancel_order'],
  specs: toolSpecs,
};

const code = (raw: unknown) => {
  const plan = planDecisions(raw, ctx);
  return plan.ok ? 'ok' : plan.error.code;
};

describe('planDecisions', () => {
  it('maps decisions without ids onto the oldest batch, in order', () => {
    const plan = planDecisions({ decisions: [{ type: 'approve' }, { type: 'reject' }], approver: 'cfo' }, ctx);
    expect(plan.ok && plan.decisions.map((d) => [d.call.id, d.decision.type, d.approver])).toEqual([
      ['a', 'approve', 'cfo'],
      ['b', 'reject', 'cfo'],
    ]);
  });

  it('takes any subset by id, in any order', () => {
    const plan = planDecisions(
      {
        decisions: [
          { id: 'c', type: 'reject' },
          { id: 'a', type: 'respond', message: 'no' },
        ],
      },
      ctx,
    );
    expect(plan.ok && plan.decisions.map((d) => d.call.id)).toEqual(['c', 'a']);
  });

  it('validates an edit against the target tool and hashes the new args', () => {
    const plan = planDecisions({ decisions: [{ id: 'a', type: 'edit', name: 'cancel_order', args: { orderId: '9' } }] }, ctx);
    expect(plan.ok && plan.decisions[0]).toMatchObject({
      toolName: 'cancel_order',
      args: { orderId: '9' },
      argsHash: argsHash({ orderId: '9' }),
    });
  });

  it.each([
    [{ decisions: [{ type: 'approve' }] }, 'batch_count_mismatch'],
    [{ decisions: [{ id: 'a', type: 'approve' }, { type: 'approve' }] }, 'mixed_ids'],
    [
      {
        decisions: [
          { id: 'a', type: 'approve' },
          { id: 'a', type: 'reject' },
        ],
      },
      'duplicate_id',
    ],
    [{ decisions: [{ id: 'q', type: 'approve' }] }, 'unknown_call'],
    [{ decisions: [{ id: 'z', type: 'approve' }] }, 'already_decided'],
    [{ decisions: [{ id: 'c', type: 'respond', message: 'x' }] }, 'decision_not_allowed'],
    [{ decisions: [{ id: 'a', type: 'edit', args: { path: 1 } }] }, 'invalid_edit_args'],
    [{ decisions: [{ id: 'a', type: 'edit', name: 'send_email', args: {} }] }, 'unknown_tool'],
    [{ decisions: [{ id: 'a', type: 'approve', argsHash: 'sha256:1' }] }, 'args_hash_mismatch'],
    [{ decisions: [{ id: 'b', type: 'approve' }] }, 'approver_required'],
    [{ decisions: [{ id: 'b', type: 'approve', approver: 'bob' }] }, 'approver_not_allowed'],
    [{ decisions: [{ id: 'b', type: 'approve' }], approver: 'rita', groups: ['finance'] }, 'four_eyes'],
    [{ decisions: [] }, 'empty'],
    [{ decisions: [{ id: 'a', type: 'approve', always: 'yes' }] }, 'malformed'],
    [{ decisions: [{ id: 'a', type: 'respond' }] }, 'malformed'],
    [{ decisions: [{ id: 'a', type: 'edit', always: true, args: {} }] }, 'malformed'],
    [null, 'malformed'],
  ])('refuses %j with %s', (input, expected) => {
    expect(code(input)).toBe(expected);
  });

  it('holds a response from the requester to four eyes on calls announced under decision rules v6, not before', () => {
    const respond = { decisions: [{ id: 'b', type: 'respond', message: 'Refunded by hand' }], approver: 'rita', groups: ['finance'] };
    const under = (checks: number) => planDecisions(respond, { ...ctx, pending: ctx.pending.map((p) => ({ ...p, checks })) });
    const v6 = under(6);
    expect(!v6.ok && [v6.error.code, v6.error.message]).toEqual([
      'four_eyes',
      'rita requested this run and may not respond to its own process_refund (b); another approver must.',
    ]);
    // A paused run's calls replay as they were judged: under v5 the requester's response was taken.
    expect(under(5).ok).toBe(true);
    // Withdrawing stays theirs, and a colleague may respond.
    expect(
      planDecisions(
        { ...respond, decisions: [{ id: 'b', type: 'reject' }] },
        { ...ctx, pending: ctx.pending.map((p) => ({ ...p, checks: 6 })) },
      ).ok,
    ).toBe(true);
    expect(planDecisions({ ...respond, approver: 'cfo' }, { ...ctx, pending: ctx.pending.map((p) => ({ ...p, checks: 6 })) }).ok).toBe(
      true,
    );
  });

  it('says who decided a call it keeps, and of one it settled without keeping the detail, that it waits no more', () => {
    const message = (id: string, decided: PlanContext['decided']) => {
      const plan = planDecisions({ decisions: [{ id, type: 'approve' }] }, { ...ctx, decided });
      return plan.ok ? 'ok' : plan.error.message;
    };
    expect(message('z', ctx.decided)).toBe('z was already decided (reject by ann).');
    // Such an id may never have waited for anyone (it ran without a gate, or was replaced at a breakpoint).
    expect(message('call-1', new Map([['call-1', { type: 'settled' }]]))).toBe(
      'call-1 is not waiting for a decision: the run dealt with it earlier (it ran without a gate, its arguments were invalid, or it was decided).',
    );
  });

  it('lets the requester reject their own call under four eyes, and a group member approve', () => {
    expect(code({ decisions: [{ id: 'b', type: 'reject' }], approver: 'rita', groups: ['finance'] })).toBe('ok');
    expect(code({ decisions: [{ id: 'b', type: 'approve' }], approver: 'fred', groups: ['finance'] })).toBe('ok');
    expect(code({ decisions: [{ id: 'b', type: 'approve', approver: 'cfo' }] })).toBe('ok');
  });

  it('under the v2 checks, needs an approver for four eyes and the target approvers for an edit', () => {
    const v2: PlanContext = {
      ...ctx,
      pending: ctx.pending.map((p) => ({ ...p, checks: 2, excludedApprovers: ['rita'] })),
      policy: ApprovalPolicy.parse({ tools: { process_refund: { approvers: ['finance'] } } }),
    };
    const code2 = (raw: unknown) => {
      const plan = planDecisions(raw, v2);
      return plan.ok ? 'ok' : plan.error.code;
    };
    expect(code2({ decisions: [{ id: 'a', type: 'approve' }] })).toBe('approver_required');
    expect(code({ decisions: [{ id: 'a', type: 'approve' }] })).toBe('ok');
    const intoRefund = { id: 'a', type: 'edit', name: 'process_refund', args: { orderId: '1', amount: 5 } };
    expect(code2({ decisions: [intoRefund], approver: 'bob' })).toBe('approver_not_allowed');
    expect(code2({ decisions: [intoRefund], approver: 'fay', groups: ['finance'] })).toBe('ok');
    expect(code2({ decisions: [{ ...intoRefund, name: 'cancel_order', args: { orderId: '1' } }], approver: 'bob' })).toBe('ok');
  });

  it('refuses everything when nothing is pending', () => {
    expect(planDecisions({ decisions: [{ type: 'approve' }] }, { ...ctx, pending: [] })).toMatchObject({
      ok: false,
      error: { code: 'nothing_pending' },
    });
  });
});

// Quorum (decision rules v4): what an approval counts for, and what a call needing several approvals refuses.
const refund = { orderId: '1234', amount: 20000 };
const call = (extra: Partial<PendingApproval> = {}): PendingApproval =>
  pending('call-1', 'process_refund', refund, { checks: 4, requiredApprovals: 2, approvers: ['finance'], ...extra });

const quorumPolicy = ApprovalPolicy.parse({
  tools: {
    process_refund: { when: { arg: 'amount', op: 'gt', value: 10000 }, approvers: ['finance'], requiredApprovals: 2 },
    write_file: true,
  },
});
const context = (waiting: PendingApproval): PlanContext => ({
  pending: [waiting],
  decided: new Map(),
  available: ['process_refund', 'write_file'],
  specs: toolSpecs,
  policy: quorumPolicy,
});
const finance = (approver: string) => ({ approver, groups: ['finance'] });

describe('an edit with arguments its tool does not take', () => {
  const edit = { decisions: [{ id: 'a', type: 'edit', args: { path: 'a', content: 'x', mode: 'append' } }] };

  it('is refused, naming them, rather than run without them', () => {
    const plan = planDecisions(edit, { ...ctx, refusesUnknownEditArgs: true });
    expect(!plan.ok && plan.error).toMatchObject({ code: 'invalid_edit_args', message: expect.stringContaining('takes no `mode`') });
    expect(
      planDecisions({ decisions: [{ id: 'a', type: 'edit', args: { path: 'a', content: 'y' } }] }, { ...ctx, refusesUnknownEditArgs: true })
        .ok,
    ).toBe(true);
  });

  it('runs without them in a run from before patch set 6, as when it was recorded', () => {
    const plan = planDecisions(edit, ctx);
    expect(plan.ok && plan.decisions[0]!.args).toEqual({ path: 'a', content: 'x' });
  });
});

describe('quorum', () => {
  it('counts a first approval toward the quorum, and a second completes it', () => {
    const first = planDecisions({ decisions: [{ id: 'call-1', type: 'approve' }], ...finance('ann') }, context(call()));
    expect(first.ok && first.decisions[0]!.quorum).toEqual({ approvals: 1, required: 2 });
    const second = planDecisions(
      { decisions: [{ id: 'call-1', type: 'approve' }], ...finance('bob') },
      context(call({ approvals: [{ approver: 'ann', at: '2026-01-01T01:00:00.000Z' }] })),
    );
    expect(second.ok && second.decisions[0]!.quorum).toEqual({ approvals: 2, required: 2 });
  });

  it('counts each approver once: the same approver again is refused, a reject from them is not', () => {
    const partial = call({ approvals: [{ approver: 'ann', at: '2026-01-01T01:00:00.000Z' }] });
    const again = planDecisions({ decisions: [{ id: 'call-1', type: 'approve' }], ...finance('ann') }, context(partial));
    expect(!again.ok && [again.error.code, again.error.message]).toEqual([
      'already_approved',
      'ann has already approved process_refund (call-1); it waits for other approvers.',
    ]);
    const reject = planDecisions(
      { decisions: [{ id: 'call-1', type: 'reject', message: 'changed my mind' }], ...finance('ann') },
      context(partial),
    );
    expect(reject.ok && reject.decisions[0]!.quorum).toBeUndefined();
  });

  it('needs approvers to say who they are, and refuses an "always" approval', () => {
    const anonymous = planDecisions(
      { decisions: [{ id: 'call-1', type: 'approve' }], groups: ['finance'] },
      context(call({ approvers: undefined })),
    );
    expect(!anonymous.ok && anonymous.error.code).toBe('approver_required');
    const always = planDecisions({ decisions: [{ id: 'call-1', type: 'approve', always: true }], ...finance('ann') }, context(call()));
    expect(!always.ok && always.error.code).toBe('decision_not_allowed');
  });

  it('never counts the requester under four eyes', () => {
    const plan = planDecisions(
      { decisions: [{ id: 'call-1', type: 'approve' }], ...finance('rita') },
      context(call({ excludedApprovers: ['rita'] })),
    );
    expect(!plan.ok && plan.error.code).toBe('four_eyes');
  });

  it('turns an edit that still needs a quorum into a proposal the editor cannot approve', () => {
    const edited = planDecisions(
      { decisions: [{ id: 'call-1', type: 'edit', args: { orderId: '1234', amount: 15000 } }], ...finance('ann') },
      context(call()),
    );
    expect(edited.ok && edited.decisions[0]!.proposal?.gate.requiredApprovals).toBe(2);
    // Edited below the policy's threshold, the call is no longer gated: the edit runs as it is.
    const small = planDecisions(
      { decisions: [{ id: 'call-1', type: 'edit', args: { orderId: '1234', amount: 500 } }], ...finance('ann') },
      context(call()),
    );
    expect(small.ok && small.decisions[0]!.proposal).toBeUndefined();
  });

  it('judges calls announced under earlier rules as they were: one approval settles them', () => {
    const plan = planDecisions({ decisions: [{ id: 'call-1', type: 'approve' }], ...finance('ann') }, context(call({ checks: 3 })));
    expect(plan.ok && plan.decisions[0]!.quorum).toBeUndefined();
  });
});

describe('quorum with signed decisions', () => {
  const signer = newSigner('EdDSA', 'q1');
  const cancel = pending('call-1', 'cancel_order', { orderId: '1234' }, { checks: 4, requiredApprovals: 2, approvers: ['finance'] });
  const signing = {
    required: true,
    trust: trustOf([signer.key.publicJwk]),
    now: NOW,
    rootWorkflowId: 'wf-1',
    shownIdPrefix: '',
    usedTokenIds: new Set<string>(),
  };
  const signed = (approver: string, jti: string) => ({
    id: 'call-1',
    type: 'approve' as const,
    token: token(signer, { approver, jti }),
  });

  it('counts the identity the token proves, not the one the caller claims', () => {
    const plan = planDecisions(
      { decisions: [signed('alice', 'a1')], approver: 'mallory', groups: ['finance'] },
      { ...context(cancel), signing },
    );
    expect(plan.ok && [plan.decisions[0]!.approver, plan.decisions[0]!.quorum]).toEqual(['alice', { approvals: 1, required: 2 }]);
    // alice again, claiming to be bob: her token says who she is, and she has approved already.
    const again = planDecisions(
      { decisions: [signed('alice', 'a2')], approver: 'bob', groups: ['finance'] },
      { ...context({ ...cancel, approvals: [{ approver: 'alice', at: '2026-07-01T11:00:00.000Z' }] }), signing },
    );
    expect(!again.ok && again.error.code).toBe('already_approved');
  });

  it('refuses a token whose identity is padded, which would count as another approver (runs since patch set 13)', () => {
    const alicePadded = { decisions: [signed('alice ', 'p1')] };
    const afterAlice = context({ ...cancel, approvals: [{ approver: 'alice', at: '2026-07-01T11:00:00.000Z' }] });
    expect(planDecisions(alicePadded, { ...afterAlice, signing }).ok).toBe(true);
    expect(planDecisions(alicePadded, { ...afterAlice, signing, refusesMalformedNames: true })).toMatchObject({
      ok: false,
      error: {
        code: 'malformed',
        message: expect.stringMatching(/^The token for cancel_order \(call-1\) names "alice ", which is not a name/),
      },
    });
  });
});
